/**
 * A new price for a payer category from a date (issue 21): the open tariff that started earlier is closed the day
 * before by the server; past prices stay, so a price change never rewrites an invoice.
 */
import {
  PAYER_CATEGORIES,
  type PayerCategory,
  type TMedicalActDetail,
  ZTariffCreate,
} from '@greensen/shared/contracts/medical-acts';
import { parseMoney } from '@greensen/shared/domain/money';
import { Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { actLabel } from '../../../lib/billing/act-format';
import { DateField } from '../../../lib/date-field';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { MoneyInput } from '../../../lib/money-input';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateTariff } from '../api/save-medical-act';

interface Values extends Record<string, unknown> {
  payer_category: PayerCategory | null;
  price: string;
  valid_from: string;
  valid_to: string;
}

export function TariffModal({
  act,
  currency,
  category,
  onClose,
}: {
  act: TMedicalActDetail;
  currency: string;
  /** The payer category to price (chosen in the dialog when absent). */
  category?: PayerCategory;
  onClose: () => void;
}) {
  const { t } = useTranslation('medical_acts');
  const form = useForm<Values>({
    initialValues: {
      payer_category: category ?? null,
      price: '',
      valid_from: dayjs().format('YYYY-MM-DD'),
      valid_to: '',
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('form.failed'));
  const save = useCreateTariff(act.id);

  async function submit() {
    clear();
    const v = form.getValues();
    const price = parseMoney(v.price, currency);
    if (v.price.trim() !== '' && (price === null || price < 0)) {
      form.setFieldError('price', t('form.priceInvalid'));
      return;
    }
    const body = validateWith(
      ZTariffCreate,
      {
        payer_category: v.payer_category ?? undefined,
        price: price ?? undefined,
        valid_from: v.valid_from || null,
        valid_to: v.valid_to || null,
      },
      form,
    );
    if (!body) return;
    try {
      await save.mutateAsync(body);
      toast({ kind: 'success', title: t('tariffs.saved') });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('tariffs.newTitle')} onSubmit={() => void submit()}>
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {act.code} — {actLabel(act, uiLanguage())}
        </Text>
        <Select
          label={t('tariffs.payerCategory')}
          required
          data={PAYER_CATEGORIES.map((value) => ({ value, label: t(`payerCategories.${value}`) }))}
          {...form.getInputProps('payer_category')}
        />
        <MoneyInput
          label={t('tariffs.price')}
          required
          currency={currency}
          data-autofocus
          {...form.getInputProps('price')}
        />
        <SimpleGrid cols={2} spacing="sm">
          <DateField label={t('tariffs.validFrom')} required {...form.getInputProps('valid_from')} />
          <DateField label={t('tariffs.validTo')} clearable {...form.getInputProps('valid_to')} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('tariffs.hint')}
        </Text>
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('common:actions.save')}
          loading={save.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
