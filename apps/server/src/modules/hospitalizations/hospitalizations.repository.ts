/**
 * Inpatient stays in SQL (issue 17): the stay lists and detail, the checks and writes of a stay's admission,
 * update and discharge. Every read filters on the hospital. The bed board and the beds are in beds.repository.ts,
 * the nurse's patients in nurse-patients.repository.ts, transfers in transfers.repository.ts, progress notes in
 * progress-notes.repository.ts.
 */
import type { TBedPlace, THospitalizationListItem } from '@greensen/shared/contracts/hospitalizations';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { admissions, hospitalizations, patients } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';
import type { Lang } from '../../lib/i18n.js';
import { containsPattern } from '../../lib/queries.js';
import { OPEN_STAY } from './stay-orders.repository.js';
import { OPEN_TRANSFER } from './transfers.repository.js';

/** Role codes of the nurses of a ward (its department's, or the hospital's nurses without a department). */
export const WARD_NURSE_ROLES = ['NURSE', 'CHARGE_NURSE'] as const;

/** A membership (alias `m`, or the `memberships` table unaliased) of a ward's nurse: one of `WARD_NURSE_ROLES`. */
export const wardNurseRole = (m?: string) =>
  sql.raw(`upper(${m ? `${m}.` : ''}role_code) in (${WARD_NURSE_ROLES.map((r) => `'${r}'`).join(', ')})`);

export const icdLabel = (lang: Lang, code: unknown, fr: unknown, en: unknown) =>
  code ? { code: String(code), label: String((lang === 'fr' ? fr : en) ?? code) } : null;

export type StayRow = RefRow & {
  id: string;
  status: THospitalizationListItem['status'];
  reason: string;
  expected_days: number | null;
  requested_at: Date | string;
  admitted_at: Date | string | null;
  ended_at: Date | string | null;
  u_id: string;
  u_first: string;
  u_last: string;
  icd_code: string | null;
  icd_fr: string | null;
  icd_en: string | null;
  b_id: string | null;
  b_label: string | null;
  r_id: string | null;
  r_name: string | null;
  w_id: string | null;
  w_code: string | null;
  w_name: string | null;
  days: number;
  open_transfer: string | null;
};

/** A stay with its patient, department, doctor, provisional diagnosis, bed and days (alias `s`). */
const STAY_COLUMNS = sql`s.id, s.status::text as status, s.reason, s.expected_days, s.requested_at,
    s.admitted_at, s.ended_at, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
    u.id as u_id, u.first_name as u_first, u.last_name as u_last,
    s.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
    b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name, w.id as w_id, w.code as w_code,
    w.name as w_name,
    ((coalesce(s.ended_at, now()) at time zone ho.time_zone)::date
      - (s.requested_at at time zone ho.time_zone)::date + 1)::int as days,
    (select t.id from transfers t where t.hospitalization_id = s.id and t.status in ${OPEN_TRANSFER}
      limit 1) as open_transfer`;
const STAY_FROM = sql`from hospitalizations s
  join hospitals ho on ho.id = s.hospital_id
  join patients p on p.id = s.patient_id
  join departments d on d.id = s.department_id
  join users u on u.id = s.doctor_id
  left join icd10_codes i on i.code = s.provisional_icd_code
  left join beds b on b.id = s.bed_id
  left join rooms r on r.id = b.room_id
  left join wards w on w.id = r.ward_id`;
const STAY_SELECT = sql`select ${STAY_COLUMNS} ${STAY_FROM}`;

function placeOf(r: StayRow): TBedPlace | null {
  if (!r.b_id || !r.r_id || !r.w_id) return null;
  return {
    bed: { id: r.b_id, label: r.b_label ?? '' },
    room: { id: r.r_id, name: r.r_name ?? '' },
    ward: { id: r.w_id, code: r.w_code ?? '', name: r.w_name ?? '' },
  };
}

export function toStay(r: StayRow, lang: Lang): THospitalizationListItem {
  return {
    id: r.id,
    patient: patientRef(r),
    department: departmentRef(r),
    doctor: personRef(r.u_id, r.u_first, r.u_last)!,
    status: r.status,
    reason: r.reason,
    provisional_diagnosis: icdLabel(lang, r.icd_code, r.icd_fr, r.icd_en),
    expected_days: r.expected_days === null ? null : Number(r.expected_days),
    place: placeOf(r),
    requested_at: isoRequired(r.requested_at),
    admitted_at: iso(r.admitted_at),
    ended_at: iso(r.ended_at),
    days: Number(r.days),
    open_transfer: r.open_transfer,
  };
}

export interface StayFilters {
  status: string;
  ward?: string | undefined;
  department?: string | undefined;
  doctor?: string | undefined;
  patient?: string | undefined;
  search?: string | undefined;
}

function stayWhere(hospitalId: string, f: StayFilters): SQL {
  const parts: SQL[] = [sql`s.hospital_id = ${hospitalId}`];
  if (f.status === 'open') parts.push(sql`s.status in ${OPEN_STAY}`);
  else if (f.status === 'closed') parts.push(sql`s.status in ('discharged', 'transferred_out', 'deceased')`);
  else if (f.status !== 'all') parts.push(sql`s.status = ${f.status}`);
  if (f.ward) parts.push(sql`w.id = ${f.ward}`);
  if (f.department) parts.push(sql`s.department_id = ${f.department}`);
  if (f.doctor) parts.push(sql`s.doctor_id = ${f.doctor}`);
  if (f.patient) parts.push(sql`s.patient_id = ${f.patient}`);
  if (f.search) parts.push(stayPatientMatches(f.search));
  return sql.join(parts, sql` and `);
}

/**
 * A stay list's search: the patient `p`'s name (either order, accents ignored) or record number contains the term.
 * The ward's list and the cash desk's (decision 0088) share it.
 */
export function stayPatientMatches(term: string): SQL {
  const like = containsPattern(term.toLowerCase());
  return sql`(f_unaccent(lower(p.last_name || ' ' || p.first_name)) like f_unaccent(${like})
    or f_unaccent(lower(p.first_name || ' ' || p.last_name)) like f_unaccent(${like})
    or lower(p.record_number) like ${like})`;
}

export async function listStays(
  q: Queryable,
  hospitalId: string,
  filters: StayFilters,
  lang: Lang,
  limit: number,
  offset: number,
) {
  const where = stayWhere(hospitalId, filters);
  const rows = await q.execute<StayRow>(
    sql`${STAY_SELECT} where ${where}
      order by case when s.status = 'pending_bed' then 0 else 1 end, s.requested_at desc, s.id desc
      limit ${limit} offset ${offset}`,
  );
  const results = rows.rows.map((r) => toStay(r, lang));
  // A first page shorter than the page size is the whole list: no count query.
  if (offset === 0 && results.length < limit) return { rows: results, count: results.length };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from hospitalizations s
      join patients p on p.id = s.patient_id
      left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
      where ${where}`,
  );
  return { rows: results, count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findStay(q: Queryable, hospitalId: string, id: string, lang: Lang) {
  const res = await q.execute<StayRow>(
    sql`${STAY_SELECT} where s.hospital_id = ${hospitalId} and s.id = ${id}`,
  );
  return res.rows[0] ? toStay(res.rows[0], lang) : null;
}

/** The parts of a stay's detail beyond its list item: discharge, origin, bed moves, consultation diagnoses. */
export async function stayExtras(q: Queryable, id: string, lang: Lang) {
  const base = await q.execute<{
    admission_id: string | null;
    consultation_id: string | null;
    discharge_mode: string | null;
    discharge_codes: string[] | string | null;
    discharge_summary: string | null;
    discharge_treatments: string | null;
    follow_up_date: string | null;
    death_at: Date | string | null;
    death_code: string | null;
    death_fr: string | null;
    death_en: string | null;
    db_id: string | null;
    db_first: string | null;
    db_last: string | null;
    cb_id: string | null;
    cb_first: string | null;
    cb_last: string | null;
  }>(sql`select s.admission_id, s.consultation_id, s.discharge_mode::text as discharge_mode,
      array_to_json(s.discharge_icd_codes) as discharge_codes, s.discharge_summary, s.discharge_treatments,
      s.follow_up_date::text as follow_up_date, s.death_at, s.death_icd_code as death_code,
      di.label_fr as death_fr, di.label_en as death_en,
      db.id as db_id, db.first_name as db_first, db.last_name as db_last,
      cb.id as cb_id, cb.first_name as cb_first, cb.last_name as cb_last
    from hospitalizations s
    left join icd10_codes di on di.code = s.death_icd_code
    left join users db on db.id = s.discharged_by
    left join users cb on cb.id = s.created_by
    where s.id = ${id}`);
  const row = base.rows[0]!;
  const codes =
    typeof row.discharge_codes === 'string'
      ? (JSON.parse(row.discharge_codes) as string[])
      : (row.discharge_codes ?? []);
  const labels = await icdLabels(q, codes, lang);
  const moves = await q.execute<{
    id: string;
    started_at: Date | string;
    ended_at: Date | string | null;
    b_id: string;
    b_label: string;
    r_id: string;
    r_name: string;
    w_id: string;
    w_code: string;
    w_name: string;
    a_id: string | null;
    a_first: string | null;
    a_last: string | null;
  }>(sql`select ba.id, ba.started_at, ba.ended_at, b.id as b_id, b.label as b_label, r.id as r_id,
      r.name as r_name, w.id as w_id, w.code as w_code, w.name as w_name,
      a.id as a_id, a.first_name as a_first, a.last_name as a_last
    from bed_assignments ba join beds b on b.id = ba.bed_id join rooms r on r.id = b.room_id
    join wards w on w.id = r.ward_id left join users a on a.id = ba.assigned_by
    where ba.hospitalization_id = ${id} order by ba.started_at, ba.id`);
  const diagnoses = row.consultation_id
    ? await q.execute<{ code: string | null; label: string; rank: string }>(
        sql`select cd.icd_code as code, cd.label, cd.rank::text as rank from consultation_diagnoses cd
          where cd.consultation_id = ${row.consultation_id} and cd.removed_at is null
          order by case when cd.rank = 'primary' then 0 else 1 end, cd.created_at`,
      )
    : { rows: [] };
  return {
    admission: row.admission_id,
    consultation: row.consultation_id,
    created_by: personRef(row.cb_id, row.cb_first, row.cb_last),
    consultation_diagnoses: diagnoses.rows.map((d) => ({ code: d.code ?? '', label: d.label, rank: d.rank })),
    bed_moves: moves.rows.map((m) => ({
      id: m.id,
      place: {
        bed: { id: m.b_id, label: m.b_label },
        room: { id: m.r_id, name: m.r_name },
        ward: { id: m.w_id, code: m.w_code, name: m.w_name },
      },
      started_at: isoRequired(m.started_at),
      ended_at: iso(m.ended_at),
      assigned_by: personRef(m.a_id, m.a_first, m.a_last),
    })),
    discharge: row.discharge_mode
      ? {
          mode: row.discharge_mode as 'home',
          diagnoses: codes.map((code) => labels.get(code) ?? { code, label: code }),
          summary: row.discharge_summary ?? '',
          treatments: row.discharge_treatments,
          follow_up_date: row.follow_up_date,
          death_at: iso(row.death_at),
          death_cause: icdLabel(lang, row.death_code, row.death_fr, row.death_en),
          discharged_by: personRef(row.db_id, row.db_first, row.db_last) ?? {
            id: row.db_id ?? '',
            full_name: '',
          },
        }
      : null,
  };
}

/** The labels of ICD-10 codes, in the language; unknown codes are absent. */
export async function icdLabels(q: Queryable, codes: readonly string[], lang: Lang) {
  const found = new Map<string, { code: string; label: string }>();
  if (codes.length === 0) return found;
  const res = await q.execute<{ code: string; label_fr: string; label_en: string }>(
    sql`select code, label_fr, label_en from icd10_codes where code in (${sql.join(
      codes.map((c) => sql`${c}`),
      sql`, `,
    )})`,
  );
  for (const r of res.rows)
    found.set(r.code, { code: r.code, label: lang === 'fr' ? r.label_fr : r.label_en });
  return found;
}

/** Locks a stay of the hospital: its state and the people and places the rules need. */
export type PlacementStay = {
  id: string;
  patient_id: string;
  department_id: string;
  doctor_id: string;
  status: THospitalizationListItem['status'];
  bed_id: string | null;
  requested_at: Date | string;
  patient_sex: 'F' | 'M';
  patient_birth_date: string | null;
};

const placementStay = (hospitalId: string, id: string) => sql`select s.id, s.patient_id, s.department_id,
    s.doctor_id, s.status::text as status, s.bed_id, s.requested_at, p.sex::text as patient_sex,
    p.birth_date::text as patient_birth_date
  from hospitalizations s join patients p on p.id = s.patient_id
  where s.hospital_id = ${hospitalId} and s.id = ${id}`;

/** A stay with what a bed move reads (the patient's sex and birth date), locked for the move. */
export async function lockStay(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<PlacementStay>(sql`${placementStay(hospitalId, id)} for update of s`);
  return res.rows[0] ?? null;
}

/** The same, unlocked (the bed board's check before a placement). */
export async function findStayForPlacement(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<PlacementStay>(placementStay(hospitalId, id));
  return res.rows[0] ?? null;
}
export type LockedStay = NonNullable<Awaited<ReturnType<typeof lockStay>>>;

/** Users of the hospital who look after a ward's patients (the nurses of its department or of the hospital). */
export async function wardNurses(q: Queryable, hospitalId: string, departmentId: string): Promise<string[]> {
  const res = await q.execute<{ user_id: string }>(
    sql`select distinct m.user_id from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.is_active and u.is_active
        and ${wardNurseRole('m')}
        and (m.department_id is null or m.department_id = ${departmentId})`,
  );
  return res.rows.map((r) => r.user_id);
}

/** The head of a department, or else the hospital's head doctors. */
export async function departmentHeads(q: Queryable, hospitalId: string, departmentId: string | null) {
  if (departmentId) {
    const head = await q.execute<{ id: string | null }>(
      sql`select head_user_id as id from departments where id = ${departmentId} and hospital_id = ${hospitalId}`,
    );
    if (head.rows[0]?.id) return [head.rows[0].id];
  }
  const res = await q.execute<{ user_id: string }>(
    sql`select distinct m.user_id from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.is_active and u.is_active and upper(m.role_code) = 'HEAD_DOCTOR'`,
  );
  return res.rows.map((r) => r.user_id);
}

/** The roles and departments a user holds in a hospital. */
export async function membershipsOf(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ role_code: string; department_id: string | null }>(
    sql`select upper(role_code) as role_code, department_id from memberships
      where hospital_id = ${hospitalId} and user_id = ${userId} and is_active`,
  );
  return res.rows;
}

/**
 * Discharge closes the visit the stay came from (issue 37): it is no longer "hospitalized" but completed, its
 * closing time kept (the wait it measures ended when the patient was admitted). Answers the visit closed, if any.
 */
export async function completeVisitOfStay(q: Queryable, stayId: string, now: Date) {
  const res = await q.execute<{ id: string }>(sql`update admissions a set status = 'completed',
      closed_at = coalesce(a.closed_at, ${now.toISOString()}::timestamptz), updated_at = ${now.toISOString()}::timestamptz
    from hospitalizations s where s.id = ${stayId} and a.id = s.admission_id and a.status = 'hospitalized'
    returning a.id`);
  return res.rows[0]?.id ?? null;
}

// Admission, update and discharge ---------------------------------------------------------------------------

/** Role codes of the practitioners who may be a stay's doctor. */
const PRACTITIONER_ROLES = ['DOCTOR', 'PHYSICIAN', 'MD', 'HEAD_DOCTOR', 'SAGE_FEMME'];

/** Stays of the hospital waiting for a bed. */
export async function pendingStayCount(q: Queryable, hospitalId: string) {
  const pending = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from hospitalizations where hospital_id = ${hospitalId} and status = 'pending_bed'`,
  );
  return Number(pending.rows[0]?.n ?? 0);
}

/** Whether a department of the hospital is active; null when the hospital has no such department. */
export async function departmentIsActive(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ is_active: boolean }>(
    sql`select is_active from departments where id = ${id} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ? res.rows[0].is_active : null;
}

/** Whether a user is an active practitioner of the hospital (a stay's doctor). */
export async function isActivePractitioner(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.user_id = ${userId} and m.is_active and u.is_active
        and upper(m.role_code) in (${sql.join(
          PRACTITIONER_ROLES.map((r) => sql`${r}`),
          sql`, `,
        )})`,
  );
  return Number(res.rows[0]?.n ?? 0) > 0;
}

/** Locks a visit of the hospital a stay is opened from. */
export async function lockVisitToAdmit(q: Queryable, hospitalId: string, admissionId: string) {
  const [admission] = await q
    .select({ id: admissions.id, patientId: admissions.patientId, status: admissions.status })
    .from(admissions)
    .where(and(eq(admissions.id, admissionId), eq(admissions.hospitalId, hospitalId)))
    .for('update');
  return admission ?? null;
}

/** The visit led to a stay: `hospitalized`, closed now. */
export async function markVisitHospitalized(q: Queryable, admissionId: string, now: Date) {
  await q
    .update(admissions)
    .set({ status: 'hospitalized', closedAt: now, updatedAt: now })
    .where(eq(admissions.id, admissionId));
}

/** A patient of the hospital about to be admitted: the name and whether deceased. */
export async function patientToAdmit(q: Queryable, hospitalId: string, patientId: string) {
  const [patient] = await q
    .select({ first: patients.firstName, last: patients.lastName, deceasedAt: patients.deceasedAt })
    .from(patients)
    .where(and(eq(patients.id, patientId), eq(patients.hospitalId, hospitalId)));
  return patient ?? null;
}

/** A patient's name (for a notification); the patient is one the caller already holds. */
export async function patientName(q: Queryable, patientId: string) {
  const [p] = await q
    .select({ first: patients.firstName, last: patients.lastName })
    .from(patients)
    .where(eq(patients.id, patientId));
  return p ?? null;
}

/**
 * Opens a stay waiting for a bed; answers its id, or null when the patient already has an open stay (the partial
 * unique index `hospitalizations_open_uq` holds it, and nothing is written).
 */
export async function insertStayUnlessOpen(q: Queryable, values: typeof hospitalizations.$inferInsert) {
  const rows = await q
    .insert(hospitalizations)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: hospitalizations.id });
  return rows[0]?.id ?? null;
}

/** Columns of a stay its doctor may change while it is open. */
export type StayChanges = Partial<typeof hospitalizations.$inferInsert>;

/** Changes the given columns of a stay. */
export async function updateStayFields(q: Queryable, id: string, values: StayChanges) {
  await q.update(hospitalizations).set(values).where(eq(hospitalizations.id, id));
}

/** The stay lies in `bedId`: admitted (its admission time kept from its first bed). */
export async function placeStayInBed(q: Queryable, stayId: string, bedId: string, now: Date) {
  await q
    .update(hospitalizations)
    .set({
      bedId,
      status: 'admitted',
      admittedAt: sql`coalesce(${hospitalizations.admittedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(eq(hospitalizations.id, stayId));
}

/** The stay left its bed and waits for another (an internal transfer without a bed). */
export async function returnStayToWaiting(q: Queryable, stayId: string, now: Date) {
  await q
    .update(hospitalizations)
    .set({ status: 'pending_bed', bedId: null, updatedAt: now })
    .where(eq(hospitalizations.id, stayId));
}

/** The stay belongs to another department (an internal transfer completed). */
export async function moveStayToDepartment(q: Queryable, stayId: string, departmentId: string, now: Date) {
  await q
    .update(hospitalizations)
    .set({ departmentId, updatedAt: now })
    .where(eq(hospitalizations.id, stayId));
}

/** The stay ends: out of its bed, with its discharge (mode, diagnoses, summary, death…) and who signed it. */
export async function closeStay(
  q: Queryable,
  stayId: string,
  discharge: Pick<
    typeof hospitalizations.$inferInsert,
    | 'status'
    | 'endedAt'
    | 'dischargeMode'
    | 'dischargeIcdCodes'
    | 'dischargeSummary'
    | 'dischargeTreatments'
    | 'followUpDate'
    | 'deathAt'
    | 'deathIcdCode'
    | 'dischargedBy'
    | 'updatedAt'
  >,
) {
  await q
    .update(hospitalizations)
    .set({ ...discharge, bedId: null })
    .where(eq(hospitalizations.id, stayId));
}

/** The patient died (recorded with a discharge as deceased). */
export async function markPatientDeceased(q: Queryable, patientId: string, deathAt: Date, now: Date) {
  await q.update(patients).set({ deceasedAt: deathAt, updatedAt: now }).where(eq(patients.id, patientId));
}
