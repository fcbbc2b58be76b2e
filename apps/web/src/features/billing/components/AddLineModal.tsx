/**
 * A manual line on a draft invoice: an act of the catalogue (searched by code or label) and a quantity; the server
 * prices it at the invoice's payer category and splits it between the payer and the patient.
 */
import { type TInvoiceDetail, ZInvoiceLineCreate } from '@greensen/shared/contracts/billing';
import { NumberInput, Select, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { actLabel } from '../../../lib/billing/act-format';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { money } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useAddLine } from '../api/invoices';
import { useActSearch } from '../api/search-acts';

export function AddLineModal({ invoice, onClose }: { invoice: TInvoiceDetail; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const lang = uiLanguage();
  const form = useForm<{ act: string | null; quantity: number | string }>({
    initialValues: { act: null, quantity: 1 },
  });
  const { general, clear, fail } = useFormFailure(form, t('actionFailed'));
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const acts = useActSearch(debounced, true);
  const add = useAddLine(invoice.id);

  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);

  const found = (acts.data?.results ?? []).map((act) => {
    const tariff = act.current_tariffs.find((x) => x.payer_category === invoice.payer_category);
    return {
      value: act.id,
      label: `${act.code} — ${actLabel(act, lang)}${tariff ? ` · ${money(tariff.price, tariff.currency)}` : ''}`,
    };
  });
  // The picked act stays an option whatever the search (its label becomes the search text).
  const options = picked && !found.some((o) => o.value === picked.value) ? [picked, ...found] : found;

  async function submit() {
    clear();
    const v = form.getValues();
    const body = validateWith(
      ZInvoiceLineCreate,
      { act: v.act ?? undefined, quantity: typeof v.quantity === 'number' ? v.quantity : undefined },
      form,
    );
    if (!body) return;
    try {
      await add.mutateAsync(body);
      toast({ kind: 'success', title: t('lines.added') });
      onClose();
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('lines.addTitle')} onSubmit={() => void submit()}>
      <Stack gap="sm">
        <Select
          label={t('lines.act')}
          required
          searchable
          filter={({ options: all }) => all}
          searchValue={search}
          onSearchChange={setSearch}
          nothingFoundMessage={acts.isFetching ? t('common:states.loading') : t('lines.noAct')}
          data={options}
          data-autofocus
          {...form.getInputProps('act')}
          onChange={(value, option) => {
            setPicked(value ? option : null);
            form.setFieldValue('act', value);
          }}
        />
        <NumberInput
          label={t('lines.quantity')}
          required
          min={1}
          max={1000}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('quantity')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('lines.add')}
          loading={add.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
