/**
 * The Caisse tab (issue 21). For billing staff: their cash session — none open: open it with a float per currency;
 * open: what it holds so far (the live report) and "Fermer la caisse" (a blind count per currency), then the closed
 * session's report with its variance. Below, the sessions (the cashier's own; every cashier's for the management),
 * each report a click away.
 */
import type { TCashSession } from '@greensen/shared/contracts/billing';
import { ZCashSessionOpen } from '@greensen/shared/contracts/billing';
import { Alert, Badge, Button, Group, Modal, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCashRegister, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDateTime } from '../../../lib/format';
import { useListPage } from '../../../lib/list-filters';
import { money } from '../../../lib/money';
import { DetailQueryState, LoadError } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import {
  useCashSessionReport,
  useCashSessions,
  useCurrentCashSession,
  useOpenCashSession,
} from '../api/cash-sessions';
import { CloseSessionModal } from './CloseSessionModal';
import { CurrencyAmountsField, type CurrencyRow, readCurrencyAmounts } from './CurrencyAmountsField';
import { SessionReport } from './SessionReport';

const PAGE_SIZE = 10;

function OpenSessionForm({ currency }: { currency: string }) {
  const { t } = useTranslation('billing');
  const [rows, setRows] = useState<CurrencyRow[]>([{ currency, amount: '' }]);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const open = useOpenCashSession();

  async function submit() {
    setGeneral(null);
    setErrors({});
    const read = readCurrencyAmounts(rows);
    if (!read.ok) {
      setErrors({ [read.index]: t('amountInvalid') });
      return;
    }
    const body = ZCashSessionOpen.safeParse({ floats: read.amounts });
    if (!body.success) {
      setGeneral(t('cash.openFailed'));
      return;
    }
    try {
      await open.mutateAsync(body.data);
      toast({ kind: 'success', title: t('cash.opened') });
    } catch (error) {
      setGeneral(isApiError(error) ? error.message : t('cash.openFailed'));
    }
  }

  return (
    <Paper withBorder radius="md" p="md" data-testid="open-session">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm" maw={520}>
          <Group gap="xs">
            <IconLock size={18} />
            <Title order={4}>{t('cash.noneOpen')}</Title>
          </Group>
          <Text size="sm" c="dimmed">
            {t('cash.openHint')}
          </Text>
          <CurrencyAmountsField
            rows={rows}
            onChange={setRows}
            errors={errors}
            label={(c) => t('cash.floatIn', { currency: c })}
          />
          {general && (
            <Alert color="red" role="alert">
              {general}
            </Alert>
          )}
          <Button
            type="submit"
            leftSection={<IconCashRegister size={16} />}
            loading={open.isPending}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('cash.open')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function CurrentSession({ session, onClosed }: { session: TCashSession; onClosed: (id: string) => void }) {
  const { t } = useTranslation('billing');
  const report = useCashSessionReport(session.id);
  const [closing, setClosing] = useState(false);
  return (
    <Paper withBorder radius="md" p="md" data-testid="current-session">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <IconCashRegister size={20} />
            <Title order={4}>{t('cash.myOpenSession')}</Title>
          </Group>
          <Button color="orange" onClick={() => setClosing(true)} disabled={!report.data}>
            {t('cash.close')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('cash.floatsLine', {
            amounts:
              session.floats.length === 0
                ? '—'
                : session.floats.map((f) => money(f.amount, f.currency)).join(' · '),
          })}
        </Text>
        {report.isPending || report.isError ? (
          <DetailQueryState query={report} blocks={[120]} />
        ) : (
          <SessionReport report={report.data} />
        )}
      </Stack>
      {closing && report.data && (
        <CloseSessionModal
          report={report.data}
          onClose={() => setClosing(false)}
          onClosed={(id) => {
            setClosing(false);
            onClosed(id);
          }}
        />
      )}
    </Paper>
  );
}

function ReportModal({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const report = useCashSessionReport(id);
  return (
    <Modal opened onClose={onClose} title={t('cash.reportTitle')} size="xl">
      {report.isPending || report.isError ? (
        <DetailQueryState query={report} blocks={[160]} />
      ) : (
        <SessionReport report={report.data} />
      )}
    </Modal>
  );
}

function SessionsTable({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useTranslation('billing');
  const { page, setPage } = useListPage();
  const query = useCashSessions(null, page, PAGE_SIZE);
  return (
    <PagedQueryTable<TCashSession>
      query={query}
      page={page}
      onPageChange={setPage}
      pageSize={PAGE_SIZE}
      minHeight={160}
      noRecordsText={t('cash.noSessions')}
      onRowClick={({ record }) => onOpen(record.id)}
      rowStyle={() => ({ cursor: 'pointer' })}
      columns={[
        { accessor: 'cashier', title: t('cash.cashier'), render: (s) => s.cashier.full_name },
        { accessor: 'opened_at', title: t('cash.openedAtTitle'), render: (s) => formatDateTime(s.opened_at) },
        {
          accessor: 'closed_at',
          title: t('cash.closedAtTitle'),
          render: (s) => (s.closed_at ? formatDateTime(s.closed_at) : '—'),
        },
        {
          accessor: 'status',
          title: t('invoices.status'),
          render: (s) => (
            <Badge size="sm" color={s.status === 'open' ? 'green' : 'gray'} variant="light">
              {t(`cash.statuses.${s.status}`)}
            </Badge>
          ),
        },
      ]}
    />
  );
}

export function CashDeskPanel({ staff, currency }: { staff: boolean; currency: string }) {
  const { t } = useTranslation('billing');
  const current = useCurrentCashSession(staff);
  const [report, setReport] = useState<string | null>(null);

  return (
    <Stack gap="md" data-testid="cash-desk">
      {staff &&
        (current.isError ? (
          <LoadError error={current.error} onRetry={() => void current.refetch()} />
        ) : current.isPending ? (
          <Skeleton h={160} />
        ) : current.data ? (
          <CurrentSession session={current.data} onClosed={setReport} />
        ) : (
          <OpenSessionForm currency={currency} />
        ))}
      <Title order={4}>{staff ? t('cash.mySessions') : t('cash.sessions')}</Title>
      <SessionsTable onOpen={setReport} />
      {report && <ReportModal id={report} onClose={() => setReport(null)} />}
    </Stack>
  );
}
