/**
 * One row of a round (the vitals of one patient as typed) and what is read from it: the numbers, the fields that
 * cannot be read or are outside the physiological bounds of triage (the shared VITAL_BOUNDS), and the live
 * NEWS2 of what was typed (the shared scoring function the server applies to the stored set). Each field is the
 * clinical number field (decision 0056): a decimal comma reads like a point (`37,8`), the row holds the number,
 * null when empty, NaN for a refused text (the field says why).
 */
import { parseClinicalNumber } from '@greensen/shared/domain/clinical-number';
import { computeNews2, type News2Result } from '@greensen/shared/domain/news2';
import { VITAL_BOUNDS } from '@greensen/shared/domain/triage';

export const ROUND_NUMBERS = [
  'temperature',
  'heart_rate',
  'systolic_bp',
  'diastolic_bp',
  'respiratory_rate',
  'spo2',
  'pain',
  // Optional, in cm; not part of NEWS2 (the scoring reads only its own signs).
  'height',
] as const;
export type RoundNumber = (typeof ROUND_NUMBERS)[number];

/** ACVPU: alert, new confusion, voice, pain, unresponsive. */
export const ACVPU = ['A', 'C', 'V', 'P', 'U'] as const;
export type Acvpu = (typeof ACVPU)[number];

export type RoundRow = Record<RoundNumber, number | string | null> & {
  on_oxygen: boolean;
  acvpu: Acvpu | null;
};

export const EMPTY_ROUND_ROW: RoundRow = {
  temperature: '',
  heart_rate: '',
  systolic_bp: '',
  diastolic_bp: '',
  respiratory_rate: '',
  spo2: '',
  pain: '',
  height: '',
  on_oxygen: false,
  acvpu: null,
};

export interface ReadRow {
  /** The numbers read (null: empty or unreadable). */
  values: Record<RoundNumber, number | null> & {
    on_oxygen: boolean;
    avpu: 'A' | 'V' | 'P' | 'U' | null;
    confused: boolean;
  };
  /** Fields typed but not readable, or out of bounds: their message key (care namespace). */
  errors: Partial<Record<RoundNumber, 'round.errors.unreadable' | 'round.errors.bounds'>>;
  /** Something was entered (a number or the consciousness level). */
  touched: boolean;
}

export function readRow(row: RoundRow): ReadRow {
  const errors: ReadRow['errors'] = {};
  const numbers = {} as Record<RoundNumber, number | null>;
  let touched = row.acvpu !== null;
  for (const key of ROUND_NUMBERS) {
    const held = row[key];
    numbers[key] = null;
    if (held === null || (typeof held === 'string' && held.trim() === '')) continue;
    touched = true;
    const read = typeof held === 'number' ? held : parseClinicalNumber(held, 'fr');
    const n = typeof read === 'number' ? read : read.ok ? read.value : Number.NaN;
    const bounds = VITAL_BOUNDS[key];
    if (n === null || !Number.isFinite(n) || (bounds.integer && !Number.isInteger(n)))
      errors[key] = 'round.errors.unreadable';
    else if (n < bounds.min || n > bounds.max) errors[key] = 'round.errors.bounds';
    else numbers[key] = n;
  }
  const acvpu = row.acvpu;
  return {
    values: {
      ...numbers,
      on_oxygen: row.on_oxygen,
      avpu: acvpu === null ? null : acvpu === 'C' ? 'A' : acvpu,
      confused: acvpu === 'C',
    },
    errors,
    touched,
  };
}

/**
 * The NEWS2 of what was typed, or null for an empty row or a child (`applies`: the server says whether NEWS2 is
 * computed for the patient — from 16 years); a hypercapnic patient is scored on SpO₂ scale 2.
 */
export function liveNews2(
  read: ReadRow,
  patient: { applies: boolean; hypercapnic: boolean },
): News2Result | null {
  if (!read.touched || !patient.applies) return null;
  return computeNews2(read.values, { hypercapnic: patient.hypercapnic });
}
