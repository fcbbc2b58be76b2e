/** /triage/:id: a triage record — level (suggested and chosen, with the override reason), vitals, complaint. */

import { VITAL_BOUNDS } from '@greensen/shared/domain/triage';
import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { levelLabel, TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useTriage } from '../api/get-triage';

export default function TriageDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('triage');
  const to = useLocalizedPath();
  const query = useTriage(id);
  if (query.isPending) {
    return (
      <Stack gap="md">
        <Skeleton h={40} w="40%" />
        <Skeleton h={110} />
        <Skeleton h={200} />
      </Stack>
    );
  }
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const triage = query.data;
  const vitals = triage.vitals as Record<string, unknown>;
  const vitalKeys = Object.keys(VITAL_BOUNDS).filter((key) => typeof vitals[key] === 'number');

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={2}>{t('detail.title')}</Title>
          <Text c="dimmed">
            {t('recordedAt', { date: formatDateTime(triage.recorded_at) })} · {triage.recorded_by.full_name} ·{' '}
            {triage.department.name}
          </Text>
        </div>
        <Anchor component={Link} to={to(`/admissions/${triage.admission}`)}>
          {t('detail.openAdmission')}
        </Anchor>
      </Group>
      <PatientBanner patient={triage.patient} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={4}>{t('detail.level', { scale: t(`scales.${triage.scale}`) })}</Title>
            <Group gap="sm">
              <TriageLevelBadge level={triage.level} targetMinutes={triage.target_minutes} size="xl" />
              {triage.tews !== null && (
                <Badge variant="light">{t('form.tews', { score: triage.tews })}</Badge>
              )}
            </Group>
            <Text size="sm">
              {t('detail.suggested')} <strong>{levelLabel(triage.suggested_level, t)}</strong>
            </Text>
            {triage.overridden && (
              <Text size="sm" c="orange">
                {t('detail.overridden', { reason: triage.override_reason ?? '' })}
              </Text>
            )}
            <Text size="sm" fw={600}>
              {t('form.chief_complaint')}
            </Text>
            <Text size="sm">{triage.chief_complaint}</Text>
            {triage.discriminators.length > 0 && (
              <Group gap={4}>
                {triage.discriminators.map((code) => (
                  <Badge key={code} variant="light" color="orange" size="sm">
                    {t(`discriminators.${code}`)}
                  </Badge>
                ))}
              </Group>
            )}
            {triage.notes && (
              <Text size="sm" c="dimmed">
                {triage.notes}
              </Text>
            )}
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={4}>{t('form.vitals')}</Title>
            {vitalKeys.length === 0 && !vitals.avpu ? (
              <Text c="dimmed" size="sm">
                {t('detail.noVitals')}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
                {vitalKeys.map((key) => (
                  <div key={key}>
                    <Text size="xs" c="dimmed">
                      {t(`vitals.${key}`)}
                    </Text>
                    <Text fw={600}>
                      {formatNumber(Number(vitals[key]))} {t(`units.${key}`)}
                    </Text>
                  </div>
                ))}
                {typeof vitals.avpu === 'string' && (
                  <div>
                    <Text size="xs" c="dimmed">
                      {t('vitals.avpu')}
                    </Text>
                    <Text fw={600}>{t(`avpu.${vitals.avpu}`)}</Text>
                  </div>
                )}
              </SimpleGrid>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
