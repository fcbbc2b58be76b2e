/**
 * The deposit on admission (caution, avance; issue 21, decision 0036) on the stay's page: what was deposited (and
 * refunded), the stay's invoice that counts it and what is left to pay. Billing staff take a deposit here, in their
 * open cash session (the server refuses it otherwise and once the invoice is issued); the receipt prints from the
 * billing module. In cash, « Rendre la monnaie » opens « Montant reçu » and the change due, as in the payment dialog
 * (issue 37, decision 0079): the same fields; the change stored and printed on the receipt is the server's.
 */
import { type TReceipt, ZDepositCreate } from '@greensen/shared/contracts/billing';
import { parseMoney } from '@greensen/shared/domain/money';
import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCoin, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../api-client';
import { useFormFailure } from '../field-errors';
import { formatDateTime } from '../format';
import { FormFooter, ModalForm } from '../modal-form';
import { money } from '../money';
import { MoneyInput } from '../money-input';
import { LoadError } from '../page-states';
import { useLocalizedPath } from '../use-localized-path';
import { validateWith } from '../zod-form';
import { useRecordDeposit, useStayDeposits } from './coverage-deposits';
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
} from './PaymentFields';

interface Values extends PaymentMethodValues, CashTenderedValues, Record<string, unknown> {
  amount: string;
}

function DepositModal({
  stayId,
  currency,
  onClose,
}: {
  stayId: string;
  currency: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('billing');
  const record = useRecordDeposit(stayId);
  const [refused, setRefused] = useState<string | null>(null);
  const [done, setDone] = useState<TReceipt | null>(null);
  const form = useForm<Values>({
    onValuesChange: () => setRefused(null),
    initialValues: { ...PAYMENT_METHOD_DEFAULTS, ...CASH_TENDERED_DEFAULTS, amount: '' },
  });
  const { general, clear, fail } = useFormFailure(form, t('deposit.failed'));
  const v = form.getValues();
  const amount = parseMoney(v.amount, currency);
  // What the patient hands over, in cash (decision 0079): the payment dialog's fields and reading.
  const cash = readCashTendered(v, amount, currency);

  async function submit() {
    clear();
    if (amount === null || amount <= 0) {
      form.setFieldError('amount', t('amountInvalid'));
      return;
    }
    if (cash.invalid) {
      form.setFieldError('amount_tendered', t('amountInvalid'));
      return;
    }
    const body = validateWith(
      ZDepositCreate,
      { ...paymentMethodBody(v), amount, ...cashTenderedBody(cash) },
      form,
    );
    if (!body) return;
    try {
      setDone(await record.mutateAsync(body));
    } catch (error) {
      if (isApiError(error) && error.status === 409) setRefused(error.message);
      else fail(error);
    }
  }

  if (done)
    return (
      <PaymentDone
        receipt={done}
        title={t('deposit.title')}
        doneTitle={t('deposit.done')}
        testId="deposit-done"
        onClose={onClose}
      />
    );

  return (
    <ModalForm opened onClose={onClose} title={t('deposit.title')} onSubmit={() => void submit()}>
      <Stack gap="sm" data-testid="deposit-form">
        <Text size="sm" c="dimmed">
          {t('deposit.hint')}
        </Text>
        <PaymentMethodFields values={v} field={(name) => form.getInputProps(name)} />
        <MoneyInput
          label={t('pay.amount')}
          required
          currency={currency}
          data-autofocus
          {...form.getInputProps('amount')}
        />
        <CashTenderedFields
          method={v.method}
          reading={cash}
          amount={amount}
          currency={currency}
          field={(name, options) => form.getInputProps(name, options)}
        />
        <PaymentRefused message={refused} />
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('deposit.submit')}
          loading={record.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

export function StayDepositsPanel({ stayId, canTake }: { stayId: string; canTake: boolean }) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  const query = useStayDeposits(stayId);
  const [taking, setTaking] = useState(false);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={80} data-testid="deposits-loading" />;
  const d = query.data;
  const issued = d.invoice?.status === 'issued';
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="stay-deposits"
      component="section"
      aria-label={t('deposit.section')}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <IconCoin size={18} />
            <Text fw={600}>{t('deposit.section')}</Text>
            <Badge variant="light" color={d.total > 0 ? 'green' : 'gray'} data-testid="deposit-total">
              {money(d.total, d.currency)}
            </Badge>
          </Group>
          {canTake && !issued && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => setTaking(true)}
            >
              {t('deposit.take')}
            </Button>
          )}
        </Group>
        {d.deposits.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('deposit.none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing={4}>
              <Table.Tbody>
                {d.deposits.map((p) => (
                  <Table.Tr key={p.id} data-testid="deposit-row">
                    <Table.Td>{formatDateTime(p.received_at)}</Table.Td>
                    <Table.Td>
                      {p.kind === 'refund' ? t('deposit.refund') : t(`methods.${p.method}`)}
                      {p.operator ? ` · ${t(`operators.${p.operator}`)}` : ''}
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={to(`/billing/receipts/${p.receipt.id}`)} size="sm">
                        {p.receipt.number}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ta="right" c={p.amount < 0 ? 'red' : undefined}>
                      {money(p.amount, p.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {d.invoice && (
          <Group gap="md" wrap="wrap">
            <Text size="sm">
              {t('deposit.invoice')}{' '}
              <Anchor component={Link} to={to(`/billing/invoices/${d.invoice.id}`)}>
                {d.invoice.number ?? t('deposit.draft')}
              </Anchor>
            </Text>
            <Text size="sm">
              {t('deposit.patientShare', { amount: money(d.invoice.patient_share, d.currency) })}
            </Text>
            <Text size="sm" fw={600} data-testid="deposit-balance">
              {d.invoice.balance >= 0
                ? t('deposit.left', { amount: money(d.invoice.balance, d.currency) })
                : t('deposit.credit', { amount: money(-d.invoice.balance, d.currency) })}
            </Text>
          </Group>
        )}
      </Stack>
      {taking && <DepositModal stayId={stayId} currency={d.currency} onClose={() => setTaking(false)} />}
    </Paper>
  );
}
