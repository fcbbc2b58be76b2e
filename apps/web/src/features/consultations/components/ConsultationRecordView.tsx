/**
 * The consultation as a read-only record: for a completed or cancelled one, or for a reader (a colleague of
 * the department). Sections as written, the vital signs that were taken, diagnoses, outcome.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { VITAL_BOUNDS } from '@greensen/shared/domain/triage';
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FollowUpBookingButton } from '../../../lib/clinical/components/FollowUpBooking';
import { formatDate, formatNumber } from '../../../lib/format';
import { DiagnosesSummary } from './DiagnosesSummary';

function Block({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {typeof children === 'string' || children === null ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {children || '—'}
        </Text>
      ) : (
        children
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

export function ConsultationRecordView({ record }: { record: TConsultationDetail }) {
  const { t } = useTranslation('consultations');
  const { t: tt } = useTranslation('triage');
  const vitals = record.vitals ?? {};
  const taken = (Object.keys(VITAL_BOUNDS) as (keyof typeof VITAL_BOUNDS)[]).filter(
    (key) => typeof vitals[key] === 'number',
  );
  const allergies = record.allergies ?? record.patient.allergies;
  return (
    <Stack gap="md" data-testid="consultation-record">
      <Section title={t('sections.reason')}>
        <Block label={t('fields.reason')}>{record.reason}</Block>
      </Section>
      <Section title={t('sections.anamnesis')}>
        <Block label={t('fields.history')}>{record.history}</Block>
        <Block label={t('fields.current_treatment')}>{record.current_treatment}</Block>
        <Block label={t('fields.allergies')}>
          <Group gap={6}>
            {allergies.length === 0 ? (
              <Text size="sm">{t('fields.allergiesNone')}</Text>
            ) : (
              allergies.map((a) => (
                <Badge key={a} color="red" variant="light">
                  {a}
                </Badge>
              ))
            )}
            <Text size="xs" c="dimmed">
              {record.allergies_confirmed
                ? t('fields.allergiesConfirmed')
                : t('fields.allergiesNotConfirmed')}
            </Text>
          </Group>
        </Block>
      </Section>
      <Section title={t('sections.examination')}>
        <Block label={t('fields.examination')}>{record.examination}</Block>
        <Block label={t('fields.vitals')}>
          {taken.length === 0 && !vitals.avpu ? (
            <Text size="sm">—</Text>
          ) : (
            <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="xs" mt={4}>
              {taken.map((key) => (
                <div key={key}>
                  <Text size="xs" c="dimmed">
                    {tt(`vitals.${key}`)}
                  </Text>
                  <Text size="sm" fw={600}>
                    {formatNumber(Number(vitals[key]))} {tt(`units.${key}`)}
                  </Text>
                </div>
              ))}
              {vitals.avpu && (
                <div>
                  <Text size="xs" c="dimmed">
                    {tt('vitals.avpu')}
                  </Text>
                  <Text size="sm" fw={600}>
                    {tt(`avpu.${vitals.avpu}`)}
                  </Text>
                </div>
              )}
            </SimpleGrid>
          )}
        </Block>
      </Section>
      <Section title={t('sections.diagnoses')}>
        <DiagnosesSummary consultationId={record.id} editable={false} />
      </Section>
      <Section title={t('sections.conclusion')}>
        <Block label={t('fields.conclusion')}>{record.conclusion}</Block>
        <Block label={t('fields.plan')}>{record.plan}</Block>
      </Section>
      <Section title={t('sections.outcome')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Block label={t('fields.outcome')}>{record.outcome ? t(`outcome.${record.outcome}`) : null}</Block>
          {record.outcome === 'follow_up' && (
            <Block label={t('fields.follow_up_date')}>
              <Group gap="sm">
                <Text size="sm">{formatDate(record.follow_up_date)}</Text>
                <FollowUpBookingButton
                  patient={record.patient}
                  date={record.follow_up_date}
                  provider={record.doctor.id}
                  department={record.department.id}
                />
              </Group>
            </Block>
          )}
        </SimpleGrid>
        <Block label={t('fields.outcome_notes')}>{record.outcome_notes}</Block>
      </Section>
    </Stack>
  );
}
