/**
 * A credit note (avoir) against an issued invoice — the only correction an issued invoice takes: for the whole
 * invoice or for some of its lines, with a reason. It gets its own number (`AV-…`) and reduces what the patient
 * and the payer owe.
 */
import { type TInvoiceDetail, ZCreditNoteCreate } from '@greensen/shared/contracts/billing';
import { Alert, Checkbox, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { actLabel } from '../../../lib/billing/act-format';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { money } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { validateWith } from '../../../lib/zod-form';
import { useCreditNote } from '../api/invoices';

export function CreditNoteModal({ invoice, onClose }: { invoice: TInvoiceDetail; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const lang = uiLanguage();
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const lines = invoice.lines.filter((line) => !line.is_removed);
  const [chosen, setChosen] = useState<string[]>(lines.map((line) => line.id));
  const form = useForm<{ reason: string }>({ initialValues: { reason: '' } });
  const { general, clear, fail } = useFormFailure(form, t('actionFailed'));
  const credit = useCreditNote(invoice.id);

  async function submit() {
    clear();
    if (chosen.length === 0) {
      form.setFieldError('reason', t('credit.noLine'));
      return;
    }
    const whole = chosen.length === lines.length;
    const body = validateWith(
      ZCreditNoteCreate,
      { reason: form.getValues().reason, lines: whole ? undefined : chosen },
      form,
    );
    if (!body) return;
    try {
      const note = await credit.mutateAsync(body);
      toast({ kind: 'success', title: t('credit.done'), description: note.number ?? undefined });
      onClose();
      navigate(to(`/billing/invoices/${note.id}`));
    } catch (error) {
      fail(error);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={t('credit.title')} size="lg" onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="credit-form">
        <Alert color="grape">{t('credit.hint', { number: invoice.number ?? '' })}</Alert>
        <Text size="sm" fw={600}>
          {t('credit.lines')}
        </Text>
        <Checkbox.Group value={chosen} onChange={setChosen}>
          <Stack gap={6}>
            {lines.map((line) => (
              <Checkbox
                key={line.id}
                value={line.id}
                label={`${actLabel(line.act, lang)} × ${line.quantity} — ${money(line.total, invoice.currency)}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Textarea
          label={t('reason')}
          required
          autosize
          minRows={2}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('credit.submit')}
          loading={credit.isPending}
          color="grape"
        />
      </Stack>
    </ModalForm>
  );
}
