/**
 * /medical-acts (Actes médicaux, issue 21): the hospital's catalogue — searched by code or label (debounced),
 * filtered by category and active state, server-paginated — with today's price per payer category. The management
 * (head doctor, administrator) creates acts; a row opens the act.
 */
import {
  ACT_CATEGORIES,
  type ActCategory,
  PAYER_CATEGORIES,
  type TMedicalAct,
} from '@greensen/shared/contracts/medical-acts';
import { Badge, Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { actLabel } from '../../../lib/billing/act-format';
import { useHospitalCurrency } from '../../../lib/billing/hospital-currency';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { uiLanguage } from '../../../lib/i18n';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useMedicalActs } from '../api/list-medical-acts';
import { ActCategoryBadge } from '../components/ActCategoryBadge';
import { ActFormModal } from '../components/ActFormModal';
import { TariffAmount, tariffOf } from '../components/TariffCells';

const PAGE_SIZE = 25;
type ActiveFilter = 'true' | 'false' | 'all';

export default function MedicalActsPage() {
  const { t } = useTranslation('medical_acts');
  const lang = uiLanguage();
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const currency = useHospitalCurrency();
  const { page, setPage, resetPage } = useListPage();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const [category, setCategory] = useState<ActCategory | null>(null);
  const [active, setActive] = useState<ActiveFilter>('true');
  const [creating, setCreating] = useState(false);
  const query = useMedicalActs({
    search: debounced,
    category,
    active: active === 'all' ? null : active,
    page,
    pageSize: PAGE_SIZE,
  });
  const manage = can('medical_act.manage');

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          manage && (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              {t('new')}
            </Button>
          )
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchFilter
          placeholder={t('filters.search')}
          aria-label={t('filters.search')}
          value={q}
          onChange={resetPage(setQ)}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Select
          placeholder={t('filters.allCategories')}
          aria-label={t('fields.category')}
          clearable
          w={200}
          data={ACT_CATEGORIES.map((value) => ({ value, label: t(`categories.${value}`) }))}
          value={category}
          onChange={(value) => resetPage(setCategory)(value as ActCategory | null)}
        />
        <SegmentedControl
          aria-label={t('filters.active')}
          value={active}
          onChange={(value) => resetPage(setActive)(value as ActiveFilter)}
          data={[
            { value: 'true', label: t('filters.activeOnly') },
            { value: 'false', label: t('filters.inactive') },
            { value: 'all', label: t('filters.all') },
          ]}
        />
      </Group>
      <PagedQueryTable<TMedicalAct>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={debounced || category ? t('emptyFiltered') : t('empty')}
        onRowClick={({ record }) => navigate(to(`/medical-acts/${record.id}`))}
        rowStyle={() => ({ cursor: 'pointer' })}
        columns={[
          {
            accessor: 'code',
            title: t('fields.code'),
            render: (act) => (
              <Text size="sm" ff="monospace" fw={600}>
                {act.code}
              </Text>
            ),
          },
          {
            accessor: 'label',
            title: t('fields.label'),
            render: (act) => (
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{actLabel(act, lang)}</Text>
                {!act.is_active && (
                  <Badge size="xs" color="gray" variant="outline">
                    {t('inactive')}
                  </Badge>
                )}
              </Group>
            ),
          },
          {
            accessor: 'category',
            title: t('fields.category'),
            render: (act) => <ActCategoryBadge category={act.category} />,
          },
          ...PAYER_CATEGORIES.map((payer) => ({
            accessor: `tariff_${payer}`,
            title: t(`payerCategories.${payer}`),
            textAlign: 'right' as const,
            render: (act: TMedicalAct) => <TariffAmount tariff={tariffOf(act.current_tariffs, payer)} />,
          })),
        ]}
      />
      {creating && (
        <ActFormModal
          currency={currency}
          onClose={() => setCreating(false)}
          onSaved={(id) => navigate(to(`/medical-acts/${id}`))}
        />
      )}
    </Stack>
  );
}
