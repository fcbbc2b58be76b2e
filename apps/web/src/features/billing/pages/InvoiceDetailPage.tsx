/**
 * /billing/invoices/{id} (issue 21): an invoice or a credit note — number (none while draft), status, patient
 * (identity only), payer and member number, the lines with their payer and patient shares, the totals, payments and
 * what remains. A draft is edited by billing staff (add a line, remove one or discount it with a reason), then
 * issued (confirmed: immutable afterwards) or cancelled; an issued invoice is paid ("Encaisser", receipts), refunded,
 * and corrected only by a credit note. Printable with the browser. A missing invoice is the error page (generic
 * texts: no `invoice` type in the specification).
 */
import {
  type TInvoiceLine,
  type TPaymentSummary,
  ZInvoiceCancel,
  ZInvoiceLineDiscount,
  ZInvoiceLineRemove,
  ZPaymentRefund,
} from '@greensen/shared/contracts/billing';
import { minorToDecimal } from '@greensen/shared/domain/money';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconAlertTriangle,
  IconCash,
  IconCheck,
  IconPlus,
  IconPrinter,
  IconReceiptRefund,
  IconRefresh,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { actLabel } from '../../../lib/billing/act-format';
import { useBillingRights } from '../../../lib/billing/rights';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { money } from '../../../lib/money';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { PrintStyles } from '../../../lib/print-styles';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useCurrentCashSession } from '../api/cash-sessions';
import {
  unpricedOf,
  useAssembleInvoice,
  useCancelInvoice,
  useDiscountLine,
  useInvoice,
  useIssueInvoice,
  useRemoveLine,
} from '../api/invoices';
import { useRefundPayment } from '../api/payments';
import { AddLineModal } from '../components/AddLineModal';
import { AmountReasonModal } from '../components/AmountReasonModal';
import { CreditNoteModal } from '../components/CreditNoteModal';
import { InvoiceBadges } from '../components/InvoiceBadges';
import { InvoiceLines } from '../components/InvoiceLines';
import { PaymentModal } from '../components/PaymentModal';
import { PaymentsList } from '../components/PaymentsList';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function notFoundPath(id: string): string {
  return `/error-404?${new URLSearchParams({ type: 'invoice', id }).toString()}`;
}

/** The text of an amount for a field, with the UI's decimal separator. */
function fieldText(amount: number, currency: string): string {
  const text = minorToDecimal(amount, currency);
  return uiLanguage() === 'fr' ? text.replace('.', ',') : text;
}

type Dialog =
  | { kind: 'add' }
  | { kind: 'remove'; line: TInvoiceLine }
  | { kind: 'discount'; line: TInvoiceLine }
  | { kind: 'cancel' }
  | { kind: 'pay' }
  | { kind: 'refund'; payment: TPaymentSummary }
  | { kind: 'credit' };

export default function InvoiceDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('billing');
  const lang = uiLanguage();
  const to = useLocalizedPath();
  const rights = useBillingRights();
  const valid = UUID_RE.test(id);
  const query = useInvoice(id, valid);
  const session = useCurrentCashSession(rights.staff);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const issue = useIssueInvoice(id);
  const cancel = useCancelInvoice(id);
  const remove = useRemoveLine(id);
  const discount = useDiscountLine(id);
  const refund = useRefundPayment();
  const assemble = useAssembleInvoice();
  const navigate = useNavigate();
  const location = useLocation();

  if (!valid) return <Navigate to={to(notFoundPath(id))} replace />;
  if (query.isError && isApiError(query.error) && query.error.status === 404)
    return <Navigate to={to(notFoundPath(id))} replace />;
  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 260]} testId="invoice-loading" />;

  const inv = query.data;
  const c = inv.currency;
  const isInvoice = inv.kind === 'invoice';
  const draft = inv.status === 'draft';
  const unpriced = unpricedOf(inv, location.state);
  const issued = inv.status === 'issued';
  const editable = draft && rights.staff;

  /** Assembles the draft again with what its visit or stay did since (a visit's draft may become its stay's). */
  async function refresh() {
    try {
      const fresh = await assemble.mutateAsync(
        inv.hospitalization ? { hospitalization: inv.hospitalization } : { admission: inv.admission },
      );
      toast({ kind: 'success', title: t('detail.refreshed') });
      if (fresh.id !== inv.id) navigate(to(`/billing/invoices/${fresh.id}`));
    } catch (error) {
      if (isApiError(error))
        toast({ kind: 'error', title: t('detail.refreshFailed'), description: error.message });
    }
  }
  const payable = issued && isInvoice && rights.staff && inv.balance > 0;
  const sessionOpen = Boolean(session.data);
  const close = () => setDialog(null);

  function confirmIssue() {
    modals.openConfirmModal({
      title: t('issue.title'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('issue.text')}</Text>
          <Text size="sm" fw={600}>
            {t('issue.amounts', {
              total: money(inv.total, c),
              patient: money(inv.patient_share, c),
              payer: money(inv.payer_share, c),
            })}
          </Text>
        </Stack>
      ),
      labels: { confirm: t('issue.confirm'), cancel: t('common:actions.cancel') },
      onConfirm: () => {
        issue.mutate(undefined, {
          onSuccess: (done) =>
            toast({ kind: 'success', title: t('issue.done'), description: done.number ?? '' }),
          onError: (error) => {
            if (isApiError(error) && error.status !== 403 && error.status !== 404)
              toast({ kind: 'error', title: t('issue.failed'), description: error.message });
          },
        });
      },
    });
  }

  const title = inv.number
    ? isInvoice
      ? t('detail.invoiceTitle', { number: inv.number })
      : t('detail.creditTitle', { number: inv.number })
    : t('detail.draftTitle');

  return (
    <Stack gap="md" data-testid="invoice-page">
      <PrintStyles />
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2} data-testid="invoice-title">
              {title}
            </Title>
            <InvoiceBadges status={inv.status} kind={inv.kind} standing={inv.standing} size="lg" />
          </Group>
          <Text c="dimmed" size="sm">
            {inv.patient.full_name} · {inv.patient.record_number}
            {inv.issued_at
              ? ` · ${t('detail.issuedOn', { date: formatDateTime(inv.issued_at) })}`
              : ` · ${t('detail.createdOn', { date: formatDateTime(inv.created_at) })}`}
          </Text>
        </div>
        <Group gap="xs" data-no-print>
          <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            {t('print')}
          </Button>
          {editable && (
            <>
              <Button
                variant="default"
                leftSection={<IconPlus size={16} />}
                onClick={() => setDialog({ kind: 'add' })}
              >
                {t('lines.add')}
              </Button>
              <Button
                variant="default"
                color="red"
                leftSection={<IconX size={16} />}
                onClick={() => setDialog({ kind: 'cancel' })}
              >
                {t('cancelDraft.action')}
              </Button>
              <Button
                leftSection={<IconCheck size={16} />}
                loading={issue.isPending}
                disabled={inv.lines.every((line) => line.is_removed)}
                onClick={confirmIssue}
              >
                {t('issue.action')}
              </Button>
            </>
          )}
          {issued && isInvoice && rights.credit && (
            <Button
              variant="default"
              color="grape"
              leftSection={<IconReceiptRefund size={16} />}
              onClick={() => setDialog({ kind: 'credit' })}
            >
              {t('credit.action')}
            </Button>
          )}
          {payable && (
            <Button
              color="green"
              leftSection={<IconCash size={16} />}
              onClick={() => setDialog({ kind: 'pay' })}
            >
              {t('pay.action')}
            </Button>
          )}
        </Group>
      </Group>

      {inv.status === 'cancelled' && (
        <Alert color="gray" icon={<IconX size={18} />}>
          {t('detail.cancelled', { reason: inv.cancel_reason ?? '' })}
        </Alert>
      )}
      {inv.credited_invoice && (
        <Alert color="grape">
          {t('detail.creditOf')}{' '}
          <Anchor component={Link} to={to(`/billing/invoices/${inv.credited_invoice.id}`)}>
            {inv.credited_invoice.number}
          </Anchor>
          {inv.credit_reason ? ` — ${inv.credit_reason}` : ''}
        </Alert>
      )}
      {draft && unpriced.length > 0 && (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('detail.unpriced')}>
          <Stack gap={2}>
            {unpriced.map((u) => (
              <Text key={`${u.performed_act}-${u.label}`} size="sm">
                {u.label} — {t(`detail.unpricedReason.${u.reason === 'no_act' ? 'no_act' : 'no_tariff'}`)}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {draft && <Alert color="yellow">{t('detail.draftHint')}</Alert>}
      {draft && inv.out_of_date && (
        <Alert color="orange" icon={<IconRefresh size={18} />} data-testid="invoice-out-of-date">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm">{t('detail.outOfDate')}</Text>
            {editable && (
              <Button
                size="xs"
                color="orange"
                leftSection={<IconRefresh size={14} />}
                loading={assemble.isPending}
                onClick={() => void refresh()}
              >
                {t('detail.refresh')}
              </Button>
            )}
          </Group>
        </Alert>
      )}

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md">
          <DetailField label={t('detail.payer')}>
            <Text size="sm">{inv.payer ? inv.payer.name : t('detail.noPayer')}</Text>
            {inv.member_number && (
              <Text size="xs" c="dimmed">
                {t('detail.member', { number: inv.member_number })}
              </Text>
            )}
          </DetailField>
          <DetailField label={t('detail.payerCategory')}>
            <Text size="sm">{t(`medical_acts:payerCategories.${inv.payer_category}`)}</Text>
          </DetailField>
          <DetailField label={t('amounts.total')}>
            <Text size="sm" ff="monospace">
              {money(inv.total, c)}
            </Text>
          </DetailField>
          <DetailField label={t('amounts.payerShare')}>
            <Text size="sm" ff="monospace" data-testid="payer-share">
              {money(inv.payer_share, c)}
            </Text>
          </DetailField>
          <DetailField label={t('amounts.patientShare')}>
            <Text size="sm" ff="monospace" data-testid="patient-share">
              {money(inv.patient_share, c)}
            </Text>
          </DetailField>
          {isInvoice && (
            <DetailField label={t('amounts.balance')}>
              <Text
                size="lg"
                fw={700}
                ff="monospace"
                c={issued && inv.balance > 0 ? 'orange' : undefined}
                data-testid="invoice-balance"
              >
                {money(inv.balance, c)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('detail.paid', { amount: money(inv.paid, c) })}
              </Text>
            </DetailField>
          )}
        </SimpleGrid>
      </Paper>

      <InvoiceLines
        invoice={inv}
        editable={editable}
        onRemove={(line) => setDialog({ kind: 'remove', line })}
        onDiscount={(line) => setDialog({ kind: 'discount', line })}
      />

      {isInvoice && issued && (
        <Stack gap="xs">
          <Title order={4}>{t('payments.title')}</Title>
          <PaymentsList
            invoice={inv}
            canRefund={rights.staff}
            onRefund={(payment) => setDialog({ kind: 'refund', payment })}
          />
        </Stack>
      )}

      {inv.credit_notes.length > 0 && (
        <Stack gap="xs">
          <Title order={4}>{t('credit.list')}</Title>
          {inv.credit_notes.map((note) => (
            <Group key={note.id} gap="xs">
              <Anchor component={Link} to={to(`/billing/invoices/${note.id}`)} ff="monospace" size="sm">
                {note.number}
              </Anchor>
              <Text size="sm" ff="monospace">
                {money(note.total, c)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}

      <Text size="xs" c="dimmed">
        {t('detail.createdBy', { who: inv.created_by.full_name })}
        {inv.issued_by ? ` · ${t('detail.issuedBy', { who: inv.issued_by.full_name })}` : ''}
      </Text>

      {dialog?.kind === 'add' && <AddLineModal invoice={inv} onClose={close} />}
      {dialog?.kind === 'pay' && <PaymentModal invoice={inv} sessionOpen={sessionOpen} onClose={close} />}
      {dialog?.kind === 'credit' && <CreditNoteModal invoice={inv} onClose={close} />}
      <ReasonModal
        opened={dialog?.kind === 'remove'}
        onClose={close}
        title={t('lines.removeTitle')}
        description={
          <Text size="sm">{dialog?.kind === 'remove' ? actLabel(dialog.line.act, lang) : ''}</Text>
        }
        reasonLabel={t('reason')}
        confirmLabel={t('lines.remove')}
        closeLabel={t('common:actions.cancel')}
        color="red"
        schema={ZInvoiceLineRemove}
        onConfirm={(reason) =>
          dialog?.kind === 'remove' ? remove.mutateAsync({ line: dialog.line.id, reason }) : Promise.resolve()
        }
        doneTitle={t('lines.removedDone')}
      />
      <ReasonModal
        opened={dialog?.kind === 'cancel'}
        onClose={close}
        title={t('cancelDraft.title')}
        description={<Text size="sm">{t('cancelDraft.text')}</Text>}
        reasonLabel={t('reason')}
        confirmLabel={t('cancelDraft.confirm')}
        closeLabel={t('common:actions.cancel')}
        color="red"
        schema={ZInvoiceCancel}
        onConfirm={(reason) => cancel.mutateAsync(reason)}
        doneTitle={t('cancelDraft.done')}
      />
      {dialog?.kind === 'discount' && (
        <AmountReasonModal
          title={t('lines.discountTitle')}
          description={`${actLabel(dialog.line.act, lang)} — ${money(dialog.line.gross, c)}`}
          currency={c}
          max={dialog.line.gross}
          initial={dialog.line.discount > 0 ? fieldText(dialog.line.discount, c) : ''}
          amountLabel={t('lines.discount')}
          submitLabel={t('common:actions.save')}
          doneTitle={t('lines.discounted')}
          schema={ZInvoiceLineDiscount}
          onConfirm={(body) => discount.mutateAsync({ line: dialog.line.id, ...body })}
          onClose={close}
          testId="discount-form"
        />
      )}
      {dialog?.kind === 'refund' && (
        <AmountReasonModal
          title={t('refund.title')}
          description={t('refund.text', {
            receipt: dialog.payment.receipt.number,
            amount: money(dialog.payment.amount, dialog.payment.currency),
          })}
          currency={dialog.payment.currency}
          max={dialog.payment.amount}
          initial={fieldText(dialog.payment.amount, dialog.payment.currency)}
          amountLabel={t('refund.amount')}
          submitLabel={t('refund.submit')}
          doneTitle={t('refund.done')}
          color="orange"
          schema={ZPaymentRefund}
          onConfirm={(body) => refund.mutateAsync({ payment: dialog.payment.id, ...body })}
          onClose={close}
          testId="refund-form"
        />
      )}
    </Stack>
  );
}
