/** The Mouvements tab: the pharmacy's ledger, newest first, filtered by kind, server-paginated. */
import { MOVEMENT_KINDS, type MovementKind, type TMovement } from '@greensen/shared/contracts/pharmacy';
import { Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { useListPage } from '../../../lib/list-filters';
import { useMovements } from '../api/stock';
import { useMovementColumns } from './MovementsTable';

const PAGE_SIZE = 25;

export function MovementsPanel({ pharmacy }: { pharmacy: string }) {
  const { t } = useTranslation('pharmacy');
  const { page, setPage, resetPage } = useListPage();
  const [kind, setKind] = useState<MovementKind | null>(null);
  const query = useMovements({ pharmacy, kind, page, pageSize: PAGE_SIZE });
  const columns = useMovementColumns();
  return (
    <Stack gap="sm" data-testid="movements-panel">
      <Group>
        <Select
          placeholder={t('movements.allKinds')}
          aria-label={t('movements.kind')}
          clearable
          w={240}
          data={MOVEMENT_KINDS.map((value) => ({ value, label: t(`movements.kinds.${value}`) }))}
          value={kind}
          onChange={(value) => resetPage(setKind)(value as MovementKind | null)}
        />
      </Group>
      <PagedQueryTable<TMovement>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={t('movements.empty')}
        columns={columns}
      />
    </Stack>
  );
}
