/**
 * The hospital the user works in (issue 15): name, time zone, currency, triage scale, contact, languages and the
 * lines its printed documents carry. Its code is shown, never changed (record and invoice numbers carry it). An
 * administrator edits it, creates another hospital (and administers it), or deactivates this one when another
 * is left to work in.
 */
import {
  COMMON_CURRENCIES,
  type THospital,
  ZHospitalCreate,
  ZHospitalUpdate,
} from '@greensen/shared/contracts/structure';
import {
  Autocomplete,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { DetailQueryState } from '../../../lib/page-states';
import { timeZones } from '../../../lib/time-zones';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateHospital, useCurrentHospital, useUpdateHospital } from '../api/hospital';
import { HospitalLogo } from './HospitalLogo';

interface HospitalFormValues {
  name: string;
  code: string;
  time_zone: string;
  currency: string;
  triage_scale: string;
  address: string;
  phones: string[];
  languages: string[];
  print_header: string;
  print_footer: string;
  is_active: boolean;
  [key: string]: unknown;
}

function valuesOf(h: THospital | null): HospitalFormValues {
  return {
    name: h?.name ?? '',
    code: h?.code ?? '',
    time_zone: h?.time_zone ?? 'Africa/Kinshasa',
    currency: h?.currency ?? 'CDF',
    triage_scale: h?.triage_scale ?? 'FRENCH',
    address: h?.address ?? '',
    phones: h?.phones ?? [],
    languages: h?.languages ?? ['fr', 'en'],
    print_header: h?.print_header ?? '',
    print_footer: h?.print_footer ?? '',
    is_active: h?.is_active ?? true,
  };
}

function bodyOf(v: HospitalFormValues) {
  return {
    name: v.name,
    time_zone: v.time_zone,
    currency: v.currency,
    triage_scale: v.triage_scale as 'FRENCH' | 'SATS',
    address: v.address.trim() || null,
    phones: v.phones,
    languages: v.languages as ('fr' | 'en')[],
    print_header: v.print_header.trim() || null,
    print_footer: v.print_footer.trim() || null,
  };
}

function HospitalFields({
  form,
  readOnly,
  withCode,
}: {
  form: ReturnType<typeof useForm<HospitalFormValues>>;
  readOnly: boolean;
  withCode: 'edit' | 'show';
}) {
  const { t } = useTranslation('structure');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('hospital.name')}
          withAsterisk
          readOnly={readOnly}
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('hospital.code')}
          description={t(withCode === 'edit' ? 'hospital.codeHint' : 'hospital.codeFixed')}
          withAsterisk={withCode === 'edit'}
          readOnly={withCode !== 'edit'}
          {...form.getInputProps('code')}
        />
        <Select
          label={t('hospital.timeZone')}
          data={timeZones()}
          searchable
          allowDeselect={false}
          readOnly={readOnly}
          {...form.getInputProps('time_zone')}
        />
        <Autocomplete
          label={t('hospital.currency')}
          description={t('hospital.currencyHint')}
          data={[...COMMON_CURRENCIES]}
          readOnly={readOnly}
          {...form.getInputProps('currency')}
        />
      </SimpleGrid>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('hospital.triageScale')}
        </Text>
        <SegmentedControl
          data={[
            { value: 'FRENCH', label: t('hospital.scaleFRENCH') },
            { value: 'SATS', label: t('hospital.scaleSATS') },
          ]}
          readOnly={readOnly}
          {...form.getInputProps('triage_scale')}
        />
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('hospital.address')} readOnly={readOnly} {...form.getInputProps('address')} />
        <TagsInput
          label={t('hospital.phones')}
          description={t('hospital.phonesHint')}
          readOnly={readOnly}
          {...form.getInputProps('phones')}
        />
      </SimpleGrid>
      <Checkbox.Group label={t('hospital.languages')} {...form.getInputProps('languages')}>
        <Group gap="md" mt={4}>
          <Checkbox value="fr" label="Français" disabled={readOnly} />
          <Checkbox value="en" label="English" disabled={readOnly} />
        </Group>
      </Checkbox.Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Textarea
          label={t('hospital.printHeader')}
          description={t('hospital.printHint')}
          autosize
          minRows={2}
          readOnly={readOnly}
          {...form.getInputProps('print_header')}
        />
        <Textarea
          label={t('hospital.printFooter')}
          description={t('hospital.printHint')}
          autosize
          minRows={2}
          readOnly={readOnly}
          {...form.getInputProps('print_footer')}
        />
      </SimpleGrid>
    </Stack>
  );
}

function NewHospitalModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('structure');
  const form = useForm<HospitalFormValues>({ initialValues: valuesOf(null) });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateHospital();
  const [general, setGeneral] = useState<string | null>(null);
  async function submit() {
    setGeneral(null);
    const body = validateWith(
      ZHospitalCreate,
      { ...bodyOf(form.getValues()), code: form.getValues().code },
      form,
    );
    if (!body) return;
    try {
      const hospital = await create.mutateAsync(body);
      toast({
        kind: 'success',
        title: t('hospital.created', { name: hospital.name }),
        description: t('hospital.createdHint'),
      });
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
      title={t('hospital.new')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <HospitalFields form={form} readOnly={false} withCode="edit" />
        <FormFooter general={general} onCancel={onClose} submitLabel={t('save')} loading={create.isPending} />
      </Stack>
    </ModalForm>
  );
}

function HospitalForm({ hospital, canManage }: { hospital: THospital; canManage: boolean }) {
  const { t } = useTranslation('structure');
  const form = useForm<HospitalFormValues>({ initialValues: valuesOf(hospital) });
  const applyServerErrors = useServerFieldErrors(form);
  const update = useUpdateHospital();
  const [general, setGeneral] = useState<string | null>(null);
  async function submit() {
    setGeneral(null);
    const values = form.getValues();
    const body = validateWith(ZHospitalUpdate, { ...bodyOf(values), is_active: values.is_active }, form);
    if (!body) return;
    try {
      await update.mutateAsync({ id: hospital.id, ...body });
      toast({ kind: 'success', title: t('hospital.saved') });
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('failed')));
    }
  }
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="md">
        <HospitalFields form={form} readOnly={!canManage} withCode="show" />
        {canManage && (
          <>
            <Switch
              label={t('hospital.active')}
              description={t('hospital.activeHint')}
              {...form.getInputProps('is_active', { type: 'checkbox' })}
            />
            <FormFooter
              general={general}
              onCancel={() => form.setValues(valuesOf(hospital))}
              cancelLabel={t('hospital.undo')}
              submitLabel={t('save')}
              loading={update.isPending}
              leftSection={<IconDeviceFloppy size={16} />}
            />
          </>
        )}
      </Stack>
    </form>
  );
}

export function HospitalPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('structure');
  const query = useCurrentHospital();
  const [creating, setCreating] = useState(false);
  if (query.isPending || query.isError) return <DetailQueryState query={query} blocks={[220, 160]} />;
  return (
    <Stack gap="md" data-testid="hospital-panel">
      {canManage && (
        <Group justify="flex-end">
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('hospital.new')}
          </Button>
        </Group>
      )}
      <Paper withBorder radius="md" p="md">
        <HospitalForm
          key={`${query.data.id}:${query.dataUpdatedAt}`}
          hospital={query.data}
          canManage={canManage}
        />
      </Paper>
      <HospitalLogo hospital={query.data} canManage={canManage} />
      {creating && <NewHospitalModal opened onClose={() => setCreating(false)} />}
    </Stack>
  );
}
