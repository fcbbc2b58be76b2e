/**
 * /consultations/{id} "Consultation Detail" (behind the consultation-access guard): the form saved as
 * drafts while the user may edit it, otherwise the read-only record; addenda once completed. Beside it: the
 * patient with allergies, previous diagnoses, and the exams slot (recent results, exam orders); under the form,
 * the prescriptions slot (prescribing while the consultation may be edited).
 */
import { Alert, Anchor, Badge, Box, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconEye, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useConsultation } from '../../../lib/clinical/api/get-consultation';
import { ConsultationStatusBadge } from '../../../lib/clinical/components/ConsultationBadges';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { IssueDocumentButton } from '../../../lib/documents/IssueDocumentButton';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { AddendaPanel } from '../components/AddendaPanel';
import { ConsultationEditor } from '../components/ConsultationEditor';
import { ConsultationRecordView } from '../components/ConsultationRecordView';
import { ExamPanelsSlot } from '../components/ExamPanelsSlot';
import { PrescriptionsSlot } from '../components/PrescriptionsSlot';
import { PreviousDiagnosesPanel } from '../components/PreviousDiagnosesPanel';

export default function ConsultationDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const query = useConsultation(id);
  if (!query.data) {
    return query.isError ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : null;
  }
  const record = query.data;
  const editable = record.access === 'edit' && record.status === 'in_progress';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Title order={2}>{t('detail.title', { patient: record.patient.full_name })}</Title>
            <ConsultationStatusBadge status={record.status} size="lg" />
            {!editable && record.status === 'in_progress' && (
              <Badge color="gray" variant="outline" leftSection={<IconEye size={12} />}>
                {t('detail.readOnly')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm">
            {record.department.name} · {record.doctor.full_name} ·{' '}
            {t('detail.started', { date: formatDateTime(record.started_at) })}
            {record.admission && (
              <>
                {' · '}
                <Anchor component={Link} to={to(`/admissions/${record.admission.id}`)} size="sm">
                  {t('detail.admission', { number: record.admission.queue_number })}
                </Anchor>
              </>
            )}
          </Text>
        </div>
        {record.status !== 'cancelled' && (
          <IssueDocumentButton
            source={{ type: 'consultation', id: record.id }}
            defaultKind={record.status === 'completed' ? 'consultation_report' : 'medical_certificate'}
          />
        )}
      </Group>

      {record.status === 'completed' && (
        <Alert color="green" icon={<IconCircleCheck size={18} />} data-testid="consultation-locked">
          {t('detail.completed', {
            date: formatDateTime(record.completed_at),
            doctor: record.completed_by?.full_name ?? record.doctor.full_name,
          })}{' '}
          {record.may_add_addendum ? t('detail.addendumHint') : ''}
        </Alert>
      )}
      {record.status === 'cancelled' && (
        <Alert color="gray" icon={<IconX size={18} />}>
          {t('detail.cancelled', {
            date: formatDateTime(record.cancelled_at),
            reason: record.cancel_reason ?? '',
          })}
        </Alert>
      )}
      {record.status === 'in_progress' && !editable && (
        <Alert color="blue" icon={<IconEye size={18} />}>
          {t('detail.readOnlyHint', { doctor: record.doctor.full_name })}
        </Alert>
      )}

      {/* Narrow screens: the patient (allergies) first, the form, then the other panels. */}
      <Box hiddenFrom="lg">
        <PatientBanner patient={record.patient} />
      </Box>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            {editable ? (
              <ConsultationEditor key={record.id} record={record} />
            ) : (
              <ConsultationRecordView record={record} />
            )}
            <PrescriptionsSlot consultation={record} canPrescribe={editable} />
            {record.status === 'completed' && <AddendaPanel record={record} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <Box visibleFrom="lg">
              <PatientBanner patient={record.patient} />
            </Box>
            <PreviousDiagnosesPanel patientId={record.patient.id} consultationId={record.id} />
            <ExamPanelsSlot consultation={record} canOrder={editable} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
