/**
 * The doctor's dashboard card of abnormal results to see (GET /api/exams/alerts/): my validated abnormal
 * results not acknowledged yet, urgent first, each with its flagged values, a link to the result and "Seen"
 * (acknowledge). Refreshed at the dashboard's interval and when a validation notification arrives.
 */
import type { TExamOrder } from '@greensen/shared/contracts/exams';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  type PaperProps,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api-client';
import { formatDateTime } from '../../format';
import { uiLanguage } from '../../i18n';
import { LoadError } from '../../page-states';
import { toast } from '../../toast';
import { useLocalizedPath } from '../../use-localized-path';
import { useAcknowledgeExam } from '../api/acknowledge-exam';
import { useExamAlerts } from '../api/exam-alerts';
import { ExamUrgencyBadge } from './ExamBadges';
import { ExamResultLines } from './ExamResultLines';
import { examName, useExamsAllowed } from './exam-format';

const SHOWN = 5;

function AlertRow({ order }: { order: TExamOrder }) {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const acknowledge = useAcknowledgeExam();
  async function seen() {
    try {
      await acknowledge.mutateAsync(order.id);
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('alerts.ackFailed'), description: error.message });
    }
  }
  return (
    <Paper
      withBorder
      radius="sm"
      p="xs"
      data-testid="exam-alert"
      style={
        order.urgency === 'urgent'
          ? { borderLeftColor: 'var(--mantine-color-red-6)', borderLeftWidth: 4 }
          : undefined
      }
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Anchor component={Link} to={to(`/exams/${order.id}`)} size="sm" fw={600}>
              {order.patient.full_name}
            </Anchor>
            <Text size="sm">· {examName(order.exam, lang)}</Text>
            <ExamUrgencyBadge urgency={order.urgency} size="xs" />
          </Group>
          <Text size="xs" c="dimmed">
            {order.patient.record_number} ·{' '}
            {t('recent.validatedAt', { date: formatDateTime(order.validated_at) })}
          </Text>
          <ExamResultLines lines={order.result_lines} onlyFlagged max={3} />
        </Stack>
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconCheck size={12} />}
          loading={acknowledge.isPending}
          onClick={() => void seen()}
        >
          {t('alerts.acknowledge')}
        </Button>
      </Group>
    </Paper>
  );
}

export function UrgentResultsCard({
  refreshInterval = 30_000,
  ...margins
}: { refreshInterval?: number } & Pick<PaperProps, 'm' | 'mx' | 'my' | 'mt' | 'mb'>) {
  const { t } = useTranslation('exams');
  const allowed = useExamsAllowed();
  const query = useExamAlerts(1, SHOWN, { enabled: allowed, refetchInterval: refreshInterval });
  if (!allowed) return null;
  const data = query.data;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="exam-alerts-card" {...margins}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" />
            <Title order={5}>{t('alerts.title')}</Title>
            {data && data.count > 0 && (
              <Badge color="red" variant="filled" size="sm" data-testid="exam-alerts-count">
                {data.count}
              </Badge>
            )}
            {data && data.urgent_count > 0 && (
              <Badge color="red" variant="light" size="sm">
                {t('alerts.urgent', { count: data.urgent_count })}
              </Badge>
            )}
          </Group>
        </Group>
        {query.isPending ? (
          <Skeleton h={40} />
        ) : query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : !data || data.count === 0 ? (
          <Text size="sm" c="dimmed">
            {t('alerts.empty')}
          </Text>
        ) : (
          <Stack gap="xs">
            {data.results.map((order) => (
              <AlertRow key={order.id} order={order} />
            ))}
            {data.count > data.results.length && (
              <Text size="xs" c="dimmed">
                {t('alerts.more', { count: data.count - data.results.length })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
