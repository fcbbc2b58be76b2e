/** /patients: server-paginated search (name, record number, phone, national id) and registration. */
import type { TPatientSummary } from '@greensen/shared/contracts/patients';
import { Button, Paper, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePatients } from '../../../lib/clinical/api/list-patients';
import { AllergyBadge } from '../../../lib/clinical/components/AllergyBadge';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { ageLabel, sexLabel } from '../../../lib/clinical/components/patient-format';
import { RegisterPatientModal } from '../../../lib/clinical/components/RegisterPatientModal';
import { SearchFilter } from '../../../lib/list-filters';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const PAGE_SIZE = 20;
export const SEARCH_DEBOUNCE_MS = 300;

export default function PatientsPage() {
  const { t } = useTranslation('patients');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [registering, setRegistering] = useState(false);
  const query = usePatients({ search: debounced, page, pageSize: PAGE_SIZE });

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          can('patient.register') && (
            <Button leftSection={<IconUserPlus size={18} />} onClick={() => setRegistering(true)}>
              {t('new')}
            </Button>
          )
        }
      />
      <SearchFilter
        placeholder={t('searchPlaceholder')}
        aria-label={t('searchLabel')}
        value={search}
        onChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
        maw={520}
      />
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <PagedTable<TPatientSummary>
            fetching={query.isFetching}
            pageSize={PAGE_SIZE}
            data={query.data}
            page={page}
            onPageChange={setPage}
            noRecordsText={debounced ? t('emptySearch') : t('empty')}
            onRowClick={({ record }) => navigate(to(`/patients/${record.id}`))}
            columns={[
              { accessor: 'record_number', title: t('columns.recordNumber'), width: 130 },
              {
                accessor: 'full_name',
                title: t('columns.name'),
                render: (record) => record.full_name,
              },
              {
                accessor: 'sex',
                title: t('columns.sex'),
                width: 90,
                render: (record) => sexLabel(record.sex),
              },
              {
                accessor: 'age',
                title: t('columns.age'),
                width: 100,
                render: (record) => ageLabel(record.age, record.birth_date_estimated),
              },
              {
                accessor: 'phone',
                title: t('columns.phone'),
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (record) => record.phone ?? '—',
              },
              {
                accessor: 'allergies',
                title: t('columns.allergies'),
                render: (record) => <AllergyBadge allergies={record.allergies} />,
              },
            ]}
          />
        </Paper>
      )}
      <RegisterPatientModal
        opened={registering}
        onClose={() => setRegistering(false)}
        onCreated={(patient) => {
          setRegistering(false);
          navigate(to(`/patients/${patient.id}`));
        }}
        onOpenExisting={(existing) => {
          setRegistering(false);
          navigate(to(`/patients/${existing.id}`));
        }}
      />
    </Stack>
  );
}
