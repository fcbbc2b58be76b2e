/**
 * An invoice's payments and refunds: receipt number (opens the printable receipt), when, the method (mobile money
 * with its operator) and its reference, the amount (and in another currency the rate and the amount in the invoice's
 * currency), who received it. Billing staff refund a payment.
 */
import type { TInvoiceDetail, TPaymentSummary } from '@greensen/shared/contracts/billing';
import { Anchor, Badge, Button, Paper, Table, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { money } from '../../../lib/money';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { methodLabel } from './payment-format';

export function PaymentsList({
  invoice,
  canRefund,
  onRefund,
}: {
  invoice: TInvoiceDetail;
  canRefund: boolean;
  onRefund: (payment: TPaymentSummary) => void;
}) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  if (invoice.payments.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="no-payments">
        {t('payments.none')}
      </Text>
    );
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" fz="sm" data-testid="payments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('payments.receipt')}</Table.Th>
              <Table.Th>{t('payments.method')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('pay.amount')}</Table.Th>
              <Table.Th>{t('payments.by')}</Table.Th>
              {canRefund && <Table.Th data-no-print />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.payments.map((p) => (
              <Table.Tr key={p.id} data-testid="payment-row" data-kind={p.kind}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={to(`/billing/receipts/${p.receipt.id}`)}
                    size="sm"
                    ff="monospace"
                    style={{ whiteSpace: 'nowrap' }}
                  >
                    {p.receipt.number}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(p.received_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {p.kind === 'refund' && (
                    <Badge size="xs" color="orange" variant="light" mr={4}>
                      {t('payments.refund')}
                    </Badge>
                  )}
                  {p.is_deposit && (
                    <Badge size="xs" color="teal" variant="light" mr={4}>
                      {t('deposit.badge')}
                    </Badge>
                  )}
                  {methodLabel(p.method, p.operator)}
                  {/* Under its method (the operator's or the bank's reference): one column less at tablet width. */}
                  {p.reference && (
                    <Text size="xs" ff="monospace" c="dimmed" title={t('payments.reference')}>
                      {p.reference}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  <Text size="sm" ff="monospace" c={p.amount < 0 ? 'orange' : undefined}>
                    {money(p.amount, p.currency)}
                  </Text>
                  {p.currency !== invoice.currency && (
                    <Text size="xs" c="dimmed">
                      {t('payments.converted', {
                        rate: p.rate ?? '',
                        amount: money(p.amount_invoice_currency, invoice.currency),
                      })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{p.received_by.full_name}</Table.Td>
                {canRefund && (
                  <Table.Td data-no-print>
                    {p.kind === 'payment' && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="orange"
                        leftSection={<IconArrowBackUp size={12} />}
                        onClick={() => onRefund(p)}
                      >
                        {t('payments.refundAction')}
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
