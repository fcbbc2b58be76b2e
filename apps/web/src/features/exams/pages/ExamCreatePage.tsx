/**
 * /exams/create (title key examCreate.title): order exams for a patient — the patient (searched, or given by
 * ?patient=…, with ?consultation=… when coming from a consultation), several exams from the catalogue, the
 * urgency and the clinical information. Once ordered, the new orders are listed with their numbers.
 */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ExamStatusBadge, ExamUrgencyBadge } from '../../../lib/clinical/components/ExamBadges';
import { ExamOrderForm } from '../../../lib/clinical/components/ExamOrderForm';
import { examName } from '../../../lib/clinical/components/exam-format';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePatientSummary } from '../api/get-patient-summary';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function ExamCreatePage() {
  const { t } = useTranslation('exams');
  const to = useLocalizedPath();
  const lang = uiLanguage();
  const [params] = useSearchParams();
  const patientParam = params.get('patient');
  const consultationParam = params.get('consultation');
  const patientId = patientParam && UUID.test(patientParam) ? patientParam : null;
  const consultationId = consultationParam && UUID.test(consultationParam) ? consultationParam : null;
  const patient = usePatientSummary(patientId);
  const [created, setCreated] = useState<TExamOrderDetail[] | null>(null);

  return (
    <Stack gap="md" maw={900}>
      <PageHeader title={t('create.title')} subtitle={t('create.subtitle')} />
      {patientId && patient.isError && (
        <LoadError error={patient.error} onRetry={() => void patient.refetch()} />
      )}
      {patientId && patient.data && <PatientBanner patient={patient.data} />}
      {created ? (
        <Paper withBorder radius="md" p="md" data-testid="orders-created">
          <Stack gap="sm">
            <Group gap={6}>
              <IconCircleCheck size={20} color="var(--mantine-color-green-6)" />
              <Title order={4}>{t('order.created', { count: created.length })}</Title>
            </Group>
            {created.map((order) => (
              <Group key={order.id} gap="xs" wrap="wrap">
                <Anchor component={Link} to={to(`/exams/${order.id}`)} fw={600}>
                  {order.order_number}
                </Anchor>
                <Text size="sm">{examName(order.exam, lang)}</Text>
                <ExamUrgencyBadge urgency={order.urgency} size="xs" />
                <ExamStatusBadge status={order.status} size="xs" />
                <Text size="xs" c="dimmed">
                  {order.department?.name}
                </Text>
              </Group>
            ))}
            <Group gap="xs">
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreated(null)}>
                {t('create.another')}
              </Button>
              {created[0] && (
                <Button component={Link} to={to(`/patients/${created[0].patient.id}`)} variant="default">
                  {t('create.openPatient')}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      ) : patientId && patient.isPending ? (
        <Skeleton h={240} />
      ) : (
        <Paper withBorder radius="md" p="md">
          <ExamOrderForm
            patient={patientId && patient.data ? patient.data : null}
            consultationId={consultationId}
            onDone={setCreated}
          />
        </Paper>
      )}
    </Stack>
  );
}
