/**
 * /transfers (the list route of transfers, spec §2): transfers by status (under way by default) and direction
 * (incoming: to my departments or from another hospital; outgoing: asked by my hospital), with the steps the
 * user may take on each. Changes by other users refresh it through the refresh flags.
 */

import { TRANSFER_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import { SegmentedControl, Select, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import type { TransferDirection, TransferStatusFilter } from '../api/transfers';
import { TransfersTable } from '../components/TransfersTable';
import { useInpatientRefresh } from '../components/useInpatientRefresh';

const PAGE_SIZE = 20;
const STATUS_FILTERS: TransferStatusFilter[] = ['open', 'all', ...TRANSFER_STATUSES];
const DIRECTIONS: TransferDirection[] = ['all', 'incoming', 'outgoing'];

export default function TransfersPage() {
  const { t } = useTranslation('hospitalizations');
  const [status, setStatus] = useState<TransferStatusFilter>('open');
  const [direction, setDirection] = useState<TransferDirection>('all');
  const { page, setPage, resetPage } = useListPage();
  useInpatientRefresh();
  return (
    <Stack gap="md">
      <PageHeader title={t('transfers.title')} subtitle={t('transfers.subtitle')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <SegmentedControl
          aria-label={t('transfers.direction')}
          value={direction}
          onChange={(value) => resetPage(setDirection)(value as TransferDirection)}
          data={DIRECTIONS.map((value) => ({ value, label: t(`transfers.directions.${value}`) }))}
          style={{ alignSelf: 'flex-end' }}
        />
        <Select
          label={t('filters.status')}
          data={STATUS_FILTERS.map((value) => ({
            value,
            label:
              value === 'open' || value === 'all'
                ? t(`transfers.filters.${value}`)
                : t(`transfers.status.${value}`),
          }))}
          value={status}
          onChange={(value) => resetPage(setStatus)((value as TransferStatusFilter | null) ?? 'open')}
          allowDeselect={false}
        />
      </SimpleGrid>
      <TransfersTable
        filters={{ status, direction, page, pageSize: PAGE_SIZE }}
        onPageChange={setPage}
        emptyText={t(status === 'open' ? 'transfers.emptyOpen' : 'transfers.empty')}
      />
    </Stack>
  );
}
