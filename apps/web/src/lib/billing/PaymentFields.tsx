/**
 * What a payment and a deposit on admission ask alike (issue 21, decisions 0030 and 0036): the method, for mobile
 * money the operator, the payer's phone and the operator's transaction reference, a reference for the other
 * non-cash methods; in cash, « Rendre la monnaie » with « Montant reçu » and the change due shown as the cashier types
 * (issue 37, decision 0079); the server's refusal (409) in red; and, once recorded, the receipt to print. The payment
 * dialog (`features/billing/components/PaymentModal.tsx`) and the stay's deposit panel (`StayDepositsPanel.tsx`) use
 * them.
 */
import {
  MOBILE_MONEY_OPERATORS,
  type MobileMoneyOperator,
  PAYMENT_METHODS,
  type PaymentMethod,
  type TReceipt,
} from '@greensen/shared/contracts/billing';
import { changeDue, parseMoney } from '@greensen/shared/domain/money';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { GetInputPropsOptions, GetInputPropsReturnType } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck, IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ModalForm } from '../modal-form';
import { money } from '../money';
import { MoneyInput } from '../money-input';
import { useLocalizedPath } from '../use-localized-path';

/** The method fields' values as the form keeps them. */
export interface PaymentMethodValues {
  method: PaymentMethod;
  operator: MobileMoneyOperator | null;
  phone: string;
  reference: string;
}

export type PaymentMethodField = keyof PaymentMethodValues;

export const PAYMENT_METHOD_DEFAULTS: PaymentMethodValues = {
  method: 'cash',
  operator: null,
  phone: '',
  reference: '',
};

/**
 * The method fields of the request body: the operator and phone for mobile money only, no reference for cash (a
 * reference typed for another method before switching to cash is dropped).
 */
export function paymentMethodBody(v: PaymentMethodValues) {
  const mobile = v.method === 'mobile_money';
  return {
    method: v.method,
    operator: mobile ? v.operator : null,
    phone: mobile ? v.phone.trim() || null : null,
    reference: v.method === 'cash' ? null : v.reference.trim() || null,
  };
}

export function PaymentMethodFields({
  values,
  field,
}: {
  values: PaymentMethodValues;
  /** The form's input props of a field (`(name) => form.getInputProps(name)`). */
  field: (name: PaymentMethodField) => GetInputPropsReturnType;
}) {
  const { t } = useTranslation('billing');
  const mobile = values.method === 'mobile_money';
  return (
    <>
      <Select
        label={t('pay.method')}
        required
        allowDeselect={false}
        data={PAYMENT_METHODS.map((value) => ({ value, label: t(`methods.${value}`) }))}
        {...field('method')}
      />
      {mobile && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('pay.operator')}
            required
            data={MOBILE_MONEY_OPERATORS.map((value) => ({ value, label: t(`operators.${value}`) }))}
            {...field('operator')}
          />
          <TextInput
            label={t('pay.phone')}
            required
            type="tel"
            inputMode="tel"
            placeholder="+225 07 00 00 00 00"
            {...field('phone')}
          />
        </SimpleGrid>
      )}
      {values.method !== 'cash' && (
        <TextInput
          label={mobile ? t('pay.transaction') : t('pay.reference')}
          required={mobile}
          description={mobile ? t('pay.transactionHint') : undefined}
          autoComplete="off"
          {...field('reference')}
        />
      )}
    </>
  );
}

/** In cash, what the patient hands over as the form keeps it (decision 0079). */
export interface CashTenderedValues {
  method: PaymentMethod;
  /** The cashier gives change: opens « Montant reçu ». */
  give_change: boolean;
  amount_tendered: string;
}

export type CashTenderedField = 'give_change' | 'amount_tendered';

export const CASH_TENDERED_DEFAULTS: Omit<CashTenderedValues, 'method'> = {
  give_change: false,
  amount_tendered: '',
};

/** What the form makes of the amount tendered for an amount (minor units of `currency`, null when not read). */
export interface CashTendered {
  /** Cash with « Rendre la monnaie »: the field is shown. */
  tendering: boolean;
  /** What was handed over, minor units; null when not tendering or not read. */
  tendered: number | null;
  /** The shared rule's change (tendered − amount), null when it does not cover the amount or is not known. */
  change: number | null;
  /** A tendered amount below the amount: shown in red before sending. */
  short: boolean;
  /** Something typed that is not an amount. */
  invalid: boolean;
}

/**
 * Reads the amount tendered of a cash form against the amount to take. The change shown live is a display of the
 * shared `changeDue`; the figure stored and printed is the server's.
 */
export function readCashTendered(
  v: CashTenderedValues,
  amount: number | null,
  currency: string,
): CashTendered {
  const tendering = v.method === 'cash' && v.give_change;
  const tendered = tendering ? parseMoney(v.amount_tendered, currency) : null;
  const taken = amount !== null && amount > 0 ? amount : null;
  const change = taken !== null ? changeDue(taken, tendered) : null;
  return {
    tendering,
    tendered,
    change,
    short: tendered !== null && taken !== null && change === null,
    invalid: tendering && v.amount_tendered.trim() !== '' && (tendered === null || tendered <= 0),
  };
}

/** The request body's part: what a cashier giving change typed, nothing otherwise (the body it always was). */
export function cashTenderedBody(c: CashTendered): { amount_tendered?: number } {
  return c.tendered !== null ? { amount_tendered: c.tendered } : {};
}

/**
 * In cash only: the « Rendre la monnaie » switch, then « Montant reçu » and the change due as the cashier types, or
 * in red what the amount tendered does not cover. Nothing for the other methods.
 */
export function CashTenderedFields({
  method,
  reading,
  amount,
  currency,
  field,
}: {
  method: PaymentMethod;
  reading: CashTendered;
  /** The amount to take as read (minor units of `currency`), for the short message. */
  amount: number | null;
  currency: string;
  /** The form's input props of a field (`(name, options) => form.getInputProps(name, options)`). */
  field: (name: CashTenderedField, options?: GetInputPropsOptions) => GetInputPropsReturnType;
}) {
  const { t } = useTranslation('billing');
  if (method !== 'cash') return null;
  return (
    <>
      <Switch label={t('pay.giveChange')} {...field('give_change', { type: 'checkbox' })} />
      {reading.tendering && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <MoneyInput label={t('pay.tendered')} currency={currency} {...field('amount_tendered')} />
          {reading.change !== null && (
            <Text size="sm" fw={700} mt={{ sm: 28 }} aria-live="polite" data-testid="change-due">
              {t('pay.changeDue', { amount: money(reading.change, currency) })}
            </Text>
          )}
          {reading.short && (
            <Text size="sm" c="red" mt={{ sm: 28 }} role="alert" data-testid="tendered-short">
              {t('pay.tenderedShort', { amount: money(amount ?? 0, currency) })}
            </Text>
          )}
        </SimpleGrid>
      )}
    </>
  );
}

/** The server's refusal of what was sent (a reference already recorded, no open session…), in its words. */
export function PaymentRefused({ message }: { message: string | null }) {
  const { t } = useTranslation('billing');
  if (!message) return null;
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('pay.refused')} role="alert">
      {message}
    </Alert>
  );
}

/** The dialog once the payment (or deposit) is recorded: its amount, its receipt's number and a link to print it. */
export function PaymentDone({
  receipt,
  title,
  doneTitle,
  testId,
  onClose,
}: {
  receipt: TReceipt;
  title: string;
  doneTitle: string;
  testId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  return (
    <ModalForm opened onClose={onClose} title={title} onSubmit={onClose}>
      <Stack gap="sm" data-testid={testId}>
        <Alert color="green" icon={<IconCircleCheck size={18} />} title={doneTitle}>
          {t('pay.doneText', {
            amount: money(receipt.payment.amount, receipt.payment.currency),
            receipt: receipt.number,
          })}
          {receipt.payment.change_due !== null && receipt.payment.amount_tendered !== null && (
            <Text size="sm" fw={700} mt={4} data-testid="payment-change">
              {t('pay.changeDone', {
                tendered: money(receipt.payment.amount_tendered, receipt.payment.currency),
                change: money(receipt.payment.change_due, receipt.payment.currency),
              })}
            </Text>
          )}
        </Alert>
        <Group justify="flex-end">
          <Button
            component={Link}
            to={to(`/billing/receipts/${receipt.id}`)}
            variant="default"
            leftSection={<IconPrinter size={16} />}
          >
            {t('pay.printReceipt')}
          </Button>
          <Button type="submit" data-autofocus>
            {t('close')}
          </Button>
        </Group>
      </Stack>
    </ModalForm>
  );
}
