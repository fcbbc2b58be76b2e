/**
 * An amount with a mandatory reason (a discount on a line, a refund of a payment): the amount typed with a French
 * decimal comma, read into minor units of `currency`, at most `max`; the reason as the contract asks (3–500
 * characters). The server's refusals go under the form.
 */
import { parseMoney } from '@greensen/shared/domain/money';
import { type MantineColor, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useFormFailure } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { money } from '../../../lib/money';
import { MoneyInput } from '../../../lib/money-input';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';

export function AmountReasonModal({
  title,
  description,
  currency,
  max,
  initial,
  amountLabel,
  submitLabel,
  doneTitle,
  color,
  schema,
  onConfirm,
  onClose,
  testId,
}: {
  title: string;
  description: ReactNode;
  currency: string;
  /** The most it may be, minor units. */
  max: number;
  /** The amount's text at first. */
  initial: string;
  amountLabel: string;
  submitLabel: string;
  doneTitle: string;
  color?: MantineColor;
  schema: z.ZodType<{ amount: number; reason: string }>;
  onConfirm: (body: { amount: number; reason: string }) => Promise<unknown>;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation('billing');
  const form = useForm<{ amount: string; reason: string }>({
    initialValues: { amount: initial, reason: '' },
  });
  const { general, clear, fail } = useFormFailure(form, t('actionFailed'));
  const [pending, setPending] = useState(false);

  async function submit() {
    clear();
    const v = form.getValues();
    const amount = parseMoney(v.amount, currency);
    if (amount === null || amount < 0) {
      form.setFieldError('amount', t('amountInvalid'));
      return;
    }
    if (amount > max) {
      form.setFieldError('amount', t('amountTooHigh', { max: money(max, currency) }));
      return;
    }
    const body = validateWith(schema, { amount, reason: v.reason }, form);
    if (!body) return;
    setPending(true);
    try {
      await onConfirm(body);
      toast({ kind: 'success', title: doneTitle });
      onClose();
    } catch (error) {
      fail(error);
    } finally {
      setPending(false);
    }
  }

  return (
    <ModalForm opened onClose={onClose} title={title} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid={testId}>
        {typeof description === 'string' ? <Text size="sm">{description}</Text> : description}
        <MoneyInput
          label={amountLabel}
          required
          currency={currency}
          data-autofocus
          {...form.getInputProps('amount')}
        />
        <Textarea label={t('reason')} required autosize minRows={2} {...form.getInputProps('reason')} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={submitLabel}
          loading={pending}
          color={color}
        />
      </Stack>
    </ModalForm>
  );
}
