/**
 * /consultations: my consultations today, my department's, all (head doctors) — only the consultations the
 * user may read come back — with filters (status, date, doctor, ICD-10 diagnosis, patient) and server
 * pagination. "Nouvelle consultation" for practitioners.
 */
import type { ConsultationScope } from '@greensen/shared/contracts/consultations';
import { CONSULTATION_STATUSES, type ConsultationStatus } from '@greensen/shared/domain/consultations';
import { isPractitioner } from '@greensen/shared/domain/roles';
import { Alert, Button, MultiSelect, Paper, Select, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConsultations } from '../../../lib/clinical/api/list-consultations';
import { useDoctors } from '../../../lib/clinical/api/list-doctors';
import { ConsultationsTable } from '../../../lib/clinical/components/ConsultationsTable';
import { DateFilter } from '../../../lib/date-filter';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const PAGE_SIZE = 20;
type Tab = 'mine' | 'department' | 'all';

const TAB_QUERY: Record<Tab, { scope: ConsultationScope; today?: boolean }> = {
  mine: { scope: 'mine', today: true },
  department: { scope: 'department' },
  all: { scope: 'all' },
};

export default function ConsultationsPage() {
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const { groups, can } = usePermissions();
  const practitioner = groups.some(isPractitioner);
  const tabs: Tab[] = groups.includes('head_doctor') ? ['mine', 'department', 'all'] : ['mine', 'department'];
  const [tab, setTab] = useState<Tab>('mine');
  const [status, setStatus] = useState<ConsultationStatus[]>([]);
  const [date, setDate] = useState('');
  const [doctor, setDoctor] = useState<string | null>(null);
  const [diagnosis, setDiagnosis] = useState('');
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [debouncedDiagnosis] = useDebouncedValue(diagnosis, 300);
  const { page, setPage, resetPage } = useListPage();
  const doctors = useDoctors({ page: 1, pageSize: 100, ordering: 'name' });
  const validDiagnosis = /^[A-Za-z][0-9A-Za-z.]{0,9}$/.test(debouncedDiagnosis.trim());
  const query = useConsultations(
    {
      ...TAB_QUERY[tab],
      status,
      date: date || null,
      doctor: tab === 'mine' ? null : doctor,
      diagnosis: validDiagnosis ? debouncedDiagnosis : undefined,
      search: debouncedSearch,
      page,
      pageSize: PAGE_SIZE,
    },
    practitioner,
  );
  const filtered = status.length > 0 || date || doctor || debouncedDiagnosis || debouncedSearch;

  return (
    <Stack gap="md">
      <PageHeader
        title={t('list.title')}
        subtitle={t('list.subtitle')}
        actions={
          can('consultation.create') && (
            <Button component={Link} to={to('/consultations/create')} leftSection={<IconPlus size={18} />}>
              {t('list.new')}
            </Button>
          )
        }
      />
      {!practitioner ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {t('list.practitionersOnly')}
        </Alert>
      ) : (
        <>
          <Tabs value={tab} onChange={(value) => resetPage(setTab)((value as Tab) ?? 'mine')}>
            <Tabs.List>
              {tabs.map((value) => (
                <Tabs.Tab key={value} value={value}>
                  {t(`list.tabs.${value}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
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
              data={CONSULTATION_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              value={status}
              onChange={(value) => resetPage(setStatus)(value as ConsultationStatus[])}
              clearable
            />
            <DateFilter label={t('filters.date')} value={date} onChange={resetPage(setDate)} />
            <Select
              label={t('filters.doctor')}
              placeholder={t('filters.all')}
              data={(doctors.data?.results ?? []).map((d) => ({ value: d.id, label: d.full_name }))}
              value={tab === 'mine' ? null : doctor}
              onChange={resetPage(setDoctor)}
              disabled={tab === 'mine'}
              clearable
              searchable
            />
            <TextInput
              label={t('filters.diagnosis')}
              placeholder={t('filters.diagnosisPlaceholder')}
              value={diagnosis}
              error={
                diagnosis.trim() && !/^[A-Za-z][0-9A-Za-z.]{0,9}$/.test(diagnosis.trim())
                  ? t('filters.diagnosisInvalid')
                  : null
              }
              onChange={(event) => resetPage(setDiagnosis)(event.currentTarget.value)}
            />
          </SimpleGrid>
          {query.isError ? (
            <LoadError error={query.error} onRetry={() => void query.refetch()} />
          ) : (
            <Paper withBorder radius="md">
              <ConsultationsTable
                data={query.data}
                page={page}
                pageSize={PAGE_SIZE}
                onPageChange={setPage}
                fetching={query.isFetching}
                emptyText={filtered ? t('list.emptyFiltered') : t(`list.empty.${tab}`)}
              />
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
