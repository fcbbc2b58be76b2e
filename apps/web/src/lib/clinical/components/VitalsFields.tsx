/**
 * The vital-sign inputs of triage and of the consultation: one text field per bounded vital (bounds and units
 * shown, the shared VITAL_BOUNDS), AVPU, mobility (SATS) and the confused/trauma checkboxes. The form holds what
 * was typed (`VitalsFormValues`); `vitalsOf` turns it into `Vitals`. A decimal comma and a decimal point are read
 * alike (`39,4` = `39.4`, issue 25: a number input dropped the comma and read 394); text that is not a number is
 * never read as one — `unreadableVitals` names those fields, shown as errors, and nothing is computed from them.
 */
import { parseNumberInput } from '@greensen/shared/domain/exams';
import { AVPU, MOBILITY, VITAL_BOUNDS, type Vitals } from '@greensen/shared/domain/triage';
import { Checkbox, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
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

/** What a vital's field holds as a number: null when empty or not a number (see `unreadableVitals`). */
function num(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return value.trim() === '' ? null : parseNumberInput(value);
}

/** The bounded vitals whose text is not a number (`39,4,1`, `abc`), or not a whole one where one is expected. */
export function unreadableVitals(values: VitalsFormValues): BoundedKey[] {
  return VITAL_KEYS.filter((key) => {
    const value = values[key];
    if (typeof value === 'number' || value.trim() === '') return false;
    const n = parseNumberInput(value);
    return n === null || (VITAL_BOUNDS[key].integer && !Number.isInteger(n));
  });
}

/** Whether anything was entered to suggest a level from: a vital sign, AVPU, mobility or a flag. */
export function hasAnyVital(values: VitalsFormValues): boolean {
  return (
    VITAL_KEYS.some((key) => String(values[key]).trim() !== '') ||
    values.avpu !== null ||
    values.mobility !== null ||
    values.confused ||
    values.trauma
  );
}

/** A stored value as the field shows it: a decimal comma in French. */
export function formatVital(value: number, lang: string): string {
  const text = String(value);
  return lang === 'fr' ? text.replace('.', ',') : text;
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
    values[key] = typeof v === 'number' ? formatVital(v, lang) : '';
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
          const input = form.getInputProps(key);
          return (
            <TextInput
              key={key}
              label={t(`vitals.${key}`)}
              description={`${formatVital(bound.min, lang)}–${formatVital(bound.max, lang)} ${t(`units.${key}`)}`}
              inputMode={bound.integer ? 'numeric' : 'decimal'}
              autoComplete="off"
              readOnly={readOnly}
              {...input}
              onBlur={(event) => {
                input.onBlur?.(event);
                // Said at once, not at saving: the suggestion already ignores a value it cannot read.
                if (unreadableVitals({ ...EMPTY_VITALS, [key]: event.currentTarget.value }).length > 0)
                  form.setFieldError(key, t(bound.integer ? 'validation.wholeNumber' : 'validation.number'));
              }}
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
