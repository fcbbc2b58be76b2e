/**
 * The vital-sign inputs of triage and of the consultation: one text field per bounded vital (bounds and units
 * shown, the shared VITAL_BOUNDS), AVPU, mobility (SATS) and the confused/trauma checkboxes. Each is the clinical
 * number field (decision 0056): a decimal comma and a decimal point read alike (`39,4` = `39.4`, issue 25), the
 * form holds the number, null when empty, NaN for a text refused (unreadable, out of bounds: said by the field,
 * never clamped); stored vitals put back in the form may be text (`vitalsFormValues`). `vitalsOf` turns the form
 * into `Vitals`; `unreadableVitals` names the refused fields, and nothing is computed from them.
 */
import { type ClinicalNumberRule, formatClinicalNumber } from '@greensen/shared/domain/clinical-number';
import { AVPU, MOBILITY, VITAL_BOUNDS, type Vitals } from '@greensen/shared/domain/triage';
import { Checkbox, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ClinicalNumberInput, type ClinicalNumberValue, clinicalNumberOf } from '../../clinical-number-input';

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
  temperature: ClinicalNumberValue;
  heart_rate: ClinicalNumberValue;
  respiratory_rate: ClinicalNumberValue;
  systolic_bp: ClinicalNumberValue;
  diastolic_bp: ClinicalNumberValue;
  spo2: ClinicalNumberValue;
  weight: ClinicalNumberValue;
  height: ClinicalNumberValue;
  glycaemia: ClinicalNumberValue;
  pain: ClinicalNumberValue;
  gcs: ClinicalNumberValue;
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

/** A vital's rule for its field: the triage bounds, a whole number where one is expected. */
export function vitalRule(key: BoundedKey): ClinicalNumberRule {
  const bound = VITAL_BOUNDS[key];
  return { min: bound.min, max: bound.max, decimals: bound.integer ? 0 : undefined };
}

/** What a vital's field holds as a number: null when empty or refused (see `unreadableVitals`). */
function num(value: ClinicalNumberValue): number | null {
  const n = clinicalNumberOf(value);
  return n !== null && Number.isFinite(n) ? n : null;
}

/**
 * The bounded vitals whose field is refused: text that is not a number (`39,4,1`, `abc`), not a whole one where
 * one is expected, or outside the bounds.
 */
export function unreadableVitals(values: VitalsFormValues): BoundedKey[] {
  return VITAL_KEYS.filter((key) => {
    const n = clinicalNumberOf(values[key]);
    if (n === null) return false;
    const bound = VITAL_BOUNDS[key];
    return !Number.isFinite(n) || n < bound.min || n > bound.max || (bound.integer && !Number.isInteger(n));
  });
}

/** Whether anything was entered to suggest a level from: a vital sign, AVPU, mobility or a flag. */
export function hasAnyVital(values: VitalsFormValues): boolean {
  return (
    VITAL_KEYS.some((key) => clinicalNumberOf(values[key]) !== null) ||
    values.avpu !== null ||
    values.mobility !== null ||
    values.confused ||
    values.trauma
  );
}

export function vitalsOf(values: VitalsFormValues): Vitals {
  const vitals: Vitals = {};
  for (const key of VITAL_KEYS) vitals[key] = num(values[key]);
  vitals.avpu = (values.avpu as Vitals['avpu']) ?? null;
  vitals.confused = values.confused || null;
  vitals.mobility = (values.mobility as Vitals['mobility']) ?? null;
  vitals.trauma = values.trauma || null;
  return vitals;
}

/** Form values from stored vitals (missing ones empty), numbers written as `lang` writes them. */
export function vitalsFormValues(vitals: Vitals | null | undefined, lang = 'fr'): VitalsFormValues {
  const values: VitalsFormValues = { ...EMPTY_VITALS };
  if (!vitals) return values;
  for (const key of VITAL_KEYS) {
    const v = vitals[key];
    values[key] = typeof v === 'number' ? formatClinicalNumber(v, lang) : '';
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
  const { t, i18n } = useTranslation('triage');
  const lang = i18n.language;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="sm">
        {VITAL_KEYS.map((key) => {
          const bound = VITAL_BOUNDS[key];
          return (
            <ClinicalNumberInput
              key={key}
              label={t(`vitals.${key}`)}
              description={`${formatClinicalNumber(bound.min, lang)}–${formatClinicalNumber(bound.max, lang)} ${t(`units.${key}`)}`}
              {...vitalRule(key)}
              unit={t(`units.${key}`)}
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
