/** Creating or changing a ward: department, name, code, tariff category, sex and age restrictions, active. */
import { type TWard, ZWardCreate, ZWardUpdate } from '@greensen/shared/contracts/structure';
import { NumberInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateWard, useUpdateWard } from '../api/structure';

interface WardFormValues {
  department: string | null;
  name: string;
  code: string;
  category: string;
  sex_restriction: string | null;
  min_age: number | string;
  max_age: number | string;
  is_active: boolean;
  [key: string]: unknown;
}

const ageOrNull = (value: number | string) => (value === '' ? null : Number(value));

export function WardFormModal({
  ward,
  opened,
  onClose,
  onSaved,
}: {
  ward: TWard | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (id: string) => void;
}) {
  const { t } = useTranslation('structure');
  const departments = useDepartments();
  const form = useForm<WardFormValues>({
    initialValues: {
      department: ward?.department.id ?? null,
      name: ward?.name ?? '',
      code: ward?.code ?? '',
      category: ward?.category ?? '',
      sex_restriction: ward?.sex_restriction ?? null,
      min_age: ward?.min_age ?? '',
      max_age: ward?.max_age ?? '',
      is_active: ward?.is_active ?? true,
    },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateWard();
  const update = useUpdateWard();
  const [general, setGeneral] = useState<string | null>(null);

  async function submit() {
    setGeneral(null);
    const v = form.getValues();
    const body = {
      department: v.department ?? '',
      name: v.name,
      code: v.code,
      category: v.category.trim() || null,
      sex_restriction: (v.sex_restriction as 'F' | 'M' | null) ?? null,
      min_age: ageOrNull(v.min_age),
      max_age: ageOrNull(v.max_age),
      ...(ward ? { is_active: v.is_active } : {}),
    };
    if (!validateWith(ward ? ZWardUpdate : ZWardCreate, body, form)) return;
    try {
      const saved = ward
        ? await update.mutateAsync({ id: ward.id, ...body })
        : await create.mutateAsync(body);
      toast({ kind: 'success', title: t(ward ? 'wards.saved' : 'wards.created') });
      onSaved?.(saved.id);
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t(ward ? 'wards.edit' : 'wards.new')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <Select
          label={t('wards.department')}
          withAsterisk
          data={(departments.data?.results ?? [])
            .filter((d) => d.is_active || d.id === ward?.department.id)
            .map((d) => ({ value: d.id, label: d.name }))}
          searchable
          {...form.getInputProps('department')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('wards.name')} withAsterisk {...form.getInputProps('name')} />
          <TextInput
            label={t('wards.code')}
            description={t('codeHint')}
            withAsterisk
            {...form.getInputProps('code')}
          />
          <TextInput
            label={t('wards.category')}
            description={t('wards.categoryHint')}
            {...form.getInputProps('category')}
          />
          <Select
            label={t('wards.sex')}
            placeholder={t('wards.sexAny')}
            data={[
              { value: 'F', label: t('wards.sexF') },
              { value: 'M', label: t('wards.sexM') },
            ]}
            clearable
            {...form.getInputProps('sex_restriction')}
          />
          <NumberInput
            label={t('wards.minAge')}
            min={0}
            max={130}
            allowDecimal={false}
            {...form.getInputProps('min_age')}
          />
          <NumberInput
            label={t('wards.maxAge')}
            min={0}
            max={130}
            allowDecimal={false}
            {...form.getInputProps('max_age')}
          />
        </SimpleGrid>
        {ward && <Switch label={t('active')} {...form.getInputProps('is_active', { type: 'checkbox' })} />}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('save')}
          loading={create.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
