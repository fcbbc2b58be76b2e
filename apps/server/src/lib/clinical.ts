import { sql } from 'drizzle-orm';

/**
 * Row helpers shared by the patient-journey modules (patients, admissions, triage, queues): the same patient,
 * department and person references everywhere, read in one query with joins.
 */

export const iso = (v: Date | string | null | undefined): string | null =>
  v === null || v === undefined ? null : new Date(v).toISOString();
export const isoRequired = (v: Date | string): string => new Date(v).toISOString();

/** Whole years between a `YYYY-MM-DD` birth date and today (UTC). */
export function ageOf(birthDate: string | null | undefined, today = new Date()): number | null {
  if (!birthDate) return null;
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age -= 1;
  return Math.max(0, age);
}

/** The birth date of someone `years` old today (used when only an age is known). */
export function birthDateFromAge(years: number, today = new Date()): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

export const fullName = (first: string | null | undefined, last: string | null | undefined) =>
  [first, last].filter((p) => p?.trim()).join(' ');

/** Columns to select for a patient reference (alias `p`). */
export const PATIENT_REF_COLUMNS = sql.raw(
  `p.id as p_id, p.record_number as p_record_number, p.first_name as p_first_name, p.last_name as p_last_name,
   p.sex as p_sex, p.birth_date::text as p_birth_date, array_to_json(p.allergies) as p_allergies,
   p.allergies_recorded as p_allergies_recorded, p.deceased_at as p_deceased_at`,
);
/** Columns to select for a department reference (alias `d`). */
export const DEPARTMENT_REF_COLUMNS = sql.raw(
  'd.id as d_id, d.code as d_code, d.name as d_name, d.kind as d_kind',
);

/** The columns of `PATIENT_REF_COLUMNS`. */
export type PatientRefRow = {
  p_id: string;
  p_record_number: string;
  p_first_name: string;
  p_last_name: string;
  p_sex: 'F' | 'M';
  p_birth_date: string | null;
  p_allergies: string[] | string;
  p_allergies_recorded: boolean | null;
  p_deceased_at: Date | string | null;
};

/** The columns of `DEPARTMENT_REF_COLUMNS`. */
export type DepartmentRefRow = {
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
};

/** A row selecting both `PATIENT_REF_COLUMNS` and `DEPARTMENT_REF_COLUMNS`. */
export type RefRow = PatientRefRow & DepartmentRefRow;

/** A text array selected as JSON (`array_to_json(…)`): both drivers parse it; a string is parsed here. */
export function textArray(v: string[] | string | null | undefined): string[] {
  if (!v) return [];
  if (Array.isArray(v)) return v;
  const parsed: unknown = JSON.parse(v);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

export function patientRef(r: PatientRefRow) {
  return {
    id: r.p_id,
    record_number: r.p_record_number,
    full_name: fullName(r.p_first_name, r.p_last_name),
    sex: r.p_sex,
    age: ageOf(r.p_birth_date),
    allergies: textArray(r.p_allergies),
    allergies_recorded: allergiesRecorded(r.p_allergies_recorded, r.p_allergies),
    deceased_at: iso(r.p_deceased_at),
  };
}

/** Whether the patient's allergies were asked: recorded as such, or implied by a list (issue 25). */
export function allergiesRecorded(
  recorded: unknown,
  allergies: string | string[] | null | undefined,
): boolean {
  return recorded === true || textArray(allergies).length > 0;
}

export function departmentRef(r: DepartmentRefRow) {
  return { id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind };
}

export function personRef(id: string | null, first: string | null, last: string | null) {
  return id ? { id, full_name: fullName(first, last) } : null;
}

/** Minutes between two instants (or until now), never negative. */
export function minutesBetween(from: Date | string, to?: Date | string | null): number {
  const end = to ? new Date(to).getTime() : Date.now();
  return Math.max(0, Math.floor((end - new Date(from).getTime()) / 60_000));
}
