/**
 * The vital-sign inputs of triage and of the consultation: one number input per bounded vital (bounds and
 * units shown, the shared VITAL_BOUNDS), AVPU, mobility (SATS) and the confused/trauma checkboxes. The
 * form holds the values as strings/numbers (`VitalsFormValues`); `vitalsOf` turns them into `Vitals`.
 */
import { AVPU, MOBILITY, VITAL_BOUNDS, type Vitals } from '@greensen/shared/domain/triage';
import { Checkbox, Group, NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

type BoundedKey = keyof typeof VITAL_BOUNDS;
export const VITAL_KEYS: BoundedKey[] = [
  'temperature',
  'heart_rate',
  'respiratory_rate',
  'systolic_bp',
  'diastolic_bp',
  'spo2',
  'glycaemia',
  'pain',
  'gcs',
  'weight',
  'height',
];

export interface VitalsFormValues {
  temperature: number | string;
  heart_rate: number | string;
  respiratory_rate: number | string;
  systolic_bp: number | string;
  diastolic_bp: number | string;
  spo2: number | string;
  weight: number | string;
  height: number | string;
  glycaemia: number | string;
  pain: number | string;
  gcs: number | string;
  avpu: string | null;
  confused: boolean;
  mobility: string | null;
  trauma: boolean;
}

export const EMPTY_VITALS: VitalsFormValues = {
  temperature: '',
  heart_rate: '',
  respiratory_rate: '',
  systolic_bp: '',
  diastolic_bp: '',
  spo2: '',
  weight: '',
  height: '',
  glycaemia: '',
  pain: '',
  gcs: '',
  avpu: null,
  confused: false,
  mobility: null,
  trauma: false,
};

/** The names of the form fields VitalsFields writes. */
export const VITALS_FIELD_NAMES = Object.keys(EMPTY_VITALS) as (keyof VitalsFormValues)[];

const num = (value: number | string): number | null =>
  value === '' || value === null || Number.isNaN(Number(value)) ? null : Number(value);

export function vitalsOf(values: VitalsFormValues): Vitals {
  const vitals: Vitals = {};
  for (const key of VITAL_KEYS) vitals[key] = num(values[key]);
  vitals.avpu = (values.avpu as Vitals['avpu']) ?? null;
  vitals.confused = values.confused || null;
  vitals.mobility = (values.mobility as Vitals['mobility']) ?? null;
  vitals.trauma = values.trauma || null;
  return vitals;
}

/** Form values from stored vitals (missing ones empty). */
export function vitalsFormValues(vitals: Vitals | null | undefined): VitalsFormValues {
  const values: VitalsFormValues = { ...EMPTY_VITALS };
  if (!vitals) return values;
  for (const key of VITAL_KEYS) {
    const v = vitals[key];
    values[key] = typeof v === 'number' ? v : '';
  }
  values.avpu = vitals.avpu ?? null;
  values.confused = vitals.confused === true;
  values.mobility = vitals.mobility ?? null;
  values.trauma = vitals.trauma === true;
  return values;
}

export function VitalsFields<T extends VitalsFormValues & Record<string, unknown>>({
  form,
  showMobility,
  showFlags = true,
  readOnly = false,
}: {
  form: UseFormReturnType<T>;
  /** Mobility is a SATS (TEWS) input. */
  showMobility: boolean;
  /** The confused and trauma checkboxes. */
  showFlags?: boolean;
  readOnly?: boolean;
}) {
  const { t } = useTranslation('triage');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
        {VITAL_KEYS.map((key) => {
          const bound = VITAL_BOUNDS[key];
          return (
            <NumberInput
              key={key}
              label={t(`vitals.${key}`)}
              description={`${bound.min}–${bound.max} ${t(`units.${key}`)}`}
              min={bound.min}
              max={bound.max}
              allowDecimal={!bound.integer}
              decimalScale={bound.integer ? 0 : 1}
              hideControls
              clampBehavior="none"
              readOnly={readOnly}
              {...form.getInputProps(key)}
            />
          );
        })}
        <Select
          label={t('vitals.avpu')}
          data={AVPU.map((value) => ({ value, label: t(`avpu.${value}`) }))}
          clearable={!readOnly}
          readOnly={readOnly}
          {...form.getInputProps('avpu')}
        />
        {showMobility && (
          <Select
            label={t('vitals.mobility')}
            data={MOBILITY.map((value) => ({ value, label: t(`mobility.${value}`) }))}
            clearable={!readOnly}
            readOnly={readOnly}
            {...form.getInputProps('mobility')}
          />
        )}
      </SimpleGrid>
      {showFlags && (
        <Group gap="lg">
          <Checkbox
            label={t('vitals.confused')}
            disabled={readOnly}
            {...form.getInputProps('confused', { type: 'checkbox' })}
          />
          <Checkbox
            label={t('vitals.trauma')}
            disabled={readOnly}
            {...form.getInputProps('trauma', { type: 'checkbox' })}
          />
        </Group>
      )}
    </Stack>
  );
}
