import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { hospitals, patients } from '../../db/schema/index.js';
import { inScope, OPEN_STAY } from '../care/care.repository.js';
import { OPEN_EMERGENCY_VISIT } from '../care/plans.repository.js';
import type { PatientRow } from '../patients/patients.repository.js';
import type { Comparator } from './fhir.bundle.js';
import type { DiagnosisRow } from './map-condition.js';
import type { EncounterRow } from './map-encounter.js';
import type { LocationKind, LocationRow } from './map-location.js';
import type { AdministrationRow } from './map-medication-administration.js';
import type { VitalKey, VitalsRow } from './map-observation.js';
import type { HospitalRow } from './map-organization.js';
import type { PractitionerRow } from './map-practitioner.js';

/** Totals of FHIR searches are exact up to this many matches. */
export const TOTAL_CAP = 10_000;

export interface Range {
  cmp: Comparator;
  start: Date;
  end: Date;
}

/** The predicate of a date search value on `column` (a partial date covers [start, end)). */
export function rangePredicate(column: SQL, r: Range, asDate = false): SQL {
  const v = (d: Date) => (asDate ? d.toISOString().slice(0, 10) : d.toISOString());
  switch (r.cmp) {
    case 'eq':
      return sql`(${column} >= ${v(r.start)} and ${column} < ${v(r.end)})`;
    case 'ge':
      return sql`${column} >= ${v(r.start)}`;
    case 'gt':
      return sql`${column} >= ${v(r.end)}`;
    case 'le':
      return sql`${column} < ${v(r.end)}`;
    case 'lt':
      return sql`${column} < ${v(r.start)}`;
  }
}

/** The conjunction of the predicates given (`true` when none). */
export const all = (parts: (SQL | undefined)[]) => {
  const kept = parts.filter((p): p is SQL => p !== undefined);
  return kept.length ? sql.join(kept, sql` and `) : sql`true`;
};

/** Takes a transaction-scoped lock on a hospital's identifier: conditional creates of it run one at a time. */
export async function lockIdentifier(q: Queryable, hospitalId: string, system: string, value: string) {
  await q.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`fhir:${hospitalId}:${system}|${value}`}, 0))`,
  );
}

export async function findHospital(q: Queryable, id: string): Promise<HospitalRow | null> {
  const [row] = await q
    .select({
      id: hospitals.id,
      name: hospitals.name,
      code: hospitals.code,
      address: hospitals.address,
      phones: hospitals.phones,
      updated_at: hospitals.updatedAt,
    })
    .from(hospitals)
    .where(eq(hospitals.id, id));
  return row ?? null;
}

export interface PatientFilters {
  /** Only these (the app's name search's matches), in this order. */
  ids?: string[];
  recordNumber?: string;
  nationalId?: string;
  /** A value without a system: the record number or the national id. */
  identifier?: string;
  gender?: 'F' | 'M';
  birthDate: Range[];
  lastUpdated: Range[];
}

/** A page of the hospital's patient records matching the structured filters, and their total. */
export async function searchPatientRecords(
  q: Queryable,
  hospitalId: string,
  f: PatientFilters,
  limit: number,
  offset: number,
): Promise<{ rows: PatientRow[]; total: number }> {
  const where = and(
    eq(patients.hospitalId, hospitalId),
    f.ids ? inArray(patients.id, f.ids.length ? f.ids : ['00000000-0000-0000-0000-000000000000']) : undefined,
    f.recordNumber !== undefined ? eq(patients.recordNumber, f.recordNumber) : undefined,
    f.nationalId !== undefined ? eq(patients.nationalId, f.nationalId) : undefined,
    f.identifier !== undefined
      ? or(eq(patients.recordNumber, f.identifier), eq(patients.nationalId, f.identifier))
      : undefined,
    f.gender ? eq(patients.sex, f.gender) : undefined,
    ...f.birthDate.map((r) => rangePredicate(sql`${patients.birthDate}`, r, true)),
    ...f.lastUpdated.map((r) => rangePredicate(sql`${patients.updatedAt}`, r)),
  );
  const order = f.ids?.length
    ? [sql`array_position(${sql`${`{${f.ids.join(',')}}`}::uuid[]`}, ${patients.id})`]
    : [desc(patients.createdAt), desc(patients.id)];
  const rows =
    limit > 0
      ? await q
          .select()
          .from(patients)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset)
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${patients} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

/** The hospital's patient records of these ids (the `_include`s of a page). */
export async function patientsByIds(q: Queryable, hospitalId: string, ids: string[]): Promise<PatientRow[]> {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(patients)
    .where(and(eq(patients.hospitalId, hospitalId), inArray(patients.id, ids)))
    .orderBy(asc(patients.id));
}

export interface EncounterFilters {
  patientId?: string;
  statuses?: string[];
  types?: string[];
  date: Range[];
  lastUpdated: Range[];
  id?: string;
}

/** Visits as encounters, with the doctor of their consultation, the latest first. */
export async function searchEncounters(
  q: Queryable,
  hospitalId: string,
  f: EncounterFilters,
  limit: number,
  offset: number,
): Promise<{ rows: EncounterRow[]; total: number }> {
  const where = all([
    sql`a.hospital_id = ${hospitalId}`,
    f.id ? sql`a.id = ${f.id}` : undefined,
    f.patientId ? sql`a.patient_id = ${f.patientId}` : undefined,
    f.statuses
      ? sql`a.status::text in (${sql.join(f.statuses.length ? f.statuses.map((s) => sql`${s}`) : [sql`''`], sql`, `)})`
      : undefined,
    f.types
      ? sql`a.admission_type::text in (${sql.join(f.types.length ? f.types.map((s) => sql`${s}`) : [sql`''`], sql`, `)})`
      : undefined,
    ...f.date.map((r) => rangePredicate(sql`a.admitted_at`, r)),
    ...f.lastUpdated.map((r) => rangePredicate(sql`a.updated_at`, r)),
  ]);
  const rows =
    limit > 0
      ? (
          await q.execute<EncounterRow>(sql`select a.id, a.patient_id, a.hospital_id, a.admission_type, a.status,
            a.reason, a.admitted_at, a.closed_at, a.cancelled_at, a.updated_at,
            (select e.doctor_id from executions e where e.admission_id = a.id and e.kind = 'consultation'
              limit 1) as doctor_id
          from admissions a where ${where}
          order by a.admitted_at desc, a.id desc limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from admissions a where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

export interface VitalFilters {
  patientId?: string;
  /** A set's id: a triage record's or a ward set's. */
  setId?: string;
  keys?: VitalKey[];
  date: Range[];
  admissionIds?: string[];
  /**
   * Whose ward sets are given besides the triage records (which every member of the staff reads): a care reader's,
   * those of the departments she works in (the care module's rule, `inScope`); null, none — the app shows ward sets
   * to the care team only.
   */
  wardReader: string | null;
}

/** Which vital signs a triage record holds, as SQL: one row per measured sign (`key`). */
const MEASURED = sql.raw(`(values ('hr', t.heart_rate is not null), ('temp', t.temperature is not null),
  ('bp', t.systolic_bp is not null and t.diastolic_bp is not null), ('rr', t.respiratory_rate is not null),
  ('spo2', t.spo2 is not null), ('weight', t.weight is not null), ('height', t.height is not null)) k(key, measured)`);

/**
 * The sets a vital-sign Observation comes from: triage records and the ward's sets (`care_vitals`, where the
 * Observations an instrument posts are stored; their visit is the plan's, or its stay's). Ids are uuids of either.
 */
const VITAL_SETS = sql.raw(`(select tr.id, tr.hospital_id, tr.patient_id, tr.admission_id, tr.recorded_at,
    tr.recorded_by, tr.temperature::numeric as temperature, tr.heart_rate, tr.respiratory_rate, tr.systolic_bp,
    tr.diastolic_bp, tr.spo2, tr.weight::numeric as weight, tr.height::numeric as height,
    false as ward, null::uuid as department_id
  from triage_records tr
  union all
  select cv.id, cv.hospital_id, cv.patient_id, coalesce(cp.admission_id, h.admission_id), cv.recorded_at,
    cv.recorded_by, cv.temperature::numeric, cv.heart_rate, cv.respiratory_rate, cv.systolic_bp, cv.diastolic_bp,
    cv.spo2, cv.weight::numeric, cv.height::numeric, true, coalesce(h.department_id, a.department_id)
  from care_vitals cv join care_plans cp on cp.id = cv.plan_id
    left join hospitalizations h on h.id = cp.hospitalization_id
    left join admissions a on a.id = cp.admission_id)`);

/** The measured vital signs of the hospital's triage records and ward sets, one row per sign, the latest first. */
export async function searchVitals(
  q: Queryable,
  hospitalId: string,
  f: VitalFilters,
  limit: number,
  offset: number,
): Promise<{ rows: (VitalsRow & { key: VitalKey })[]; total: number }> {
  const where = all([
    sql`t.hospital_id = ${hospitalId}`,
    sql`k.measured`,
    f.wardReader === null
      ? sql`not t.ward`
      : sql`(not t.ward or ${inScope(hospitalId, f.wardReader, sql`t.department_id`)})`,
    f.setId ? sql`t.id = ${f.setId}` : undefined,
    f.patientId ? sql`t.patient_id = ${f.patientId}` : undefined,
    f.admissionIds
      ? sql`t.admission_id in (${sql.join(f.admissionIds.length ? f.admissionIds.map((s) => sql`${s}`) : [sql`null`], sql`, `)})`
      : undefined,
    f.keys
      ? sql`k.key in (${sql.join(f.keys.length ? f.keys.map((s) => sql`${s}`) : [sql`''`], sql`, `)})`
      : undefined,
    ...f.date.map((r) => rangePredicate(sql`t.recorded_at`, r)),
  ]);
  const from = sql`${VITAL_SETS} t cross join lateral ${MEASURED}`;
  const rows =
    limit > 0
      ? (
          await q.execute<VitalsRow & { key: VitalKey }>(sql`select t.id, t.patient_id, t.admission_id,
            t.recorded_at, t.recorded_by, t.temperature, t.heart_rate, t.respiratory_rate, t.systolic_bp,
            t.diastolic_bp, t.spo2, t.weight, t.height, k.key
          from ${from} where ${where}
          order by t.recorded_at desc, t.id, k.key limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

export interface DiagnosisFilters {
  patientId?: string;
  id?: string;
  lastUpdated: Range[];
  admissionIds?: string[];
}

/** The consultations' diagnoses in force (not removed), the latest first. */
export async function searchDiagnoses(
  q: Queryable,
  hospitalId: string,
  f: DiagnosisFilters,
  limit: number,
  offset: number,
): Promise<{ rows: DiagnosisRow[]; total: number }> {
  const where = all([
    sql`d.hospital_id = ${hospitalId}`,
    sql`d.removed_at is null`,
    f.id ? sql`d.id = ${f.id}` : undefined,
    f.patientId ? sql`d.patient_id = ${f.patientId}` : undefined,
    f.admissionIds
      ? sql`c.admission_id in (${sql.join(f.admissionIds.length ? f.admissionIds.map((s) => sql`${s}`) : [sql`null`], sql`, `)})`
      : undefined,
    ...f.lastUpdated.map((r) => rangePredicate(sql`d.updated_at`, r)),
  ]);
  const from = sql`consultation_diagnoses d join consultations c on c.id = d.consultation_id`;
  const rows =
    limit > 0
      ? (
          await q.execute<DiagnosisRow>(sql`select d.id, d.patient_id, c.admission_id, d.icd_code, d.label, d.coded,
            d.rank, d.certainty, d.notes, d.created_by, d.created_at, d.updated_at
          from ${from} where ${where}
          order by d.created_at desc, d.id limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

export interface PractitionerFilters {
  id?: string;
  /** Part of the name, accents and case ignored. */
  name?: string;
}

/** The people who hold (or held) a membership of the hospital, as practitioners, by name. */
export async function searchPractitioners(
  q: Queryable,
  hospitalId: string,
  f: PractitionerFilters,
  limit: number,
  offset: number,
): Promise<{ rows: PractitionerRow[]; total: number }> {
  const where = all([
    sql`exists (select 1 from memberships m where m.user_id = u.id and m.hospital_id = ${hospitalId}
      and m.accepted_at is not null)`,
    f.id ? sql`u.id = ${f.id}` : undefined,
    f.name
      ? sql`strpos(f_unaccent(lower(u.first_name || ' ' || u.last_name)), f_unaccent(lower(${f.name}))) > 0`
      : undefined,
  ]);
  const rows =
    limit > 0
      ? (
          await q.execute<PractitionerRow>(sql`select u.id, u.first_name, u.last_name, u.updated_at,
            exists (select 1 from memberships m where m.user_id = u.id and m.hospital_id = ${hospitalId}
              and m.is_active) as active
          from users u where ${where}
          order by u.last_name, u.first_name, u.id limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from users u where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

export interface LocationFilters {
  id?: string;
  name?: string;
  kinds?: LocationKind[];
  partOf?: string;
}

/** The hospital's wards, rooms and beds as one list of locations (wards, then rooms, then beds, by name). */
const LOCATIONS = (hospitalId: string) => sql`(
  select w.id, 'ward' as kind, w.name, null::uuid as parent_id, null::text as bed_status, w.is_active,
    w.updated_at, 0 as level, w.name as sort_name
  from wards w where w.hospital_id = ${hospitalId}
  union all
  select r.id, 'room', r.name, r.ward_id, null, r.is_active, r.updated_at, 1, r.name
  from rooms r where r.hospital_id = ${hospitalId}
  union all
  select b.id, 'bed', b.label, b.room_id, b.status::text, b.is_active, b.updated_at, 2, b.label
  from beds b where b.hospital_id = ${hospitalId}
) l`;

export async function searchLocations(
  q: Queryable,
  hospitalId: string,
  f: LocationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: LocationRow[]; total: number }> {
  const where = all([
    f.id ? sql`l.id = ${f.id}` : undefined,
    f.partOf ? sql`l.parent_id = ${f.partOf}` : undefined,
    f.kinds
      ? sql`l.kind in (${sql.join(f.kinds.length ? f.kinds.map((k) => sql`${k}`) : [sql`''`], sql`, `)})`
      : undefined,
    f.name ? sql`strpos(f_unaccent(lower(l.name)), f_unaccent(lower(${f.name}))) > 0` : undefined,
  ]);
  const from = LOCATIONS(hospitalId);
  const rows =
    limit > 0
      ? (
          await q.execute<LocationRow>(sql`select l.id, l.kind, l.name, l.parent_id, l.bed_status, l.is_active,
            l.updated_at from ${from} where ${where}
          order by l.level, l.sort_name, l.id limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

/** A list of values for `in (…)` (`empty` when there are none). */
export const list = (values: readonly string[], empty = sql`null`) =>
  sql.join(values.length ? values.map((v) => sql`${v}`) : [empty], sql`, `);

export interface AdministrationFilters {
  id?: string;
  patientId?: string;
  outcomes?: ('given' | 'not_given')[];
  date: Range[];
  lastUpdated: Range[];
  admissionIds?: string[];
  /**
   * The caller: only the doses of the departments she works in (the care module's rule, care.repository); null
   * only to tell a dose of another department (403) from one that does not exist (404).
   */
  userId: string | null;
}

/** The stay or visit of a plan `cp` and its department (`s`, `a`), as the care module reads them. */
const ADMINISTRATION_FROM = sql`medication_administrations ma join care_plans cp on cp.id = ma.plan_id
  left join hospitalizations s on s.id = cp.hospitalization_id
  left join admissions a on a.id = coalesce(cp.admission_id, s.admission_id)
  join prescription_lines l on l.id = ma.prescription_line_id
  join medication_presentations pr on pr.id = l.presentation_id
  join medications m on m.id = l.medication_id`;

/** The MAR's doses (given or not), the latest first, of the departments the caller works in. */
export async function searchAdministrations(
  q: Queryable,
  hospitalId: string,
  f: AdministrationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: AdministrationRow[]; total: number }> {
  const effective = sql`coalesce(ma.given_at, ma.scheduled_at)`;
  const where = all([
    sql`ma.hospital_id = ${hospitalId}`,
    f.userId === null
      ? undefined
      : inScope(hospitalId, f.userId, sql`coalesce(s.department_id, a.department_id)`),
    f.id ? sql`ma.id = ${f.id}` : undefined,
    f.patientId ? sql`ma.patient_id = ${f.patientId}` : undefined,
    f.outcomes ? sql`ma.outcome::text in (${list(f.outcomes, sql`''`)})` : undefined,
    f.admissionIds ? sql`a.id in (${list(f.admissionIds)})` : undefined,
    ...f.date.map((r) => rangePredicate(effective, r)),
    ...f.lastUpdated.map((r) => rangePredicate(sql`ma.recorded_at`, r)),
  ]);
  const rows =
    limit > 0
      ? (
          await q.execute<AdministrationRow>(sql`select ma.id, ma.patient_id, a.id as admission_id,
            l.prescription_id, l.position, ma.outcome, ma.scheduled_at, ma.given_at, ma.dose, ma.dose_unit,
            ma.route::text as route, ma.site, ma.reason, ma.note, ma.recorded_by, ma.recorded_at, m.inn_fr,
            m.inn_en, m.atc_code, pr.strength
          from ${ADMINISTRATION_FROM} where ${where}
          order by ma.scheduled_at desc, ma.id limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${ADMINISTRATION_FROM} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * Where an Observation an instrument posts for patient `patientId` is stored: the patient's open stay, else her
 * open emergency visit (the targets a care plan has), within the visit `admissionId` when the client names it.
 */
export async function openCareTargetOf(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  admissionId: string | null,
): Promise<{ hospitalization: string } | { admission: string } | null> {
  const inVisit = (column: SQL) => (admissionId ? sql`and ${column} = ${admissionId}` : sql``);
  const stay = await q.execute<{ id: string }>(
    sql`select h.id from hospitalizations h where h.hospital_id = ${hospitalId} and h.patient_id = ${patientId}
          and h.status in ${OPEN_STAY} ${inVisit(sql`h.admission_id`)}
        order by h.created_at desc limit 1`,
  );
  if (stay.rows[0]) return { hospitalization: stay.rows[0].id };
  const visit = await q.execute<{ id: string }>(
    sql`select a.id from admissions a join departments d on d.id = a.department_id
        where a.hospital_id = ${hospitalId} and a.patient_id = ${patientId} and ${OPEN_EMERGENCY_VISIT}
          ${inVisit(sql`a.id`)}
        order by a.created_at desc limit 1`,
  );
  return visit.rows[0] ? { admission: visit.rows[0].id } : null;
}
