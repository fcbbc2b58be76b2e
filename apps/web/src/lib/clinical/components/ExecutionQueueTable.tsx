/** A practitioner's executions (queue or completed): level, patient with allergies, waiting time, status. */
import type { TExecution } from '@greensen/shared/contracts/executions';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatMinutes, formatTime } from '../../format';
import { NEVER_CUT } from '../../theme';
import { useLocalizedPath } from '../../use-localized-path';
import { PagedTable } from './PagedTable';
import { PatientCell } from './PatientBanner';
import { TriageLevelBadge } from './TriageLevelBadge';
import { WaitedCell } from './WaitedCell';

const STATUS_COLORS: Record<string, string> = {
  assigned: 'blue',
  in_progress: 'violet',
  completed: 'green',
  cancelled: 'gray',
};

export function ExecutionQueueTable({
  records,
  total,
  page,
  pageSize,
  onPageChange,
  fetching,
  emptyText,
  mode = 'queue',
}: {
  records: TExecution[];
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  fetching: boolean;
  emptyText: string;
  mode?: 'queue' | 'completed';
}) {
  const { t } = useTranslation('doctors');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  return (
    <PagedTable<TExecution>
      minHeight={records.length === 0 ? 180 : undefined}
      fetching={fetching}
      data={{ results: records, count: total }}
      pageSize={pageSize}
      page={page}
      onPageChange={onPageChange}
      noRecordsText={emptyText}
      onRowClick={({ record }) => navigate(to(`/admissions/${record.admission_id}`))}
      columns={[
        {
          accessor: 'triage_level',
          title: t('queue.level'),
          render: (e) => <TriageLevelBadge level={e.triage_level} targetMinutes={e.target_minutes} />,
        },
        {
          accessor: 'patient',
          title: t('queue.patient'),
          render: (e) => <PatientCell patient={e.patient} />,
        },
        {
          accessor: 'department',
          title: t('queue.department'),
          visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          render: (e) => (
            <div>
              <Text size="sm">{e.department.name}</Text>
              <Text size="xs" c="dimmed">
                #{e.queue_number} · {formatTime(e.admitted_at)}
              </Text>
            </div>
          ),
        },
        mode === 'queue'
          ? {
              accessor: 'waited_minutes',
              title: t('queue.waited'),
              render: (e) => (
                <WaitedCell
                  waited={e.waited_minutes}
                  target={e.target_minutes}
                  exceeded={e.target_exceeded}
                />
              ),
            }
          : {
              accessor: 'completed_at',
              title: t('queue.completedAt'),
              render: (e) => (
                <Text size="sm">
                  {formatTime(e.started_at)} – {formatTime(e.completed_at)}
                </Text>
              ),
            },
        {
          accessor: 'status',
          title: t('queue.status'),
          render: (e) => (
            <Badge color={STATUS_COLORS[e.status] ?? 'gray'} variant="light" size="sm" styles={NEVER_CUT}>
              {t(`executionStatus.${e.status}`)}
            </Badge>
          ),
        },
      ]}
    />
  );
}

export function workloadText(w: { average_consultation_minutes: number | null }): string {
  return formatMinutes(w.average_consultation_minutes);
}
