/** The patient's previous diagnoses (from consultations the user may read), beside the consultation. */
import { Anchor, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DiagnosisText } from '../../../lib/clinical/components/ConsultationBadges';
import { formatDate } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { usePatientDiagnoses } from '../api/patient-diagnoses';

export function PreviousDiagnosesPanel({
  patientId,
  consultationId,
}: {
  patientId: string;
  consultationId: string;
}) {
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const query = usePatientDiagnoses(patientId, consultationId, 10);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={t('previous.title')}>
      <Stack gap="sm">
        <Title order={5}>
          <IconHistory size={16} style={{ verticalAlign: 'text-bottom', marginRight: 6 }} />
          {t('previous.title')}
        </Title>
        {query.isPending ? (
          <Stack gap={6}>
            <Skeleton h={18} />
            <Skeleton h={18} w="70%" />
          </Stack>
        ) : query.isError ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : query.data.results.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('previous.none')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="previous-diagnoses">
            {query.data.results.map((d) => (
              <div key={d.id}>
                <DiagnosisText diagnosis={d} size="xs" lineClamp={2} />
                <Anchor component={Link} to={to(`/consultations/${d.consultation.id}`)} size="xs" c="dimmed">
                  {formatDate(d.consultation.started_at)} · {d.consultation.doctor.full_name} ·{' '}
                  {d.consultation.department.name}
                </Anchor>
              </div>
            ))}
            {query.data.count > query.data.results.length && (
              <Text size="xs" c="dimmed">
                {t('previous.more', { count: query.data.count - query.data.results.length })}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
