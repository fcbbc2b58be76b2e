/** /doctors: the hospital's practitioners with today's workload and their title prefix. */
import { roleLabel } from '@greensen/shared/domain/roles';
import { Badge, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type Doctor, useDoctors } from '../../../lib/clinical/api/list-doctors';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { formatMinutes } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const PAGE_SIZE = 20;

export default function DoctorsPage() {
  const { t } = useTranslation('doctors');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [ordering, setOrdering] = useState<'name' | 'load'>('name');
  const [page, setPage] = useState(1);
  const query = useDoctors({ search: debounced, ordering, page, pageSize: PAGE_SIZE });
  const lang = uiLanguage();

  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('searchPlaceholder')}
          aria-label={t('searchPlaceholder')}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          w={320}
          maw="100%"
        />
        <SegmentedControl
          aria-label={t('ordering.label')}
          value={ordering}
          onChange={(value) => setOrdering(value as 'name' | 'load')}
          data={[
            { value: 'name', label: t('ordering.name') },
            { value: 'load', label: t('ordering.load') },
          ]}
        />
      </Group>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <PagedTable<Doctor>
            minHeight={200}
            fetching={query.isFetching}
            pageSize={PAGE_SIZE}
            data={query.data}
            page={page}
            onPageChange={setPage}
            noRecordsText={t('empty')}
            onRowClick={({ record }) => navigate(to(`/doctors/${record.id}`))}
            columns={[
              {
                accessor: 'full_name',
                title: t('columns.name'),
                render: (d) => (
                  <div>
                    <Text size="sm" fw={600}>
                      {d.title_prefix ? `${d.title_prefix} ` : ''}
                      {d.full_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {d.role_codes.map((code) => roleLabel(code, lang)).join(', ')}
                    </Text>
                  </div>
                ),
              },
              {
                accessor: 'departments',
                title: t('columns.departments'),
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (d) => d.departments.map((dep) => dep.name).join(', ') || '—',
              },
              {
                accessor: 'waiting',
                title: t('columns.waiting'),
                textAlign: 'center',
                render: (d) => (
                  <Badge variant="light" color={d.workload.waiting > 0 ? 'yellow' : 'gray'}>
                    {d.workload.waiting}
                  </Badge>
                ),
              },
              {
                accessor: 'in_progress',
                title: t('columns.inProgress'),
                textAlign: 'center',
                render: (d) => (
                  <Badge variant="light" color={d.workload.in_progress > 0 ? 'violet' : 'gray'}>
                    {d.workload.in_progress}
                  </Badge>
                ),
              },
              {
                accessor: 'completed',
                title: t('columns.completed'),
                textAlign: 'center',
                render: (d) => d.workload.completed_today,
              },
              {
                accessor: 'average',
                title: t('columns.average'),
                textAlign: 'center',
                render: (d) => formatMinutes(d.workload.average_consultation_minutes),
              },
            ]}
          />
        </Paper>
      )}
    </Stack>
  );
}
