/**
 * /billing/receipts/{id} (issue 21): a payment's numbered receipt laid out for printing — the hospital, the receipt
 * number and date, the patient (identity only), the invoice, the method (mobile money with operator, phone and
 * transaction reference), the amount (another currency with its rate and the amount in the invoice's currency),
 * what was handed over and the change given back in cash (issue 37, decision 0079), what remains to pay, the
 * cashier. A deposit's receipt (decision 0088) is titled « Reçu de caution » (its refund's « Reçu de remboursement de
 * caution »), names the stay instead of the draft
 * invoice and shows money paid ahead as « En faveur du patient ». "Imprimer" prints it with the browser: the print stylesheet keeps the receipt alone on the sheet
 * (decision 0030; the templates issue brings a PDF).
 */
import { Anchor, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { formatDate, formatDateTime } from '../../../lib/format';
import { money } from '../../../lib/money';
import { DetailQueryState } from '../../../lib/page-states';
import { PrintStyles } from '../../../lib/print-styles';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useReceipt } from '../api/payments';
import { methodLabel } from '../components/payment-format';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The receipt alone on the sheet, black on white, whatever the colour scheme. */
const RECEIPT_PRINT_CSS = `@media print {
  @page { margin: 12mm; }
  [data-receipt] { border: none !important; box-shadow: none !important; max-width: none !important;
    background: #fff !important; color: #000 !important; }
  [data-receipt] * { color: #000 !important; }
}`;

function Row({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="md" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 500} ta="right" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </Group>
  );
}

/** A payment's, a refund's, a deposit's or a deposit refund's receipt (decision 0088). */
function receiptTitle(t: TFunction<'billing'>, refund: boolean, deposit: boolean) {
  if (deposit) return refund ? t('receipt.depositRefundTitle') : t('receipt.depositTitle');
  return refund ? t('receipt.refundTitle') : t('receipt.title');
}

export default function ReceiptPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  const valid = UUID_RE.test(id);
  const query = useReceipt(id, valid);
  const notFound = `/error-404?${new URLSearchParams({ type: 'receipt', id }).toString()}`;

  if (!valid) return <Navigate to={to(notFound)} replace />;
  if (query.isError && isApiError(query.error) && query.error.status === 404)
    return <Navigate to={to(notFound)} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[360]} titleWidth="30%" testId="receipt-loading" />;

  const r = query.data;
  const p = r.payment;
  const refund = p.kind === 'refund';
  const foreign = p.currency !== r.invoice.currency;
  // A cash payment with what the patient handed over and the change given back (decision 0079).
  const tendered = p.amount_tendered !== null && p.change_due !== null;
  // A deposit reads as one (decision 0088): its title, its stay for the draft's missing number, and money paid
  // ahead of the stay's bill as the patient's credit rather than a negative « Reste à payer ».
  const stay = r.stay;
  const credit = stay ? r.invoice.balance < 0 : false;

  return (
    <Stack gap="md" align="center">
      <PrintStyles />
      <style>{RECEIPT_PRINT_CSS}</style>
      <Group justify="space-between" w="100%" maw={480} data-no-print>
        <Anchor component={Link} to={to(`/billing/invoices/${r.invoice.id}`)} size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            {stay ? t('receipt.backStay') : t('receipt.back')}
          </Group>
        </Anchor>
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t('print')}
        </Button>
      </Group>
      <Paper withBorder radius="md" p="lg" w="100%" maw={480} data-receipt data-testid="receipt">
        <Stack gap="xs">
          <div style={{ textAlign: 'center' }}>
            <Title order={4}>{r.hospital.name}</Title>
            <Text size="sm" fw={700} mt={4}>
              {receiptTitle(t, refund, stay !== null)}
            </Text>
            <Text size="sm" ff="monospace" data-testid="receipt-number">
              {r.number}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(r.issued_at)}
            </Text>
          </div>
          <Divider my={4} />
          <Row label={t('invoices.patient')}>
            {r.patient.full_name}
            <br />
            {r.patient.record_number}
          </Row>
          {stay ? (
            <Row label={t('receipt.stay')}>
              <span data-testid="receipt-stay">
                {stay.admitted_at
                  ? t('receipt.stayOf', { department: stay.department, date: formatDate(stay.admitted_at) })
                  : t('receipt.stayRequested', {
                      department: stay.department,
                      date: formatDate(stay.requested_at),
                    })}
              </span>
            </Row>
          ) : (
            <Row label={t('receipt.invoice')}>{r.invoice.number ?? '—'}</Row>
          )}
          <Row label={t('payments.method')}>{methodLabel(p.method, p.operator)}</Row>
          {p.phone && <Row label={t('pay.phone')}>{p.phone}</Row>}
          {p.reference && (
            <Row label={p.method === 'mobile_money' ? t('pay.transaction') : t('pay.reference')}>
              {p.reference}
            </Row>
          )}
          <Divider my={4} />
          <Row
            label={refund ? t('receipt.refunded') : tendered ? t('receipt.paid') : t('receipt.received')}
            strong
          >
            <span data-testid="receipt-amount">{money(Math.abs(p.amount), p.currency)}</span>
          </Row>
          {tendered && (
            <>
              <Row label={t('receipt.tendered')}>
                <span data-testid="receipt-tendered">{money(p.amount_tendered ?? 0, p.currency)}</span>
              </Row>
              <Row label={t('receipt.change')} strong>
                <span data-testid="receipt-change">{money(p.change_due ?? 0, p.currency)}</span>
              </Row>
            </>
          )}
          {foreign && (
            <Row label={t('receipt.rate', { from: p.currency, to: r.invoice.currency })}>
              {p.rate} → {money(Math.abs(p.amount_invoice_currency), r.invoice.currency)}
            </Row>
          )}
          {p.reason && <Row label={t('reason')}>{p.reason}</Row>}
          <Divider my={4} />
          <Row label={t('amounts.patientShare')}>{money(r.invoice.patient_share, r.invoice.currency)}</Row>
          <Row label={t('receipt.paidToDate')}>{money(r.invoice.paid, r.invoice.currency)}</Row>
          <Row label={credit ? t('receipt.credit') : t('amounts.balance')} strong>
            <span data-testid="receipt-balance">
              {money(credit ? -r.invoice.balance : r.invoice.balance, r.invoice.currency)}
            </span>
          </Row>
          <Divider my={4} />
          <Text size="xs" c="dimmed" ta="center">
            {t('receipt.cashier', { who: p.received_by.full_name })}
          </Text>
          <Text size="xs" c="dimmed" ta="center">
            {t('receipt.thanks')}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
