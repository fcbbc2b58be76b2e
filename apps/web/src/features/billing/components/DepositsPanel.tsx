/**
 * The Cautions tab (issue 37, decision 0088): the cash desk takes the admission deposit. The cashier finds the
 * patient's open stay — by name or record number (debounced), only this hospital's, server-paginated — and the
 * stay's deposits, balance and « Encaisser une caution » open below: the stay page's own panel and form, without
 * the stay page (the clinicians'). The server decides who may take one; the button follows `staff`.
 */
import type { TDepositStay } from '@greensen/shared/contracts/billing';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StayDepositsPanel } from '../../../lib/billing/StayDepositsPanel';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDate } from '../../../lib/format';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { useDepositStays } from '../api/deposit-stays';

const PAGE_SIZE = 10;

export function DepositsPanel({ staff }: { /** Billing staff: may take a deposit. */ staff: boolean }) {
  const { t } = useTranslation('billing');
  const { page, setPage, resetPage } = useListPage();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<TDepositStay | null>(null);
  const query = useDepositStays({ search: debounced, page, pageSize: PAGE_SIZE });

  return (
    <Stack gap="sm" data-testid="deposits-desk">
      <Text size="sm" c="dimmed">
        {t('depositDesk.hint')}
      </Text>
      <SearchFilter
        label={t('depositDesk.search')}
        placeholder={t('depositDesk.searchPlaceholder')}
        value={search}
        onChange={resetPage(setSearch)}
        maw={420}
      />
      <PagedQueryTable<TDepositStay>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        minHeight={160}
        noRecordsText={debounced.trim() ? t('depositDesk.emptyFiltered') : t('depositDesk.empty')}
        onRowClick={({ record }) => setChosen(record)}
        rowStyle={(stay) => ({
          cursor: 'pointer',
          background: stay.id === chosen?.id ? 'var(--mantine-primary-color-light)' : undefined,
        })}
        columns={[
          {
            accessor: 'patient',
            title: t('invoices.patient'),
            render: (stay) => (
              <div data-testid="deposit-stay-row">
                <Text size="sm" fw={500}>
                  {stay.patient.full_name}
                </Text>
                <Text size="xs" c="dimmed">
                  {stay.patient.record_number}
                </Text>
              </div>
            ),
          },
          { accessor: 'department', title: t('depositDesk.department') },
          {
            accessor: 'admitted_at',
            title: t('depositDesk.since'),
            render: (stay) =>
              stay.admitted_at ? (
                formatDate(stay.admitted_at)
              ) : (
                <Badge variant="light" color="orange">
                  {t('depositDesk.pendingBed')}
                </Badge>
              ),
          },
        ]}
      />
      {chosen && (
        <Stack gap="xs" data-testid="deposit-stay-chosen">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{chosen.patient.full_name}</Text>
            <Text size="sm" c="dimmed">
              {t('depositDesk.stayOf', {
                record: chosen.patient.record_number,
                department: chosen.department,
                date: formatDate(chosen.admitted_at ?? chosen.requested_at),
              })}
            </Text>
          </Group>
          <StayDepositsPanel key={chosen.id} stayId={chosen.id} canTake={staff} />
        </Stack>
      )}
    </Stack>
  );
}
