/**
 * The consultation form's values, built from the record, and the draft patch a change produces (what the
 * PATCH sends): text sections as text (blank = cleared), the allergies list, the vitals as one object.
 */
import {
  type TConsultationDetail,
  type TConsultationUpdate,
  ZConsultationUpdate,
} from '@greensen/shared/contracts/consultations';
import type { ConsultationOutcome } from '@greensen/shared/domain/consultations';
import type { z } from 'zod';
import {
  unreadableVitals,
  VITALS_FIELD_NAMES,
  type VitalsFormValues,
  vitalsFormValues,
  vitalsOf,
} from '../../../lib/clinical/components/VitalsFields';
import { uiLanguage } from '../../../lib/i18n';
import { zodFieldErrors } from '../../../lib/zod-form';

export const TEXT_FIELDS = [
  'reason',
  'history',
  'current_treatment',
  'examination',
  'conclusion',
  'plan',
  'outcome_notes',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

export interface ConsultationFormValues extends VitalsFormValues {
  reason: string;
  history: string;
  current_treatment: string;
  allergies: string[];
  allergies_confirmed: boolean;
  examination: string;
  conclusion: string;
  plan: string;
  outcome: ConsultationOutcome | null;
  outcome_notes: string;
  follow_up_date: string;
  [key: string]: unknown;
}

export type DraftPatch = Omit<TConsultationUpdate, 'version'> & Record<string, unknown>;

/** The form's values for a record; allergies start from the patient's list until the doctor records them. */
export function formValuesOf(record: TConsultationDetail): ConsultationFormValues {
  return {
    ...vitalsFormValues(record.vitals, uiLanguage()),
    reason: record.reason ?? '',
    history: record.history ?? '',
    current_treatment: record.current_treatment ?? '',
    allergies: record.allergies ?? [...record.patient.allergies],
    allergies_confirmed: record.allergies_confirmed,
    examination: record.examination ?? '',
    conclusion: record.conclusion ?? '',
    plan: record.plan ?? '',
    outcome: record.outcome,
    outcome_notes: record.outcome_notes ?? '',
    follow_up_date: record.follow_up_date ?? '',
  };
}

const VITAL_FIELDS = new Set<string>(VITALS_FIELD_NAMES);

/** The patch for the fields that differ between two sets of values (vitals sent whole when one changed). */
export function patchBetween(values: ConsultationFormValues, previous: ConsultationFormValues): DraftPatch {
  const patch: DraftPatch = {};
  for (const field of TEXT_FIELDS) {
    if (values[field] !== previous[field]) patch[field] = values[field] || null;
  }
  if (values.allergies.join('\u0000') !== previous.allergies.join('\u0000')) {
    patch.allergies = values.allergies;
    // The list the doctor records is the one they confirm: it goes along with the checkbox.
    patch.allergies_confirmed = values.allergies_confirmed;
  }
  if (values.allergies_confirmed !== previous.allergies_confirmed) {
    patch.allergies_confirmed = values.allergies_confirmed;
    patch.allergies = values.allergies;
  }
  // Vitals the form cannot read yet (`39,4,` while typing, `abc`) are not saved: the field says so, and the
  // draft keeps the last readable values rather than a number the doctor did not type.
  if ([...VITAL_FIELDS].some((key) => values[key] !== previous[key]) && unreadableVitals(values).length === 0)
    patch.vitals = vitalsOf(values);
  if (values.outcome !== previous.outcome) patch.outcome = values.outcome;
  if (values.follow_up_date !== previous.follow_up_date) patch.follow_up_date = values.follow_up_date || null;
  return patch;
}

/** The form values a patch sets back (re-applying unsaved changes after a reload). */
export function valuesFromPatch(patch: DraftPatch): Partial<ConsultationFormValues> {
  const values: Partial<ConsultationFormValues> = {};
  for (const field of TEXT_FIELDS) {
    if (field in patch) values[field as TextField] = (patch[field] as string | null) ?? '';
  }
  if (patch.allergies !== undefined) values.allergies = patch.allergies ?? [];
  if (patch.allergies_confirmed !== undefined) values.allergies_confirmed = patch.allergies_confirmed;
  if (patch.vitals !== undefined) Object.assign(values, vitalsFormValues(patch.vitals, uiLanguage()));
  if (patch.outcome !== undefined) values.outcome = patch.outcome ?? null;
  if (patch.follow_up_date !== undefined) values.follow_up_date = patch.follow_up_date ?? '';
  return values;
}

/** Field errors of a patch, by form field (`vitals.heart_rate` → `heart_rate`); empty when valid. */
export function patchErrors(patch: DraftPatch): Record<string, string> {
  const result = ZConsultationUpdate.safeParse({ version: 1, ...patch });
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(zodFieldErrors(result.error as z.ZodError))) {
    const field = path.replace(/^vitals\./, '');
    if (!errors[field]) errors[field] = message;
  }
  return errors;
}

/** The fields a patch touches, as form fields. */
export function patchFields(patch: DraftPatch): string[] {
  return Object.keys(patch).flatMap((key) => (key === 'vitals' ? [...VITAL_FIELDS] : [key]));
}
