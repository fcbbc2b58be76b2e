/**
 * The Stock tab: the pharmacy's presentations with what is on hand (summed over the lots), the number of lots,
 * the nearest expiry, the reorder level and the alerts — searched and filtered by alert, server-paginated. "Lots"
 * opens the lots of a presentation; members change the reorder level.
 */
import type { TStockItem } from '@greensen/shared/contracts/pharmacy';
import { Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAdjustments, IconStack2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import {
  medicationName,
  presentationLabel,
  unitLabel,
} from '../../../lib/clinical/components/prescription-format';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import type { TPharmacy } from '../api/pharmacies';
import { type StockAlert, useStock } from '../api/stock';
import { LotsModal } from './LotsModal';
import { ReorderLevelModal } from './ReorderLevelModal';
import { StockFlags } from './StockBadges';

const PAGE_SIZE = 20;
const ALERTS: StockAlert[] = ['out', 'low', 'expiring', 'expired'];

export function StockPanel({
  pharmacy,
  pharmacies,
  manage,
}: {
  pharmacy: TPharmacy;
  pharmacies: readonly TPharmacy[];
  /** The user manages this pharmacy's stock (a member). */
  manage: boolean;
}) {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const { page, setPage, resetPage } = useListPage();
  const [q, setQ] = useState('');
  const [alert, setAlert] = useState<StockAlert | null>(null);
  const [debounced] = useDebouncedValue(q, 300);
  const [lotsOf, setLotsOf] = useState<TStockItem | null>(null);
  const [levelOf, setLevelOf] = useState<TStockItem | null>(null);
  const query = useStock({ pharmacy: pharmacy.id, search: debounced, alert, page, pageSize: PAGE_SIZE });

  return (
    <Stack gap="sm" data-testid="stock-panel">
      <Group gap="sm" wrap="wrap">
        <SearchFilter
          placeholder={t('stock.search')}
          aria-label={t('stock.search')}
          value={q}
          onChange={resetPage(setQ)}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Select
          placeholder={t('stock.allAlerts')}
          aria-label={t('stock.alertFilter')}
          clearable
          w={220}
          data={ALERTS.map((value) => ({ value, label: t(`flags.${value}`) }))}
          value={alert}
          onChange={(value) => resetPage(setAlert)(value as StockAlert | null)}
        />
      </Group>
      <PagedQueryTable<TStockItem>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={t('stock.empty')}
        idAccessor={(item) => item.presentation.id}
        columns={[
          {
            accessor: 'medication',
            title: t('columns.medication'),
            render: (item) => (
              <div>
                <Anchor
                  component={Link}
                  to={to(`/pharmacy/medications/${item.medication.id}`)}
                  size="sm"
                  fw={600}
                >
                  {medicationName(item.medication, lang)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {presentationLabel(item.presentation)}
                  {item.medication.atc_code ? ` · ${item.medication.atc_code}` : ''}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'on_hand',
            title: t('stock.onHand'),
            render: (item) => (
              <Text size="sm" fw={600} c={item.on_hand === 0 ? 'red' : undefined}>
                {item.on_hand} {unitLabel(item.presentation.unit, item.on_hand)}
              </Text>
            ),
          },
          { accessor: 'lots', title: t('stock.lots') },
          {
            accessor: 'nearest_expiry',
            title: t('stock.nearestExpiry'),
            render: (item) => formatDate(item.nearest_expiry) || '—',
          },
          {
            accessor: 'reorder_level',
            title: t('stock.reorderLevel'),
            render: (item) => item.reorder_level ?? '—',
          },
          {
            accessor: 'flags',
            title: t('stock.alerts'),
            render: (item) => <StockFlags flags={item.flags} />,
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (item) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button
                  size="compact-xs"
                  variant="light"
                  leftSection={<IconStack2 size={12} />}
                  onClick={() => setLotsOf(item)}
                >
                  {t('stock.showLots')}
                </Button>
                {manage && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconAdjustments size={12} />}
                    onClick={() => setLevelOf(item)}
                    aria-label={t('reorder.edit', { name: medicationName(item.medication, lang) })}
                  >
                    {t('reorder.button')}
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
      {lotsOf && (
        <LotsModal item={lotsOf} pharmacies={pharmacies} manage={manage} onClose={() => setLotsOf(null)} />
      )}
      {levelOf && <ReorderLevelModal item={levelOf} onClose={() => setLevelOf(null)} />}
    </Stack>
  );
}
