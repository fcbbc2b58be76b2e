/**
 * /consultations/diagnosis/{id} (id = the consultation, behind the consultation-access guard): the
 * consultation's diagnoses with the ICD-10 search, primary/secondary, confirmed/suspected, the free-text
 * fallback marked uncoded, and removal — while the user may edit; read-only otherwise.
 */
import { Alert, Anchor, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useConsultation } from '../../../lib/clinical/api/get-consultation';
import { ConsultationStatusBadge } from '../../../lib/clinical/components/ConsultationBadges';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { AddDiagnosisForm } from '../components/AddDiagnosisForm';
import { DiagnosesList } from '../components/DiagnosesList';
import { PreviousDiagnosesPanel } from '../components/PreviousDiagnosesPanel';

export default function ConsultationDiagnosisPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const query = useConsultation(id);
  if (!query.data) {
    return query.isError ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : null;
  }
  const record = query.data;
  const editable = record.access === 'edit' && record.status === 'in_progress';
  const primary = record.diagnoses.find((d) => d.rank === 'primary') ?? null;

  return (
    <Stack gap="md">
      <div>
        <Anchor component={Link} to={to(`/consultations/${record.id}`)} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} />
            {t('diagnoses.back')}
          </Group>
        </Anchor>
        <Group gap="xs" mt={4}>
          <Title order={2}>{t('diagnoses.title', { patient: record.patient.full_name })}</Title>
          <ConsultationStatusBadge status={record.status} />
        </Group>
        <Text c="dimmed" size="sm">
          {record.reason ?? ''}
        </Text>
      </div>
      {!editable && (
        <Alert color="gray" icon={<IconLock size={18} />}>
          {record.status === 'in_progress' ? t('diagnoses.readOnly') : t('diagnoses.locked')}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            {editable && <AddDiagnosisForm consultationId={record.id} currentPrimary={primary} />}
            <DiagnosesList consultationId={record.id} diagnoses={record.diagnoses} editable={editable} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <PatientBanner patient={record.patient} />
            <PreviousDiagnosesPanel patientId={record.patient.id} consultationId={record.id} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
