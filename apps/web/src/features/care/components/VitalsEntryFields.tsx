/**
 * The vital-sign fields of one patient (the round's cards and the care file's single entry): numeric keypads,
 * units, the previous value as placeholder, oxygen, ACVPU; errors of the typed text (unreadable, outside the
 * triage bounds) at once, the server's after a submit.
 */
import type { TVitalsRecord } from '@greensen/shared/contracts/care';
import { Checkbox, Group, SegmentedControl, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { vitalRule } from '../../../lib/clinical/components/VitalsFields';
import { ClinicalNumberInput } from '../../../lib/clinical-number-input';
import { formatNumber } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import {
  ACVPU,
  type Acvpu,
  type ReadRow,
  ROUND_NUMBERS,
  type RoundNumber,
  type RoundRow,
} from './round-values';

const UNITS: Record<RoundNumber, string> = {
  temperature: '°C',
  heart_rate: '/min',
  systolic_bp: 'mmHg',
  diastolic_bp: 'mmHg',
  respiratory_rate: '/min',
  spo2: '%',
  pain: '/10',
  height: 'cm',
};

export function VitalsEntryFields({
  row,
  read,
  previous,
  serverErrors,
  who,
  onChange,
}: {
  row: RoundRow;
  read: ReadRow;
  previous: TVitalsRecord | null;
  serverErrors: Record<string, string> | undefined;
  /** The patient's name, in the fields' accessible names (several patients on one screen). */
  who: string;
  onChange: (patch: Partial<RoundRow>) => void;
}) {
  const { t } = useTranslation('care');
  return (
    <>
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs" verticalSpacing="xs">
        {ROUND_NUMBERS.map((field) => {
          const error = read.errors[field] ? t(read.errors[field] as string) : serverErrors?.[field];
          const last = previous?.[field];
          return (
            <ClinicalNumberInput
              key={field}
              size="md"
              label={t(`vitals.short.${field}`)}
              aria-label={`${t(`vitals.${field}`)} — ${who}`}
              {...vitalRule(field)}
              unit={UNITS[field]}
              placeholder={last !== null && last !== undefined ? formatNumber(last, uiLanguage()) : ''}
              value={row[field]}
              onChange={(value) => onChange({ [field]: value } as Partial<RoundRow>)}
              error={error}
            />
          );
        })}
        <Checkbox
          size="md"
          mt="lg"
          label={t('vitals.on_oxygen')}
          checked={row.on_oxygen}
          onChange={(event) => onChange({ on_oxygen: event.currentTarget.checked })}
        />
      </SimpleGrid>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {t('vitals.consciousness')}
        </Text>
        <SegmentedControl
          size="md"
          value={row.acvpu ?? ''}
          onChange={(value) => onChange({ acvpu: (value || null) as Acvpu | null })}
          data={[
            { value: '', label: '—' },
            ...ACVPU.map((level) => ({ value: level, label: t(`acvpu.${level}`) })),
          ]}
          aria-label={`${t('vitals.consciousness')} — ${who}`}
        />
      </Group>
    </>
  );
}
