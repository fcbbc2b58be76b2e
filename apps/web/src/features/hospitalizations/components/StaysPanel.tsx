/**
 * Patients hospitalisés: the stays, server-paginated, by status (in hospital by default), ward, department,
 * doctor and a search on the patient's name or record number; a row opens the stay.
 */
import {
  HOSPITALIZATION_STATUSES,
  type THospitalizationListItem,
} from '@greensen/shared/contracts/hospitalizations';
import { Badge, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconTransfer } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { useDoctors } from '../../../lib/clinical/api/list-doctors';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { formatDate } from '../../../lib/format';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useCensus } from '../api/board';
import { type StayStatusFilter, useStays } from '../api/stays';
import { PlaceText, StayStatusBadge } from './StayBadges';

const PAGE_SIZE = 20;
const STATUS_FILTERS: StayStatusFilter[] = ['open', 'closed', 'all', ...HOSPITALIZATION_STATUSES];

export function StaysPanel() {
  const { t } = useTranslation('hospitalizations');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const [status, setStatus] = useState<StayStatusFilter>('open');
  const [ward, setWard] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [doctor, setDoctor] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const { page, setPage, resetPage } = useListPage();
  const query = useStays({ status, ward, department, doctor, search: debounced, page, pageSize: PAGE_SIZE });
  const census = useCensus();
  const departments = useDepartments();
  const doctors = useDoctors({ department, ordering: 'name', page: 1, pageSize: 100 });
  const filtered = ward || department || doctor || debounced.trim() || status !== 'open';

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
        <SearchFilter
          label={t('filters.search')}
          placeholder={t('filters.searchPlaceholder')}
          value={search}
          onChange={resetPage(setSearch)}
        />
        <Select
          label={t('filters.status')}
          data={STATUS_FILTERS.map((value) => ({ value, label: t(`filters.statuses.${value}`) }))}
          value={status}
          onChange={(value) => resetPage(setStatus)((value as StayStatusFilter | null) ?? 'open')}
          allowDeselect={false}
        />
        <Select
          label={t('filters.department')}
          placeholder={t('filters.all')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={(value) => {
            resetPage(setDepartment)(value);
            setWard(null);
            setDoctor(null);
          }}
          clearable
          searchable
        />
        <Select
          label={t('filters.ward')}
          placeholder={t('filters.all')}
          data={(census.data?.wards ?? [])
            .filter((w) => !department || w.department.id === department)
            .map((w) => ({ value: w.id, label: `${w.name} (${w.code})` }))}
          value={ward}
          onChange={resetPage(setWard)}
          clearable
          searchable
        />
        <Select
          label={t('filters.doctor')}
          placeholder={t('filters.all')}
          data={(doctors.data?.results ?? []).map((d) => ({ value: d.id, label: d.full_name }))}
          value={doctor}
          onChange={resetPage(setDoctor)}
          clearable
          searchable
        />
      </SimpleGrid>
      <PagedQueryTable<THospitalizationListItem>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        noRecordsText={t(filtered ? 'list.emptyFiltered' : 'list.empty')}
        onRowClick={({ record }) => navigate(to(`/hospitalizations/${record.id}`))}
        columns={[
          {
            accessor: 'patient',
            title: t('columns.patient'),
            render: (s) => <PatientCell patient={s.patient} />,
          },
          {
            accessor: 'place',
            title: t('columns.place'),
            render: (s) => <PlaceText place={s.place} status={s.status} />,
          },
          {
            accessor: 'department',
            title: t('columns.department'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
            render: (s) => (
              <div>
                <Text size="sm">{s.department.name}</Text>
                <Text size="xs" c="dimmed">
                  {s.doctor.full_name}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'provisional_diagnosis',
            title: t('columns.diagnosis'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
            render: (s) => (
              <Text size="sm" lineClamp={2}>
                {s.provisional_diagnosis
                  ? `${s.provisional_diagnosis.code} ${s.provisional_diagnosis.label}`
                  : s.reason}
              </Text>
            ),
          },
          {
            accessor: 'days',
            title: t('columns.days'),
            render: (s) => (
              <div>
                <Text size="sm" fw={600}>
                  {t('days', { count: s.days })}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('list.since', { date: formatDate(s.admitted_at ?? s.requested_at) })}
                </Text>
              </div>
            ),
          },
          {
            accessor: 'status',
            title: t('columns.status'),
            render: (s) => (
              <Group gap={4}>
                <StayStatusBadge status={s.status} size="xs" />
                {s.open_transfer && (
                  <Badge size="xs" color="grape" variant="light" leftSection={<IconTransfer size={10} />}>
                    {t('board.transferPending')}
                  </Badge>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}
