/**
 * The exams tab of a patient's record: every order of the patient, newest first, with its status, urgency and
 * flagged values; a new order from here. Users without the exams module see why it is empty.
 */
import type { TExamOrder } from '@greensen/shared/contracts/exams';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime } from '../../format';
import { uiLanguage } from '../../i18n';
import { LoadError } from '../../page-states';
import { usePermissions } from '../../permissions';
import { useLocalizedPath } from '../../use-localized-path';
import { useExams } from '../api/list-exams';
import { ExamAbnormalBadge, ExamStatusBadge, ExamUrgencyBadge } from './ExamBadges';
import { ExamResultLines } from './ExamResultLines';
import { examName, useExamsAllowed } from './exam-format';
import { PagedTable } from './PagedTable';

const PAGE_SIZE = 10;

export function PatientExamsHistory({
  patientId,
  archived = false,
}: {
  patientId: string;
  archived?: boolean;
}) {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const lang = uiLanguage();
  const allowed = useExamsAllowed();
  const { can } = usePermissions();
  const [page, setPage] = useState(1);
  const query = useExams({ patient: patientId, ordering: 'recent', page, pageSize: PAGE_SIZE }, allowed);

  if (!allowed) {
    return <Text c="dimmed">{t('history.notAllowed')}</Text>;
  }
  return (
    <Stack gap="sm" data-testid="patient-exams">
      {can('exam.order') && !archived && (
        <Group justify="flex-end">
          <Button
            component={Link}
            to={to(`/exams/create?patient=${patientId}`)}
            size="xs"
            leftSection={<IconPlus size={14} />}
          >
            {t('history.order')}
          </Button>
        </Group>
      )}
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <PagedTable<TExamOrder>
          data={query.data}
          page={page}
          onPageChange={setPage}
          pageSize={PAGE_SIZE}
          fetching={query.isFetching}
          noRecordsText={t('history.empty')}
          minHeight={160}
          onRowClick={({ record }) => navigate(to(`/exams/${record.id}`))}
          columns={[
            {
              accessor: 'requested_at',
              title: t('columns.requested'),
              render: (o) => (
                <div>
                  <Text size="sm">{formatDateTime(o.requested_at)}</Text>
                  <Text size="xs" c="dimmed">
                    {o.order_number}
                  </Text>
                </div>
              ),
            },
            {
              accessor: 'exam',
              title: t('columns.exam'),
              render: (o) => (
                <Group gap={4} wrap="wrap">
                  <Text size="sm" fw={600}>
                    {examName(o.exam, lang)}
                  </Text>
                  <ExamUrgencyBadge urgency={o.urgency} size="xs" />
                </Group>
              ),
            },
            {
              accessor: 'status',
              title: t('columns.status'),
              render: (o) => <ExamStatusBadge status={o.status} size="xs" />,
            },
            {
              accessor: 'result_lines',
              title: t('columns.results'),
              render: (o) =>
                o.status === 'completed' || o.status === 'validated' ? (
                  <Stack gap={2}>
                    {o.abnormal && <ExamAbnormalBadge size="xs" />}
                    <ExamResultLines lines={o.result_lines} onlyFlagged max={3} />
                  </Stack>
                ) : (
                  '—'
                ),
            },
            {
              accessor: 'requested_by',
              title: t('columns.requester'),
              visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
              render: (o) => o.requested_by.full_name,
            },
          ]}
        />
      )}
    </Stack>
  );
}
