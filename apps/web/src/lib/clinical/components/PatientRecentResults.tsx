/**
 * A patient's most recent validated results (beside a consultation, on the record): exam, date and values
 * with their flags. Hidden for users without the exams module.
 */
import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconReportMedical } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../format';
import { uiLanguage } from '../../i18n';
import { LoadError } from '../../page-states';
import { useLocalizedPath } from '../../use-localized-path';
import { useExams } from '../api/list-exams';
import { ExamAbnormalBadge, ExamUrgencyBadge } from './ExamBadges';
import { ExamResultLines } from './ExamResultLines';
import { examName, useExamsAllowed } from './exam-format';

export function PatientRecentResults({ patientId, limit = 5 }: { patientId: string; limit?: number }) {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const allowed = useExamsAllowed();
  const query = useExams(
    { patient: patientId, status: ['validated'], ordering: 'recent', page: 1, pageSize: limit },
    allowed && Boolean(patientId),
  );
  if (!allowed) return null;
  const orders = query.data?.results ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="patient-recent-results">
      <Stack gap="sm">
        <Group gap={6}>
          <IconReportMedical size={18} />
          <Title order={4}>{t('recent.title')}</Title>
        </Group>
        {query.isPending ? (
          <Skeleton h={60} />
        ) : query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : orders.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('recent.empty')}
          </Text>
        ) : (
          <Stack gap="sm">
            {orders.map((order) => (
              <Stack key={order.id} gap={2}>
                <Group gap={6} wrap="wrap">
                  <Anchor component={Link} to={to(`/exams/${order.id}`)} size="sm" fw={600}>
                    {examName(order.exam, lang)}
                  </Anchor>
                  <ExamUrgencyBadge urgency={order.urgency} size="xs" />
                  {order.abnormal && <ExamAbnormalBadge size="xs" />}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('recent.validatedAt', { date: formatDateTime(order.validated_at) })}
                </Text>
                <ExamResultLines lines={order.result_lines} max={4} />
              </Stack>
            ))}
            {(query.data?.count ?? 0) > orders.length && (
              <Text size="xs" c="dimmed">
                {t('recent.more', { count: (query.data?.count ?? 0) - orders.length })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
