/**
 * Creating an act (code, labels in French and English, category, active, and its first price per payer category)
 * or editing one (the same without the prices: a price changes through a new tariff). Validated with the shared
 * schemas; the server's field errors (a code already used…) go to their fields.
 */
import {
  ACT_CATEGORIES,
  type ActCategory,
  PAYER_CATEGORIES,
  type TMedicalActDetail,
  ZMedicalActCreate,
  ZMedicalActUpdate,
} from '@greensen/shared/contracts/medical-acts';
import { parseMoney } from '@greensen/shared/domain/money';
import { Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { MoneyInput } from '../../../lib/money-input';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateMedicalAct, useUpdateMedicalAct } from '../api/save-medical-act';

interface Values extends Record<string, unknown> {
  code: string;
  label_fr: string;
  label_en: string;
  category: ActCategory | null;
  is_active: boolean;
  prices: Record<string, string>;
}

export function ActFormModal({
  act,
  currency,
  onClose,
  onSaved,
}: {
  /** The act edited; none: a new act. */
  act?: TMedicalActDetail;
  currency: string;
  onClose: () => void;
  onSaved?: (id: string) => void;
}) {
  const { t } = useTranslation('medical_acts');
  const form = useForm<Values>({
    initialValues: {
      code: act?.code ?? '',
      label_fr: act?.label_fr ?? '',
      label_en: act?.label_en ?? '',
      category: act?.category ?? null,
      is_active: act?.is_active ?? true,
      prices: Object.fromEntries(PAYER_CATEGORIES.map((c) => [c, ''])),
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const create = useCreateMedicalAct();
  const update = useUpdateMedicalAct(act?.id ?? '');

  async function submit() {
    clear();
    const v = form.getValues();
    const fields = {
      code: v.code,
      label_fr: v.label_fr,
      label_en: v.label_en,
      category: v.category ?? undefined,
      is_active: v.is_active,
    };
    try {
      if (act) {
        const body = validateWith(ZMedicalActUpdate, fields, form);
        if (!body) return;
        await update.mutateAsync(body);
        toast({ kind: 'success', title: t('form.saved') });
        onSaved?.(act.id);
      } else {
        const tariffs = [];
        for (const category of PAYER_CATEGORIES) {
          const text = v.prices[category] ?? '';
          if (text.trim() === '') continue;
          const price = parseMoney(text, currency);
          if (price === null || price < 0) {
            form.setFieldError(`prices.${category}`, t('form.priceInvalid'));
            return;
          }
          tariffs.push({ payer_category: category, price });
        }
        const body = validateWith(ZMedicalActCreate, { ...fields, tariffs }, form);
        if (!body) return;
        const created = await create.mutateAsync(body);
        toast({ kind: 'success', title: t('form.created'), description: created.code });
        onSaved?.(created.id);
      }
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm
      opened
      onClose={onClose}
      title={act ? t('form.editTitle', { code: act.code }) : t('form.createTitle')}
      size="lg"
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('fields.code')}
            description={t('form.codeHint')}
            required
            data-autofocus
            {...form.getInputProps('code')}
          />
          <Select
            label={t('fields.category')}
            required
            data={ACT_CATEGORIES.map((value) => ({ value, label: t(`categories.${value}`) }))}
            {...form.getInputProps('category')}
          />
        </SimpleGrid>
        <TextInput label={t('fields.label_fr')} required {...form.getInputProps('label_fr')} />
        <TextInput label={t('fields.label_en')} required {...form.getInputProps('label_en')} />
        <Switch label={t('fields.is_active')} {...form.getInputProps('is_active', { type: 'checkbox' })} />
        {!act && (
          <>
            <Text size="sm" fw={600} mt="xs">
              {t('form.firstPrices')}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {PAYER_CATEGORIES.map((category) => (
                <MoneyInput
                  key={category}
                  label={t(`payerCategories.${category}`)}
                  currency={currency}
                  {...form.getInputProps(`prices.${category}`)}
                />
              ))}
            </SimpleGrid>
          </>
        )}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={act ? t('common:actions.save') : t('form.create')}
          loading={create.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
