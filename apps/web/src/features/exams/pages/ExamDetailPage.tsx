/**
 * /exams/:id: the order (exam, urgency, clinical information, requester, performing department), the patient
 * with allergies, the results — entry form generated from the fields for the performing department, read-only
 * table otherwise — the report, who did each step and when, and the actions the user may take now (start,
 * validate, cancel with a reason, acknowledge). A missing order goes to the error page (type exam).
 */

import { type TExamOrderDetail, ZExamCancelBody } from '@greensen/shared/contracts/exams';
import { REFERENCE_ABSENT } from '@greensen/shared/domain/exams';
import {
  Alert,
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  IconCheck,
  IconCircleCheck,
  IconClipboardCheck,
  IconEye,
  IconFlask,
  IconPencil,
  IconPlayerPlay,
  IconSend,
  IconX,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useAcknowledgeExam } from '../../../lib/clinical/api/acknowledge-exam';
import {
  ExamAbnormalBadge,
  ExamFlagBadge,
  ExamStatusBadge,
  ExamUrgencyBadge,
} from '../../../lib/clinical/components/ExamBadges';
import { examName, lineValue, localized, referenceLabel } from '../../../lib/clinical/components/exam-format';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { ReasonModal } from '../../../lib/clinical/components/ReasonModal';
import { IssueDocumentButton } from '../../../lib/documents/IssueDocumentButton';
import { formatDateTime } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { DetailField, DetailQueryState } from '../../../lib/page-states';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useCancelExam } from '../api/cancel-exam';
import { useExam } from '../api/get-exam';
import { useStartExam } from '../api/start-exam';
import { useValidateExam } from '../api/validate-exam';
import { ExamResultForm } from '../components/ExamResultForm';

/** The entered results, read-only: value, unit, flag and reference range per field. */
function ResultsTable({ order }: { order: TExamOrderDetail }) {
  const { t } = useTranslation('exams');
  const lang = uiLanguage();
  if (order.result_lines.length === 0) return null;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped withTableBorder verticalSpacing="xs" data-testid="exam-results">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.field')}</Table.Th>
            <Table.Th>{t('columns.value')}</Table.Th>
            <Table.Th>{t('columns.flag')}</Table.Th>
            <Table.Th>{t('columns.reference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.result_lines.map((line) => (
            <Table.Tr key={line.key} data-testid={`result-row-${line.key}`}>
              <Table.Td>{localized(line, lang)}</Table.Td>
              <Table.Td fw={line.flag ? 700 : undefined} c={line.flag ? 'red' : undefined}>
                {lineValue(line, lang)}
              </Table.Td>
              <Table.Td>
                <ExamFlagBadge
                  flag={line.flag}
                  size="sm"
                  normallyAbsent={line.reference === REFERENCE_ABSENT}
                />
              </Table.Td>
              <Table.Td c="dimmed">{referenceLabel(line.reference, t, lang) ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Steps({ order }: { order: TExamOrderDetail }) {
  const { t } = useTranslation('exams');
  const steps: {
    key: string;
    icon: ReactNode;
    at: string | null;
    by: string | null;
    extra?: string | null;
  }[] = [
    {
      key: 'requested',
      icon: <IconSend size={12} />,
      at: order.requested_at,
      by: order.requested_by.full_name,
    },
    {
      key: 'started',
      icon: <IconPlayerPlay size={12} />,
      at: order.started_at,
      by: order.started_by?.full_name ?? null,
    },
    {
      key: 'resulted',
      icon: <IconFlask size={12} />,
      at: order.resulted_at,
      by: order.resulted_by?.full_name ?? null,
    },
    {
      key: 'validated',
      icon: <IconCircleCheck size={12} />,
      at: order.validated_at,
      by: order.validated_by?.full_name ?? null,
    },
    { key: 'acknowledged', icon: <IconEye size={12} />, at: order.acknowledged_at, by: null },
    {
      key: 'cancelled',
      icon: <IconX size={12} />,
      at: order.cancelled_at,
      by: order.cancelled_by?.full_name ?? null,
      extra: order.cancel_reason,
    },
  ];
  const done = steps.filter((s) => s.at);
  return (
    <Timeline bulletSize={22} lineWidth={2} active={done.length - 1} data-testid="exam-steps">
      {done.map((s) => (
        <Timeline.Item key={s.key} bullet={s.icon} title={t(`steps.${s.key}`)}>
          <Text size="sm" c="dimmed">
            {formatDateTime(s.at)}
            {s.by ? ` · ${s.by}` : ''}
          </Text>
          {s.extra && <Text size="sm">{s.extra}</Text>}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

export default function ExamDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const query = useExam(id);
  const start = useStartExam();
  const validate = useValidateExam();
  const acknowledge = useAcknowledgeExam();
  const cancel = useCancelExam();
  const [cancelling, setCancelling] = useState(false);
  /** Correcting results already entered (before validation): the form replaces the read-only table. */
  const [correcting, setCorrecting] = useState(false);

  if (query.isPending || query.isError)
    return <DetailQueryState query={query} blocks={[110, 240]} testId="exam-loading" />;
  const order = query.data;
  const can = (action: TExamOrderDetail['actions'][number]) => order.actions.includes(action);
  const hasResults = order.status === 'completed' || order.status === 'validated';
  const editing = can('results') && (order.status === 'in_progress' || correcting);

  async function run(action: () => Promise<unknown>, done: string, failed: string) {
    try {
      await action();
      toast({ kind: 'success', title: done });
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404) {
        toast({ kind: 'error', title: failed, description: error.message });
        if (error.status === 409) void query.refetch();
      }
    }
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2}>{examName(order.exam, lang)}</Title>
            <ExamStatusBadge status={order.status} size="lg" />
            <ExamUrgencyBadge urgency={order.urgency} showRoutine size="lg" />
            {order.abnormal && <ExamAbnormalBadge size="lg" />}
          </Group>
          <Text c="dimmed">
            <Text span fw={700} c="var(--mantine-color-text)" data-testid="order-number">
              {order.order_number}
            </Text>{' '}
            · {t(`category.${order.exam.category}`)}
            {order.exam.specimen ? ` · ${order.exam.specimen}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          {can('start') && (
            <Button
              leftSection={<IconPlayerPlay size={16} />}
              loading={start.isPending}
              onClick={() =>
                void run(
                  () => start.mutateAsync({ id: order.id, version: order.version }),
                  t('actions.started'),
                  t('actions.failed'),
                )
              }
            >
              {t('actions.start')}
            </Button>
          )}
          {can('validate') && (
            <Button
              color="green"
              leftSection={<IconClipboardCheck size={16} />}
              loading={validate.isPending}
              onClick={() =>
                void run(
                  () => validate.mutateAsync({ id: order.id, version: order.version }),
                  t('actions.validated'),
                  t('actions.failed'),
                )
              }
            >
              {t('actions.validate')}
            </Button>
          )}
          {can('acknowledge') && !order.acknowledged_at && (
            <Button
              variant="light"
              leftSection={<IconCheck size={16} />}
              loading={acknowledge.isPending}
              onClick={() =>
                void run(
                  () => acknowledge.mutateAsync(order.id),
                  t('actions.acknowledged'),
                  t('actions.failed'),
                )
              }
            >
              {t('actions.acknowledge')}
            </Button>
          )}
          {can('cancel') && (
            <Button
              variant="default"
              color="red"
              leftSection={<IconX size={16} />}
              onClick={() => setCancelling(true)}
            >
              {t('actions.cancel')}
            </Button>
          )}
          {order.status === 'validated' && (
            <IssueDocumentButton source={{ type: 'exam', id: order.id }} kinds={['exam_results_report']} />
          )}
        </Group>
      </Group>

      <PatientBanner patient={order.patient} />

      {order.status === 'cancelled' && (
        <Alert color="gray" title={t('cancel.cancelled')}>
          {order.cancel_reason}
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" p="md" h="100%">
            <Stack gap="sm">
              <Title order={4}>{t('detail.order')}</Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <DetailField label={t('fields.clinical_info')}>
                  <Text size="sm">{order.clinical_info || '—'}</Text>
                </DetailField>
                <DetailField label={t('columns.requester')}>
                  <Text size="sm">
                    {order.requested_by.full_name} · {formatDateTime(order.requested_at)}
                  </Text>
                </DetailField>
                <DetailField label={t('columns.department')}>
                  <Text size="sm">{order.department?.name ?? '—'}</Text>
                </DetailField>
                {order.consultation && (
                  <DetailField label={t('detail.consultation')}>
                    <Anchor component={Link} to={to(`/consultations/${order.consultation}`)} size="sm">
                      {t('detail.openConsultation')}
                    </Anchor>
                  </DetailField>
                )}
              </SimpleGrid>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="md" p="md" h="100%">
            <Stack gap="sm">
              <Title order={4}>{t('detail.steps')}</Title>
              <Steps order={order} />
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={4}>{t('detail.results')}</Title>
            <Group gap="xs">
              {order.status === 'completed' && (
                <Text size="sm" c="orange" fw={600}>
                  {t('results.notValidated')}
                </Text>
              )}
              {order.status === 'completed' && can('results') && (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={correcting ? <IconX size={14} /> : <IconPencil size={14} />}
                  onClick={() => setCorrecting((value) => !value)}
                >
                  {correcting ? t('results.stopCorrecting') : t('results.correct')}
                </Button>
              )}
            </Group>
          </Group>
          {editing ? (
            <ExamResultForm key={order.version} order={order} onSaved={() => setCorrecting(false)} />
          ) : hasResults ? (
            <Stack gap="sm">
              <ResultsTable order={order} />
              {order.report && (
                <DetailField label={order.exam.kind === 'imaging' ? t('fields.report') : t('fields.comment')}>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="exam-report">
                    {order.report}
                  </Text>
                </DetailField>
              )}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {order.status === 'cancelled' ? t('results.cancelled') : t('results.pending')}
            </Text>
          )}
        </Stack>
      </Paper>

      <ReasonModal
        opened={cancelling}
        onClose={() => setCancelling(false)}
        title={t('cancel.title')}
        description={
          <Text size="sm">
            {t('cancel.explain', { exam: examName(order.exam, lang), patient: order.patient.full_name })}
          </Text>
        }
        reasonLabel={t('cancel.reason')}
        closeLabel={t('common:actions.back')}
        confirmLabel={t('cancel.confirm')}
        color="red"
        schema={ZExamCancelBody}
        onConfirm={(reason) => cancel.mutateAsync({ id: order.id, reason })}
        doneTitle={t('cancel.done')}
      />
    </Stack>
  );
}
