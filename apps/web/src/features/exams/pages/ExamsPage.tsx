/**
 * /exams: the laboratory and imaging worklist — tabs by status (to do, to validate, validated, cancelled, all),
 * filters (urgency, performing department, my orders, date, search), urgent orders first then the oldest,
 * urgent and abnormal ones highlighted, and the row actions the user may take (start, enter results, validate).
 */
import type { TExamOrder } from '@greensen/shared/contracts/exams';
import type { ExamStatus, ExamUrgency } from '@greensen/shared/domain/exams';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconClipboardCheck, IconFlask, IconPencil, IconPlayerPlay, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { useExams } from '../../../lib/clinical/api/list-exams';
import {
  ExamAbnormalBadge,
  ExamStatusBadge,
  ExamUrgencyBadge,
} from '../../../lib/clinical/components/ExamBadges';
import { ExamResultLines } from '../../../lib/clinical/components/ExamResultLines';
import { examName } from '../../../lib/clinical/components/exam-format';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { DateFilter } from '../../../lib/date-filter';
import { formatDateTime, formatMinutes } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { SearchFilter, useListPage } from '../../../lib/list-filters';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useStartExam } from '../api/start-exam';

const PAGE_SIZE = 20;

export const WORKLIST_TABS = {
  todo: ['requested', 'in_progress'],
  to_validate: ['completed'],
  validated: ['validated'],
  cancelled: ['cancelled'],
  all: [],
} as const satisfies Record<string, readonly ExamStatus[]>;
export type WorklistTab = keyof typeof WORKLIST_TABS;

const PERFORMING_KINDS = ['laboratory', 'imaging'];

function RowActions({ order }: { order: TExamOrder }) {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const start = useStartExam();
  async function startNow() {
    try {
      await start.mutateAsync({ id: order.id, version: order.version });
      toast({ kind: 'success', title: t('actions.started'), description: order.order_number });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('actions.failed'), description: error.message });
    }
  }
  return (
    // Buttons act on their own: the row's click opens the order.
    <Group gap={4} wrap="nowrap" onClick={(event) => event.stopPropagation()}>
      {order.actions.includes('start') && (
        <Button
          size="compact-xs"
          leftSection={<IconPlayerPlay size={12} />}
          loading={start.isPending}
          onClick={() => void startNow()}
        >
          {t('actions.start')}
        </Button>
      )}
      {order.actions.includes('results') && (
        <Button
          size="compact-xs"
          variant="light"
          component={Link}
          to={to(`/exams/${order.id}`)}
          leftSection={<IconPencil size={12} />}
        >
          {order.status === 'completed' ? t('actions.correct') : t('actions.enterResults')}
        </Button>
      )}
      {order.actions.includes('validate') && (
        <Button
          size="compact-xs"
          color="green"
          variant="light"
          component={Link}
          to={to(`/exams/${order.id}`)}
          leftSection={<IconClipboardCheck size={12} />}
        >
          {t('actions.review')}
        </Button>
      )}
    </Group>
  );
}

export default function ExamsPage() {
  const { t } = useTranslation('exams');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const { can } = usePermissions();
  const departments = useDepartments();
  const [tab, setTab] = useState<WorklistTab>('todo');
  const [urgency, setUrgency] = useState<ExamUrgency | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [mine, setMine] = useState(false);
  const [date, setDate] = useState('');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const { page, setPage, resetPage } = useListPage();
  const query = useExams({
    status: WORKLIST_TABS[tab],
    urgency,
    department,
    requestedBy: mine ? 'me' : null,
    date: date || null,
    search: debounced,
    page,
    pageSize: PAGE_SIZE,
  });
  const filtered = urgency || department || mine || date || debounced;

  const departmentOptions = (departments.data?.results ?? [])
    .filter((d) => PERFORMING_KINDS.includes(d.kind))
    .map((d) => ({ value: d.id, label: d.name }));

  return (
    <Stack gap="md">
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          can('exam.order') && (
            <Button component={Link} to={to('/exams/create')} leftSection={<IconPlus size={18} />}>
              {t('new')}
            </Button>
          )
        }
      />
      <SegmentedControl
        value={tab}
        onChange={(value) => resetPage(setTab)(value as WorklistTab)}
        data={(Object.keys(WORKLIST_TABS) as WorklistTab[]).map((value) => ({
          value,
          label: t(`tabs.${value}`),
        }))}
        aria-label={t('filters.status')}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
        data-testid="worklist-tabs"
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <SearchFilter
          label={t('filters.search')}
          placeholder={t('filters.searchPlaceholder')}
          value={search}
          onChange={resetPage(setSearch)}
        />
        <Select
          label={t('filters.urgency')}
          placeholder={t('filters.all')}
          data={(['urgent', 'routine'] as const).map((value) => ({ value, label: t(`urgency.${value}`) }))}
          value={urgency}
          onChange={(value) => resetPage(setUrgency)(value as ExamUrgency | null)}
          clearable
        />
        <Select
          label={t('filters.department')}
          placeholder={t('filters.all')}
          data={departmentOptions}
          value={department}
          onChange={resetPage(setDepartment)}
          clearable
        />
        <DateFilter label={t('filters.date')} value={date} onChange={resetPage(setDate)} />
      </SimpleGrid>
      {can('exam.order') && (
        <Switch
          label={t('filters.mine')}
          checked={mine}
          onChange={(event) => resetPage(setMine)(event.currentTarget.checked)}
        />
      )}
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <PagedTable<TExamOrder>
            fetching={query.isFetching}
            pageSize={PAGE_SIZE}
            data={query.data}
            page={page}
            onPageChange={setPage}
            noRecordsText={filtered ? t('emptyFiltered') : t(`empty.${tab}`)}
            onRowClick={({ record }) => navigate(to(`/exams/${record.id}`))}
            rowStyle={(o) =>
              o.urgency === 'urgent' ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-red-6)' } : undefined
            }
            columns={[
              {
                accessor: 'order_number',
                title: t('columns.order'),
                render: (o) => (
                  <Stack gap={2}>
                    <ExamUrgencyBadge urgency={o.urgency} size="xs" />
                    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {o.order_number}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(o.requested_at)}
                    </Text>
                    {(o.status === 'requested' || o.status === 'in_progress') && (
                      <Text size="xs" c="dimmed">
                        {t('waited', {
                          time: formatMinutes((Date.now() - new Date(o.requested_at).getTime()) / 60_000),
                        })}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                accessor: 'patient',
                title: t('columns.patient'),
                render: (o) => <PatientCell patient={o.patient} />,
              },
              {
                accessor: 'exam',
                title: t('columns.exam'),
                render: (o) => (
                  <Stack gap={2}>
                    <Group gap={4} wrap="nowrap">
                      <IconFlask size={14} style={{ flexShrink: 0 }} />
                      <Text size="sm" fw={600}>
                        {examName(o.exam, lang)}
                      </Text>
                    </Group>
                    {o.exam.specimen && (
                      <Text size="xs" c="dimmed">
                        {o.exam.specimen}
                      </Text>
                    )}
                    {o.clinical_info && (
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {o.clinical_info}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                accessor: 'status',
                title: t('columns.status'),
                render: (o) => (
                  <Stack gap={4} align="flex-start">
                    <ExamStatusBadge status={o.status} size="xs" />
                    {o.abnormal && <ExamAbnormalBadge size="xs" />}
                    {(o.status === 'completed' || o.status === 'validated') && (
                      <ExamResultLines lines={o.result_lines} onlyFlagged max={2} />
                    )}
                  </Stack>
                ),
              },
              {
                accessor: 'requested_by',
                title: t('columns.requester'),
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (o) => (
                  <div>
                    <Text size="sm">{o.requested_by.full_name}</Text>
                    <Text size="xs" c="dimmed">
                      {o.department?.name ?? ''}
                    </Text>
                  </div>
                ),
              },
              {
                accessor: 'actions',
                title: '',
                textAlign: 'right',
                render: (o) => <RowActions order={o} />,
              },
            ]}
          />
        </Paper>
      )}
    </Stack>
  );
}
