/**
 * The exams of a consultation, beside its form: order exams (when the consultation may be edited), and each
 * order's status and results with their flags; urgent abnormal results stand out. The consultations feature
 * places it; it hides itself for users without the exams module.
 */
import type { TExamOrder } from '@greensen/shared/contracts/exams';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconFlask, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../format';
import { uiLanguage } from '../../i18n';
import { LoadError } from '../../page-states';
import { usePermissions } from '../../permissions';
import { useLocalizedPath } from '../../use-localized-path';
import { useExams } from '../api/list-exams';
import { ExamAbnormalBadge, ExamStatusBadge, ExamUrgencyBadge } from './ExamBadges';
import { ExamResultLines } from './ExamResultLines';
import { examName, useExamsAllowed } from './exam-format';
import { OrderExamsModal } from './OrderExamsModal';
import type { FixedPatient } from './PatientPicker';

/** An order whose result needs attention first: validated or entered, abnormal and urgent. */
export function isUrgentAbnormal(order: Pick<TExamOrder, 'urgency' | 'abnormal'>): boolean {
  return order.urgency === 'urgent' && order.abnormal;
}

export function ExamOrderRow({ order }: { order: TExamOrder }) {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const alert = isUrgentAbnormal(order) && (order.status === 'completed' || order.status === 'validated');
  return (
    <Paper
      withBorder
      radius="sm"
      p="xs"
      data-testid="exam-order-row"
      data-urgent-abnormal={alert ? 'true' : undefined}
      style={
        alert
          ? { borderColor: 'var(--mantine-color-red-6)', borderLeftWidth: 4 }
          : order.urgency === 'urgent'
            ? { borderLeftColor: 'var(--mantine-color-red-4)', borderLeftWidth: 4 }
            : undefined
      }
    >
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Anchor component={Link} to={to(`/exams/${order.id}`)} fw={600} size="sm">
            {examName(order.exam, lang)}
          </Anchor>
          <Group gap={4}>
            <ExamUrgencyBadge urgency={order.urgency} size="xs" />
            {order.abnormal && <ExamAbnormalBadge size="xs" />}
            <ExamStatusBadge status={order.status} size="xs" />
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {order.order_number} · {formatDateTime(order.requested_at)}
          {order.status === 'completed' ? ` · ${t('results.notValidated')}` : ''}
        </Text>
        {(order.status === 'completed' || order.status === 'validated') && (
          <ExamResultLines lines={order.result_lines} max={6} />
        )}
      </Stack>
    </Paper>
  );
}

export function ConsultationExamsPanel({
  consultationId,
  patient,
  canOrder = true,
}: {
  consultationId: string;
  patient: FixedPatient;
  /** The consultation may be edited by the user (consultation-access): ordering is offered. */
  canOrder?: boolean;
}) {
  const { t } = useTranslation('exams');
  const allowed = useExamsAllowed();
  const { can } = usePermissions();
  const [ordering, setOrdering] = useState(false);
  const query = useExams(
    { consultation: consultationId, ordering: 'recent', page: 1, pageSize: 50 },
    allowed && Boolean(consultationId),
  );
  if (!allowed) return null;
  const orders = query.data?.results ?? [];
  const urgentAbnormal = orders.filter(
    (o) => isUrgentAbnormal(o) && (o.status === 'completed' || o.status === 'validated'),
  ).length;

  return (
    <Paper withBorder radius="md" p="md" data-testid="consultation-exams">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <IconFlask size={18} />
            <Title order={4}>{t('panel.title')}</Title>
          </Group>
          {canOrder && can('exam.order') && (
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setOrdering(true)}>
              {t('panel.order')}
            </Button>
          )}
        </Group>
        {urgentAbnormal > 0 && (
          <Text size="sm" c="red" fw={600} role="status">
            {t('panel.urgentAbnormal', { count: urgentAbnormal })}
          </Text>
        )}
        {query.isPending ? (
          <Skeleton h={60} />
        ) : query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : orders.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('panel.empty')}
          </Text>
        ) : (
          <Stack gap="xs">
            {orders.map((order) => (
              <ExamOrderRow key={order.id} order={order} />
            ))}
          </Stack>
        )}
      </Stack>
      <OrderExamsModal
        opened={ordering}
        onClose={() => setOrdering(false)}
        patient={patient}
        consultationId={consultationId}
      />
    </Paper>
  );
}
