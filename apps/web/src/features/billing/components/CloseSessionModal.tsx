/**
 * Closing the cash desk: the cashier counts the cash in the drawer per currency (every currency of the session
 * is asked; another can be added) and may leave a note; the report then shows expected vs counted and the variance.
 * The count is blind: the expected amounts are not shown before it (decision 0030).
 */
import { type TCashSessionReport, ZCashSessionClose } from '@greensen/shared/contracts/billing';
import { Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { useCloseCashSession } from '../api/cash-sessions';
import { CurrencyAmountsField, type CurrencyRow, readCurrencyAmounts } from './CurrencyAmountsField';

export function CloseSessionModal({
  report,
  onClose,
  onClosed,
}: {
  report: TCashSessionReport;
  onClose: () => void;
  onClosed: (sessionId: string) => void;
}) {
  const { t } = useTranslation('billing');
  const [rows, setRows] = useState<CurrencyRow[]>(
    report.cash.map((row) => ({ currency: row.currency, amount: '' })),
  );
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [note, setNote] = useState('');
  const [general, setGeneral] = useState<string | null>(null);
  const close = useCloseCashSession();

  async function submit() {
    setGeneral(null);
    setErrors({});
    const read = readCurrencyAmounts(rows);
    if (!read.ok) {
      setErrors({ [read.index]: t('amountInvalid') });
      return;
    }
    const body = ZCashSessionClose.safeParse({ counted: read.amounts, note: note.trim() || null });
    if (!body.success) {
      setGeneral(t('cash.closeFailed'));
      return;
    }
    try {
      await close.mutateAsync({ id: report.session.id, ...body.data });
      toast({ kind: 'success', title: t('cash.closed') });
      onClosed(report.session.id);
    } catch (error) {
      setGeneral(isApiError(error) ? error.message : t('cash.closeFailed'));
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('cash.closeTitle')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="close-session-form">
        <Text size="sm">{t('cash.closeHint')}</Text>
        <CurrencyAmountsField
          rows={rows}
          onChange={setRows}
          errors={errors}
          fixedCurrencies={report.cash.length}
          label={(currency) => t('cash.countedIn', { currency })}
        />
        <Textarea
          label={t('cash.note')}
          autosize
          minRows={2}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('cash.close')}
          loading={close.isPending}
          color="orange"
        />
      </Stack>
    </ModalForm>
  );
}
