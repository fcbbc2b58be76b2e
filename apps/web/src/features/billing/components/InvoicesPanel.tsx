/**
 * The Factures tab: the hospital's invoices and credit notes, newest first — searched by number (debounced), filtered
 * by patient, status and creation dates, server-paginated — with the shares, what was paid and what remains. A row
 * opens the invoice; billing staff also invoice a visit from here.
 */
import type { TInvoice } from '@greensen/shared/contracts/billing';
import { INVOICE_STATUSES, type InvoiceStatus } from '@greensen/shared/domain/invoices';
import { Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilePlus } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientPicker } from '../../../lib/clinical/components/PatientPicker';
import { DateField } from '../../../lib/date-field';
import { formatDate } from '../../../lib/format';
import { lazyComponent } from '../../../lib/lazy-component';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { money } from '../../../lib/money';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useInvoices } from '../api/invoices';
import { INVOICES_PAGE_SIZE } from '../pages/billing-first';
import { InvoiceBadges } from './InvoiceBadges';

const PAGE_SIZE = INVOICES_PAGE_SIZE;
/** « Facturer une visite »: its form (and the schemas it validates with) loads when opened (issue 38). */
const loadAssembleModal = async () => ({ default: (await import('./AssembleModal')).AssembleModal });
const AssembleModal = lazyComponent(loadAssembleModal);

function Amount({ value, currency, strong }: { value: number; currency: string; strong?: boolean }) {
  return (
    <Text size="sm" ff="monospace" fw={strong ? 700 : undefined} style={{ whiteSpace: 'nowrap' }}>
      {money(value, currency)}
    </Text>
  );
}

export function InvoicesPanel({
  staff,
  initialPatient,
  initialStatus = null,
}: {
  /** Billing staff: may invoice a visit. */
  staff: boolean;
  /** A patient to filter on from the start (`/billing?patient=…`, the patient record's link). */
  initialPatient: string | null;
  /** A status to filter on from the start (the cashier's home: the issued invoices, waiting to be paid). */
  initialStatus?: InvoiceStatus | null;
}) {
  const { t } = useTranslation('billing');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const { page, setPage, resetPage } = useListPage();
  const [number, setNumber] = useState('');
  const [debounced] = useDebouncedValue(number, 300);
  const [patient, setPatient] = useState<string | null>(initialPatient);
  const [status, setStatus] = useState<InvoiceStatus | null>(initialStatus);
  const [from, setFrom] = useState('');
  const [until, setUntil] = useState('');
  const [assembling, setAssembling] = useState(false);
  const query = useInvoices({
    number: debounced,
    patient,
    status,
    from,
    to: until,
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = Boolean(debounced || patient || status || from || until);

  return (
    <Stack gap="sm" data-testid="invoices-panel">
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, lg: 5 }} spacing="sm">
        <SearchFilter
          label={t('invoices.number')}
          placeholder={t('invoices.numberPlaceholder')}
          value={number}
          onChange={resetPage(setNumber)}
        />
        <PatientPicker
          label={t('invoices.patient')}
          placeholder={t('invoices.anyPatient')}
          nothingFound={t('invoices.noPatient')}
          required={false}
          withAsterisk={false}
          clearable
          value={patient}
          onChange={(id) => resetPage(setPatient)(id || null)}
        />
        <Select
          label={t('invoices.status')}
          placeholder={t('invoices.anyStatus')}
          clearable
          data={INVOICE_STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) }))}
          value={status}
          onChange={(value) => resetPage(setStatus)(value as InvoiceStatus | null)}
        />
        <DateField label={t('invoices.from')} value={from} onChange={resetPage(setFrom)} clearable />
        <DateField label={t('invoices.to')} value={until} onChange={resetPage(setUntil)} clearable />
      </SimpleGrid>
      {staff && (
        <Group justify="flex-end">
          <Button
            variant="light"
            leftSection={<IconFilePlus size={16} />}
            onClick={() => setAssembling(true)}
          >
            {t('assemble.open')}
          </Button>
        </Group>
      )}
      <PagedQueryTable<TInvoice>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={filtered ? t('invoices.emptyFiltered') : t('invoices.empty')}
        onRowClick={({ record }) => navigate(to(`/billing/invoices/${record.id}`))}
        rowStyle={() => ({ cursor: 'pointer' })}
        columns={[
          {
            accessor: 'number',
            title: t('invoices.number'),
            render: (inv) => (
              <div data-testid="invoice-row" data-patient={inv.patient.full_name}>
                <Text size="sm" ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {inv.number ?? t('invoices.draftNumber')}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDate(inv.issued_at ?? inv.created_at)}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'patient',
            title: t('invoices.patient'),
            render: (inv) => (
              <div>
                <Text size="sm">{inv.patient.full_name}</Text>
                <Text size="xs" c="dimmed">
                  {inv.patient.record_number}
                  {inv.payer ? ` · ${inv.payer.name}` : ''}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'status',
            title: t('invoices.status'),
            render: (inv) => <InvoiceBadges status={inv.status} kind={inv.kind} standing={inv.standing} />,
          },
          {
            accessor: 'total',
            title: t('amounts.total'),
            textAlign: 'right',
            render: (inv) => <Amount value={inv.total} currency={inv.currency} />,
          },
          {
            accessor: 'patient_share',
            title: t('amounts.patientShare'),
            textAlign: 'right',
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
            render: (inv) => <Amount value={inv.patient_share} currency={inv.currency} />,
          },
          {
            accessor: 'balance',
            title: t('amounts.balance'),
            textAlign: 'right',
            render: (inv) =>
              inv.kind === 'invoice' && inv.status === 'issued' ? (
                <Amount value={inv.balance} currency={inv.currency} strong={inv.balance > 0} />
              ) : (
                <Text size="sm" c="dimmed">
                  —
                </Text>
              ),
          },
        ]}
      />
      {assembling && (
        <Suspense fallback={null}>
          <AssembleModal onClose={() => setAssembling(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
