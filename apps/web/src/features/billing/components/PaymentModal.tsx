/**
 * "Encaisser" on an issued invoice (issue 21): the method (cash, card, transfer, cheque, mobile money), for mobile
 * money the operator, the payer's phone and the operator's transaction reference; a reference for the others; the
 * amount (the balance by default, French decimal comma accepted) and, in another currency, the rate of the day with
 * the amount it makes in the invoice's currency (the shared rounding rule). The server's refusals are shown as they
 * come: a reference already recorded (409), no open cash session (409). While a mobile-money request of the invoice
 * is pending (issue 36), the server asks for a confirmation (409, `mobile_money_pending`): the dialog shows the
 * pending amount and takes the payment only when the cashier confirms. After the payment, its receipt to print.
 * In cash, « Rendre la monnaie » opens « Montant reçu » (what the patient hands over) and shows the change due as the
 * cashier types, in red when it does not cover the amount (issue 37, decision 0079); the change stored and printed is
 * the server's.
 */

import { type TInvoiceDetail, type TReceipt, ZPaymentCreate } from '@greensen/shared/contracts/billing';
import { COMMON_CURRENCIES } from '@greensen/shared/contracts/structure';
import { convertMinor, minorToDecimal, parseMoney, RATE_PATTERN } from '@greensen/shared/domain/money';
import { Alert, Anchor, Button, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconDeviceMobileDollar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import {
  CASH_TENDERED_DEFAULTS,
  CashTenderedFields,
  type CashTenderedValues,
  cashTenderedBody,
  PAYMENT_METHOD_DEFAULTS,
  PaymentDone,
  PaymentMethodFields,
  type PaymentMethodValues,
  PaymentRefused,
  paymentMethodBody,
  readCashTendered,
} from '../../../lib/billing/PaymentFields';
import { useFormFailure } from '../../../lib/field-errors';
import { uiLanguage } from '../../../lib/i18n';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { money } from '../../../lib/money';
import { MoneyInput } from '../../../lib/money-input';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { validateWith } from '../../../lib/zod-form';
import { useCurrentRates } from '../api/exchange-rates';
import { useRecordPayment } from '../api/payments';

interface Values extends PaymentMethodValues, CashTenderedValues, Record<string, unknown> {
  currency: string;
  amount: string;
  rate: string;
  note: string;
}

/** The text of an amount for the field, with the UI's decimal separator. */
function amountField(amount: number, currency: string): string {
  const text = minorToDecimal(Math.max(0, amount), currency);
  return uiLanguage() === 'fr' ? text.replace('.', ',') : text;
}

/** The rate as typed (`655,957`) as the API wants it (`655.957`); null when it is not a rate. */
function readRate(text: string): string | null {
  const rate = text.trim().replace(/\s/g, '').replace(',', '.');
  return RATE_PATTERN.test(rate) && /[1-9]/.test(rate) ? rate : null;
}

/** Whether a 409's body is the server's question about a pending mobile-money request. */
function pendingCode(body: unknown): boolean {
  return (
    typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'mobile_money_pending'
  );
}

export function PaymentModal({
  invoice,
  sessionOpen,
  onClose,
}: {
  invoice: TInvoiceDetail;
  /** The cashier has an open cash session (a payment needs one: the server refuses otherwise). */
  sessionOpen: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  const [refused, setRefused] = useState<string | null>(null);
  // The server's question when a mobile-money request of the invoice is pending: its words, until confirmed.
  const [pendingQuestion, setPendingQuestion] = useState<string | null>(null);
  const form = useForm<Values>({
    // A refusal concerns what was sent: it goes away as soon as the cashier changes something.
    onValuesChange: () => {
      setRefused(null);
      setPendingQuestion(null);
    },
    initialValues: {
      ...PAYMENT_METHOD_DEFAULTS,
      currency: invoice.currency,
      amount: invoice.balance > 0 ? amountField(invoice.balance, invoice.currency) : '',
      rate: '',
      note: '',
      ...CASH_TENDERED_DEFAULTS,
    },
  });
  const { general, clear, fail } = useFormFailure(form, t('pay.failed'));
  const [done, setDone] = useState<TReceipt | null>(null);
  const record = useRecordPayment();
  const v = form.getValues();
  const foreign = v.currency !== invoice.currency;
  const amount = parseMoney(v.amount, v.currency);
  // The hospital's rate of the day for the currency (decision 0040): the server applies it when none is typed.
  const tableRate = useCurrentRates().data?.rates.find((r) => r.base === v.currency)?.rate ?? null;
  const typedRate = readRate(v.rate);
  const rate = v.rate.trim() === '' ? tableRate : typedRate;
  const converted =
    foreign && amount !== null && amount > 0 && rate
      ? convertMinor(amount, v.currency, rate, invoice.currency)
      : null;
  // What the patient hands over, in cash (decision 0079): the change shown live is the shared rule's figure.
  const cash = readCashTendered(v, amount, v.currency);

  async function submit(confirmPending = false) {
    clear();
    setRefused(null);
    setPendingQuestion(null);
    if (v.amount.trim() !== '' && (amount === null || amount <= 0)) {
      form.setFieldError('amount', t('amountInvalid'));
      return;
    }
    if (cash.invalid) {
      form.setFieldError('amount_tendered', t('amountInvalid'));
      return;
    }
    if (foreign && v.rate.trim() === '' && !tableRate) {
      form.setFieldError('rate', t('pay.rateRequired'));
      return;
    }
    if (foreign && v.rate.trim() !== '' && !typedRate) {
      form.setFieldError('rate', t('pay.rateInvalid'));
      return;
    }
    const body = validateWith(
      ZPaymentCreate,
      {
        invoice: invoice.id,
        ...paymentMethodBody(v),
        currency: v.currency,
        amount: amount ?? undefined,
        rate: foreign ? typedRate : null,
        note: v.note.trim() || null,
        ...cashTenderedBody(cash),
        ...(confirmPending ? { confirm_pending: true } : {}),
      },
      form,
    );
    if (!body) return;
    try {
      setDone(await record.mutateAsync(body));
    } catch (error) {
      // A reference already recorded, no open session, an invoice not payable: the server's words, prominently.
      if (isApiError(error) && error.status === 409 && pendingCode(error.body))
        setPendingQuestion(error.message);
      else if (isApiError(error) && error.status === 409) setRefused(error.message);
      else fail(error);
    }
  }

  if (done)
    return (
      <PaymentDone
        receipt={done}
        title={t('pay.title')}
        doneTitle={t('pay.done')}
        testId="payment-done"
        onClose={onClose}
      />
    );

  return (
    <ModalForm opened onClose={onClose} title={t('pay.title')} size="lg" onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="payment-form">
        <Text size="sm">{t('pay.balance', { amount: money(invoice.balance, invoice.currency) })}</Text>
        {!sessionOpen && (
          <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid="no-session-warning">
            {t('pay.noSession')}{' '}
            <Anchor component={Link} to={to('/billing?tab=cash')} size="sm">
              {t('pay.openSession')}
            </Anchor>
          </Alert>
        )}
        <PaymentMethodFields values={v} field={(name) => form.getInputProps(name)} />
        <SimpleGrid cols={{ base: 1, sm: foreign ? 3 : 2 }} spacing="sm">
          <Select
            label={t('cash.currency')}
            allowDeselect={false}
            data={[...new Set([invoice.currency, ...COMMON_CURRENCIES])]}
            {...form.getInputProps('currency')}
          />
          <MoneyInput
            label={t('pay.amount')}
            required
            currency={v.currency}
            data-autofocus
            {...form.getInputProps('amount')}
          />
          {foreign && (
            <TextInput
              label={t('pay.rate')}
              placeholder={t('pay.ratePlaceholder', { from: v.currency, to: invoice.currency })}
              required={!tableRate}
              description={
                tableRate
                  ? t('pay.rateFromTable', {
                      from: v.currency,
                      rate: uiLanguage() === 'fr' ? tableRate.replace('.', ',') : tableRate,
                      to: invoice.currency,
                    })
                  : undefined
              }
              inputMode="decimal"
              autoComplete="off"
              {...form.getInputProps('rate')}
            />
          )}
        </SimpleGrid>
        {foreign && converted !== null && (
          <Text size="sm" data-testid="converted">
            {t('pay.converted', { amount: money(converted, invoice.currency) })}
          </Text>
        )}
        <CashTenderedFields
          method={v.method}
          reading={cash}
          amount={amount}
          currency={v.currency}
          field={(name, options) => form.getInputProps(name, options)}
        />
        <Textarea label={t('pay.note')} autosize minRows={1} {...form.getInputProps('note')} />
        <PaymentRefused message={refused} />
        {pendingQuestion && (
          <Alert
            color="orange"
            icon={<IconDeviceMobileDollar size={18} />}
            title={t('pay.pendingTitle')}
            role="alert"
            data-testid="mobile-money-pending"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{pendingQuestion}</Text>
              <Button size="xs" color="orange" loading={record.isPending} onClick={() => void submit(true)}>
                {t('pay.pendingConfirm')}
              </Button>
            </Stack>
          </Alert>
        )}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('pay.submit')}
          loading={record.isPending}
        />
      </Stack>
    </ModalForm>
  );
}
