/** /admissions: visits with filters (status, department, type, date, patient search) and a new admission. */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import {
  ADMISSION_STATUSES,
  ADMISSION_TYPES,
  type AdmissionStatus,
  type AdmissionType,
} from '@greensen/shared/domain/admissions';
import { Button, MultiSelect, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLogin2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAdmissions } from '../../../lib/clinical/api/list-admissions';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { AdmissionStatusBadge } from '../../../lib/clinical/components/AdmissionStatusBadge';
import { NewAdmissionModal } from '../../../lib/clinical/components/NewAdmissionModal';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { DateFilter } from '../../../lib/date-filter';
import { formatDateTime, formatMinutes } from '../../../lib/format';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const PAGE_SIZE = 20;

export default function AdmissionsPage() {
  const { t } = useTranslation('admissions');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const departments = useDepartments();
  const [status, setStatus] = useState<AdmissionStatus[]>([]);
  const [department, setDepartment] = useState<string | null>(null);
  const [type, setType] = useState<AdmissionType | null>(null);
  const [date, setDate] = useState('');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const { page, setPage, resetPage } = useListPage();
  const [creating, setCreating] = useState(false);
  const query = useAdmissions({
    status,
    department,
    admission_type: type,
    date: date || null,
    search: debounced,
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = status.length > 0 || department || type || date || debounced;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          can('admission.create') && (
            <Button leftSection={<IconLogin2 size={18} />} onClick={() => setCreating(true)}>
              {t('new')}
            </Button>
          )
        }
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
        <SearchFilter
          label={t('filters.search')}
          placeholder={t('filters.searchPlaceholder')}
          value={search}
          onChange={resetPage(setSearch)}
        />
        <MultiSelect
          label={t('filters.status')}
          placeholder={status.length ? undefined : t('filters.all')}
          data={ADMISSION_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={status}
          onChange={(value) => resetPage(setStatus)(value as AdmissionStatus[])}
          clearable
        />
        <Select
          label={t('filters.department')}
          placeholder={t('filters.all')}
          data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
          value={department}
          onChange={resetPage(setDepartment)}
          clearable
          searchable
        />
        <Select
          label={t('filters.type')}
          placeholder={t('filters.all')}
          data={ADMISSION_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
          value={type}
          onChange={(value) => resetPage(setType)(value as AdmissionType | null)}
          clearable
        />
        <DateFilter label={t('filters.date')} value={date} onChange={resetPage(setDate)} />
      </SimpleGrid>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <PagedTable<TAdmission>
            fetching={query.isFetching}
            pageSize={PAGE_SIZE}
            data={query.data}
            page={page}
            onPageChange={setPage}
            noRecordsText={filtered ? t('emptyFiltered') : t('empty')}
            onRowClick={({ record }) => navigate(to(`/admissions/${record.id}`))}
            columns={[
              {
                accessor: 'queue_number',
                title: t('columns.queue'),
                width: 70,
                render: (a) => (
                  <Text fw={700} size="sm">
                    #{a.queue_number}
                  </Text>
                ),
              },
              {
                accessor: 'patient',
                title: t('columns.patient'),
                render: (a) => <PatientCell patient={a.patient} />,
              },
              {
                accessor: 'triage',
                title: t('columns.triage'),
                render: (a) => (
                  <TriageLevelBadge
                    level={a.triage?.level}
                    targetMinutes={a.triage?.target_minutes}
                    size="sm"
                  />
                ),
              },
              {
                accessor: 'department',
                title: t('columns.department'),
                render: (a) => (
                  <div>
                    <Text size="sm">{a.department.name}</Text>
                    <Text size="xs" c="dimmed">
                      {t(`type.${a.admission_type}`)}
                    </Text>
                  </div>
                ),
              },
              {
                accessor: 'status',
                title: t('columns.status'),
                render: (a) => <AdmissionStatusBadge status={a.status} dischargedAt={a.discharged_at} />,
              },
              {
                accessor: 'doctor',
                title: t('columns.doctor'),
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (a) => a.doctor?.full_name ?? '—',
              },
              {
                accessor: 'admitted_at',
                title: t('columns.arrival'),
                render: (a) => (
                  <div>
                    <Text size="sm">{formatDateTime(a.admitted_at)}</Text>
                    {!a.closed_at && a.status !== 'cancelled' && (
                      <Text size="xs" c="dimmed">
                        {t('waited', { time: formatMinutes(a.waited_minutes) })}
                      </Text>
                    )}
                  </div>
                ),
              },
            ]}
          />
        </Paper>
      )}
      <NewAdmissionModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          navigate(to(`/admissions/${id}`));
        }}
      />
    </Stack>
  );
}
