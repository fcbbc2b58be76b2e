/**
 * The nurse's vital signs in the consultation (issue 25): the visit's triage — when, by whom, the level — and
 * each vital it recorded, with "Reprendre ces constantes" to take them over into the consultation's own vitals
 * (the doctor may then change them or record new ones).
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { VITAL_BOUNDS, type Vitals } from '@greensen/shared/domain/triage';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowDownRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { VITAL_KEYS } from '../../../lib/clinical/components/VitalsFields';
import { formatDateTime, formatNumber } from '../../../lib/format';

type Triage = NonNullable<TConsultationDetail['triage']>;

/** The vitals the triage recorded, in the form's order (empty when none). */
export function recordedVitals(vitals: Vitals): { key: (typeof VITAL_KEYS)[number]; value: number }[] {
  return VITAL_KEYS.flatMap((key) => {
    const value = vitals[key];
    return typeof value === 'number' ? [{ key, value }] : [];
  });
}

export function TriageVitalsCard({
  triage,
  onTakeOver,
  readOnly = false,
}: {
  triage: Triage;
  onTakeOver?: () => void;
  readOnly?: boolean;
}) {
  const { t, i18n } = useTranslation(['consultations', 'triage']);
  const values = recordedVitals(triage.vitals);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="triage-vitals">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {t('consultations:triageVitals.title')}
            </Text>
            <TriageLevelBadge level={triage.level} size="sm" />
            <Text size="xs" c="dimmed">
              {t('consultations:triageVitals.when', {
                when: formatDateTime(triage.recorded_at),
                who: triage.recorded_by.full_name,
              })}
            </Text>
          </Group>
          {!readOnly && onTakeOver && values.length > 0 && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconArrowDownRight size={14} />}
              onClick={onTakeOver}
            >
              {t('consultations:triageVitals.takeOver')}
            </Button>
          )}
        </Group>
        {values.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('consultations:triageVitals.none')}
          </Text>
        ) : (
          <Group gap="md" wrap="wrap">
            {values.map(({ key, value }) => (
              <Text key={key} size="sm">
                <Text span c="dimmed" size="sm">
                  {t(`triage:vitals.${key}`)} :{' '}
                </Text>
                <Text span fw={600} size="sm">
                  {formatNumber(value, i18n.language)}
                  {VITAL_BOUNDS[key] ? ` ${t(`triage:units.${key}`)}` : ''}
                </Text>
              </Text>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
