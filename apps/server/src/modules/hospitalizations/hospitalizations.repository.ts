/**
 * Inpatient stays in SQL (issue 17): the stay lists and detail, the bed board in one query, the nurse's
 * patients, transfers. Every query filters on the hospital (transfers: the sending or the receiving one).
 */
import type {
  TBedPlace,
  TBoardBed,
  TBoardWard,
  THospitalizationListItem,
  TNursePatient,
  TTransfer,
} from '@greensen/shared/contracts/hospitalizations';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
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
import { latestVitalsOf, news2SummaryOf } from '../care/vital-signs.repository.js';

/** Role codes of the nurses of a ward (its department's, or the hospital's nurses without a department). */
export const WARD_NURSE_ROLES = ['NURSE', 'CHARGE_NURSE'] as const;

const icdLabel = (lang: Lang, code: unknown, fr: unknown, en: unknown) =>
  code ? { code: String(code), label: String((lang === 'fr' ? fr : en) ?? code) } : null;

interface StayRow extends RefRow {
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
}

/** A stay with its patient, department, doctor, provisional diagnosis, bed and days (alias `s`). */
const STAY_COLUMNS = sql`s.id, s.status::text as status, s.reason, s.expected_days, s.requested_at,
    s.admitted_at, s.ended_at, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
    u.id as u_id, u.first_name as u_first, u.last_name as u_last,
    s.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
    b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name, w.id as w_id, w.code as w_code,
    w.name as w_name,
    ((coalesce(s.ended_at, now()) at time zone ho.time_zone)::date
      - (s.requested_at at time zone ho.time_zone)::date + 1)::int as days,
    (select t.id from transfers t where t.hospitalization_id = s.id and t.status in ('requested', 'accepted')
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

function toStay(r: StayRow, lang: Lang): THospitalizationListItem {
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
  if (f.status === 'open') parts.push(sql`s.status in ('pending_bed', 'admitted')`);
  else if (f.status === 'closed') parts.push(sql`s.status in ('discharged', 'transferred_out', 'deceased')`);
  else if (f.status !== 'all') parts.push(sql`s.status = ${f.status}`);
  if (f.ward) parts.push(sql`w.id = ${f.ward}`);
  if (f.department) parts.push(sql`s.department_id = ${f.department}`);
  if (f.doctor) parts.push(sql`s.doctor_id = ${f.doctor}`);
  if (f.patient) parts.push(sql`s.patient_id = ${f.patient}`);
  if (f.search) {
    const like = containsPattern(f.search.toLowerCase());
    parts.push(
      sql`(f_unaccent(lower(p.last_name || ' ' || p.first_name)) like f_unaccent(${like})
        or f_unaccent(lower(p.first_name || ' ' || p.last_name)) like f_unaccent(${like})
        or lower(p.record_number) like ${like})`,
    );
  }
  return sql.join(parts, sql` and `);
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

/** Locks a bed of the hospital with its ward's rules (active room and ward). */
export async function lockBedForStay(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    label: string;
    status: TBoardBed['status'];
    usable: boolean;
    ward_id: string;
    ward_name: string;
    room_id: string;
    department_id: string;
    department_name: string;
    sex_restriction: 'F' | 'M' | null;
    min_age: number | null;
    max_age: number | null;
  }>(sql`select b.id, b.label, b.status::text as status, (b.is_active and r.is_active and w.is_active) as usable,
      w.id as ward_id, w.name as ward_name, r.id as room_id, w.department_id, d.name as department_name,
      w.sex_restriction::text as sex_restriction, w.min_age, w.max_age
    from beds b join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
      join departments d on d.id = w.department_id
    where b.hospital_id = ${hospitalId} and b.id = ${id} for update of b`);
  return res.rows[0] ?? null;
}
export type LockedBed = NonNullable<Awaited<ReturnType<typeof lockBedForStay>>>;

/** A bed with its ward's rules, unlocked (the bed board's check before a placement). */
export async function bedForStay(q: Queryable, hospitalId: string, id: string): Promise<LockedBed | null> {
  const res = await q.execute<LockedBed>(sql`select b.id, b.label, b.status::text as status,
      (b.is_active and r.is_active and w.is_active) as usable, w.id as ward_id, w.name as ward_name,
      r.id as room_id, w.department_id, d.name as department_name, w.sex_restriction::text as sex_restriction,
      w.min_age, w.max_age
    from beds b join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
      join departments d on d.id = w.department_id
    where b.hospital_id = ${hospitalId} and b.id = ${id}`);
  return res.rows[0] ?? null;
}

/** The sex of the patients lying in the other beds of a room (its open assignments), the stay `except` aside. */
export async function roomNeighbourSexes(
  q: Queryable,
  roomId: string,
  except: string,
): Promise<('F' | 'M')[]> {
  const res = await q.execute<{ sex: 'F' | 'M' }>(sql`select distinct p.sex::text as sex
    from beds b join bed_assignments ba on ba.bed_id = b.id and ba.ended_at is null
      join hospitalizations s on s.id = ba.hospitalization_id join patients p on p.id = s.patient_id
    where b.room_id = ${roomId} and s.id <> ${except}`);
  return res.rows.map((r) => r.sex);
}

/** Users of the hospital who look after a ward's patients (the nurses of its department or of the hospital). */
export async function wardNurses(q: Queryable, hospitalId: string, departmentId: string): Promise<string[]> {
  const res = await q.execute<{ user_id: string }>(
    sql`select distinct m.user_id from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.is_active and u.is_active
        and upper(m.role_code) in ('NURSE', 'CHARGE_NURSE')
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

// The bed board --------------------------------------------------------------------------------------------

interface BoardRow extends RefRow {
  w_id: string;
  w_code: string;
  w_name: string;
  w_sex: 'F' | 'M' | null;
  w_min: number | null;
  w_max: number | null;
  r_id: string | null;
  r_name: string | null;
  b_id: string | null;
  b_label: string | null;
  b_status: TBoardBed['status'] | null;
  b_reason: string | null;
  s_id: string | null;
  s_days: number | null;
  icd_code: string | null;
  icd_fr: string | null;
  icd_en: string | null;
  u_id: string | null;
  u_first: string | null;
  u_last: string | null;
  open_transfer: string | null;
}

/**
 * Every active ward of the hospital with its active rooms and beds and each bed's occupant, in one query (a
 * 500-bed hospital is one round trip; the stays are found by their bed through `hospitalizations_bed_uq`).
 */
export async function boardWards(
  q: Queryable,
  hospitalId: string,
  filters: { ward?: string | undefined; department?: string | undefined },
  lang: Lang,
): Promise<TBoardWard[]> {
  const res = await q.execute<BoardRow>(sql`select w.id as w_id, w.code as w_code, w.name as w_name,
      w.sex_restriction::text as w_sex, w.min_age as w_min, w.max_age as w_max, ${DEPARTMENT_REF_COLUMNS},
      r.id as r_id, r.name as r_name, b.id as b_id, b.label as b_label, b.status::text as b_status,
      b.status_reason as b_reason, s.id as s_id,
      ((now() at time zone ho.time_zone)::date - (s.requested_at at time zone ho.time_zone)::date + 1)::int as s_days,
      s.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
      u.id as u_id, u.first_name as u_first, u.last_name as u_last,
      (select t.id from transfers t where t.hospitalization_id = s.id and t.status in ('requested', 'accepted')
        limit 1) as open_transfer,
      ${PATIENT_REF_COLUMNS}
    from wards w
    join hospitals ho on ho.id = w.hospital_id
    join departments d on d.id = w.department_id
    left join rooms r on r.ward_id = w.id and r.is_active
    left join beds b on b.room_id = r.id and b.is_active
    left join hospitalizations s on s.bed_id = b.id
    left join patients p on p.id = s.patient_id
    left join users u on u.id = s.doctor_id
    left join icd10_codes i on i.code = s.provisional_icd_code
    where w.hospital_id = ${hospitalId} and w.is_active
      ${filters.ward ? sql`and w.id = ${filters.ward}` : sql``}
      ${filters.department ? sql`and w.department_id = ${filters.department}` : sql``}
    order by d.name, w.name, w.id, r.name, r.id, b.sort_order, b.label, b.id`);
  const wards = new Map<string, TBoardWard>();
  for (const row of res.rows) {
    let ward = wards.get(row.w_id);
    if (!ward) {
      ward = {
        id: row.w_id,
        code: row.w_code,
        name: row.w_name,
        department: departmentRef(row),
        sex_restriction: row.w_sex,
        min_age: row.w_min === null ? null : Number(row.w_min),
        max_age: row.w_max === null ? null : Number(row.w_max),
        beds: { total: 0, free: 0, occupied: 0, cleaning: 0, out_of_service: 0 },
        rooms: [],
      };
      wards.set(row.w_id, ward);
    }
    if (!row.r_id) continue;
    let room = ward.rooms.at(-1);
    if (room?.id !== row.r_id) {
      room = { id: row.r_id, name: row.r_name ?? '', beds: [] };
      ward.rooms.push(room);
    }
    if (!row.b_id || !row.b_status) continue;
    ward.beds.total += 1;
    ward.beds[row.b_status] += 1;
    room.beds.push({
      id: row.b_id,
      label: row.b_label ?? '',
      status: row.b_status,
      status_reason: row.b_reason,
      occupant:
        row.s_id && row.p_id
          ? {
              hospitalization: row.s_id,
              patient: patientRef(row),
              days: Number(row.s_days),
              main_diagnosis: icdLabel(lang, row.icd_code, row.icd_fr, row.icd_en),
              doctor: personRef(row.u_id, row.u_first, row.u_last)!,
              open_transfer: row.open_transfer,
            }
          : null,
    });
  }
  return [...wards.values()];
}

// The nurse's patients ---------------------------------------------------------------------------------------

interface NurseRow extends StayRow {
  v_at: Date | string | null;
  v_temperature: number | string | null;
  v_hr: number | null;
  v_rr: number | null;
  v_sys: number | null;
  v_dia: number | null;
  v_spo2: number | null;
  v_news2_score: number | null;
  v_news2: Record<string, unknown> | string | null;
}

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The stays in the wards a nurse looks after (the departments of her nurse memberships; all wards when one of
 * them has no department), with the latest set of the patient's one series of vitals (triage, consultation or
 * ward, with its NEWS2: care/vital-signs.repository, decision 0068) and what needs her eye; the highest NEWS2
 * first (issue 37), then by ward, room and bed.
 */
export async function nursePatients(
  q: Queryable,
  hospitalId: string,
  nurseId: string,
  includePending: boolean,
  lang: Lang,
  limit: number,
  offset: number,
): Promise<{ rows: TNursePatient[]; count: number }> {
  const scope = sql`exists (select 1 from memberships m where m.hospital_id = ${hospitalId}
      and m.user_id = ${nurseId} and m.is_active and upper(m.role_code) in ('NURSE', 'CHARGE_NURSE')
      and (m.department_id is null or m.department_id = coalesce(w.department_id, s.department_id)))`;
  const status = includePending ? sql`s.status in ('pending_bed', 'admitted')` : sql`s.status = 'admitted'`;
  const where = sql`s.hospital_id = ${hospitalId} and ${status} and ${scope}`;
  // The page of stays first (a materialised CTE: the stay, its bed, room and ward, what the scope and the order
  // read), then its lookups: two small join problems instead of one of nine tables, whose planning took twenty
  // times the statement's run (decision 0044). The count rides on the page (a window over the matching stays);
  // read apart only for a page past the end. The page comes back as one JSON value (a row per stay, in order):
  // one field to decode instead of some forty per stay, a third of the embedded engine's time for this read.
  const answer = await q.execute<{
    rows: (NurseRow & { total: number | string })[];
  }>(sql`with page as materialized (
      select s.id, s.status, s.reason, s.expected_days, s.requested_at, s.admitted_at, s.ended_at, s.patient_id,
        s.department_id, s.doctor_id, s.provisional_icd_code,
        b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name, w.id as w_id, w.code as w_code,
        w.name as w_name, count(*) over () as total,
        v.recorded_at as v_at, v.temperature as v_temperature, v.heart_rate as v_hr, v.respiratory_rate as v_rr,
        v.systolic_bp as v_sys, v.diastolic_bp as v_dia, v.spo2 as v_spo2, v.news2_score as v_news2_score,
        v.news2 as v_news2,
        row_number() over (order by v.news2_score desc nulls last, w.name nulls last, r.name nulls last,
          b.label nulls last, s.requested_at) as ord
      from hospitalizations s left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id
      left join wards w on w.id = r.ward_id
      left join lateral ${latestVitalsOf(hospitalId, sql`s.patient_id`)} v on true
      where ${where} order by ord limit ${limit} offset ${offset})
    select coalesce(json_agg(y order by y.ord), '[]'::json) as rows from (
    select x.ord, x.id, x.status::text as status, x.reason, x.expected_days, x.requested_at, x.admitted_at,
      x.ended_at, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}, u.id as u_id, u.first_name as u_first,
      u.last_name as u_last, x.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
      x.b_id, x.b_label, x.r_id, x.r_name, x.w_id, x.w_code, x.w_name,
      ((coalesce(x.ended_at, now()) at time zone ho.time_zone)::date
        - (x.requested_at at time zone ho.time_zone)::date + 1)::int as days,
      (select t.id from transfers t where t.hospitalization_id = x.id and t.status in ('requested', 'accepted')
        limit 1) as open_transfer, x.total,
      x.v_at, x.v_temperature, x.v_hr, x.v_rr, x.v_sys, x.v_dia, x.v_spo2, x.v_news2_score, x.v_news2
    from page x
    join hospitals ho on ho.id = ${hospitalId}
    join patients p on p.id = x.patient_id
    join departments d on d.id = x.department_id
    join users u on u.id = x.doctor_id
    left join icd10_codes i on i.code = x.provisional_icd_code) y`);
  const rows = answer.rows[0]?.rows ?? [];
  const first = rows[0];
  const count = first
    ? Number(first.total)
    : offset === 0
      ? 0
      : Number(
          (
            await q.execute<{ n: number }>(sql`select count(*)::int as n from hospitalizations s
      left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
      where ${where}`)
          ).rows[0]?.n ?? 0,
        );
  return {
    count,
    rows: rows.map((r) => {
      const stay = toStay(r, lang);
      const flags: TNursePatient['flags'] = [];
      if (stay.patient.allergies.length > 0) flags.push('allergies');
      if (stay.open_transfer) flags.push('transfer');
      if (stay.expected_days !== null && stay.days > stay.expected_days) flags.push('overstay');
      return {
        ...stay,
        latest_vitals: r.v_at
          ? {
              recorded_at: isoRequired(r.v_at),
              temperature: numberOrNull(r.v_temperature),
              heart_rate: numberOrNull(r.v_hr),
              respiratory_rate: numberOrNull(r.v_rr),
              systolic_bp: numberOrNull(r.v_sys),
              diastolic_bp: numberOrNull(r.v_dia),
              spo2: numberOrNull(r.v_spo2),
            }
          : null,
        news2: r.v_at
          ? news2SummaryOf({ news2_score: r.v_news2_score, news2: r.v_news2, recorded_at: r.v_at })
          : null,
        flags,
      };
    }),
  };
}

// Transfers --------------------------------------------------------------------------------------------------

interface TransferRow extends RefRow {
  id: string;
  hospital_id: string;
  kind: TTransfer['kind'];
  status: TTransfer['status'];
  hospitalization_id: string;
  to_d_id: string | null;
  to_d_code: string | null;
  to_d_name: string | null;
  to_d_kind: string | null;
  to_d_head: string | null;
  to_hospital_id: string | null;
  to_w_id: string | null;
  to_w_code: string | null;
  to_w_name: string | null;
  to_h_id: string | null;
  to_h_code: string | null;
  to_h_name: string | null;
  facility_name: string | null;
  reason: string;
  summary: string | null;
  treatments: string | null;
  rq_id: string;
  rq_first: string;
  rq_last: string;
  requested_at: Date | string;
  dc_id: string | null;
  dc_first: string | null;
  dc_last: string | null;
  decided_at: Date | string | null;
  reject_reason: string | null;
  completed_at: Date | string | null;
}

const TRANSFER_SELECT = sql`select t.id, t.hospital_id, t.kind::text as kind, t.status::text as status,
    t.hospitalization_id, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
    td.id as to_d_id, td.code as to_d_code, td.name as to_d_name, td.kind::text as to_d_kind,
    td.head_user_id as to_d_head, t.to_hospital_id,
    tw.id as to_w_id, tw.code as to_w_code, tw.name as to_w_name,
    th.id as to_h_id, th.code as to_h_code, th.name as to_h_name, t.facility_name, t.reason, t.summary,
    t.treatments, rq.id as rq_id, rq.first_name as rq_first, rq.last_name as rq_last, t.requested_at,
    dc.id as dc_id, dc.first_name as dc_first, dc.last_name as dc_last, t.decided_at, t.reject_reason,
    t.completed_at
  from transfers t
  join patients p on p.id = t.patient_id
  join departments d on d.id = t.from_department_id
  left join departments td on td.id = t.to_department_id
  left join wards tw on tw.id = t.to_ward_id
  left join hospitals th on th.id = t.to_hospital_id
  join users rq on rq.id = t.requested_by
  left join users dc on dc.id = t.decided_by`;

/** What decides who may take a transfer's next step (see TransferService). */
export interface TransferFacts {
  kind: TTransfer['kind'];
  status: TTransfer['status'];
  hospital_id: string;
  to_hospital_id: string | null;
  to_department_id: string | null;
  to_department_head: string | null;
}
export type TransferView = { transfer: Omit<TTransfer, 'can'>; facts: TransferFacts };

function toTransfer(r: TransferRow, hospitalId: string): TransferView {
  return {
    transfer: toTransferBody(r, hospitalId),
    facts: {
      kind: r.kind,
      status: r.status,
      hospital_id: r.hospital_id,
      to_hospital_id: r.to_hospital_id,
      to_department_id: r.to_d_id,
      to_department_head: r.to_d_head,
    },
  };
}

function toTransferBody(r: TransferRow, hospitalId: string): Omit<TTransfer, 'can'> {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    hospitalization: r.hospitalization_id,
    patient: patientRef(r),
    from_department: departmentRef(r),
    to_department: r.to_d_id
      ? { id: r.to_d_id, code: r.to_d_code ?? '', name: r.to_d_name ?? '', kind: r.to_d_kind ?? '' }
      : null,
    to_ward: r.to_w_id ? { id: r.to_w_id, code: r.to_w_code ?? '', name: r.to_w_name ?? '' } : null,
    to_hospital: r.to_h_id ? { id: r.to_h_id, code: r.to_h_code ?? '', name: r.to_h_name ?? '' } : null,
    facility_name: r.facility_name,
    incoming: r.hospital_id !== hospitalId,
    reason: r.reason,
    summary: r.summary,
    treatments: r.treatments,
    requested_by: personRef(r.rq_id, r.rq_first, r.rq_last)!,
    requested_at: isoRequired(r.requested_at),
    decided_by: personRef(r.dc_id, r.dc_first, r.dc_last),
    decided_at: iso(r.decided_at),
    reject_reason: r.reject_reason,
    completed_at: iso(r.completed_at),
  };
}

/** Transfers the hospital sent, or received from another hospital of the installation. */
const visibleTo = (hospitalId: string) =>
  sql`(t.hospital_id = ${hospitalId} or t.to_hospital_id = ${hospitalId})`;

export async function findTransfer(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<TransferRow>(
    sql`${TRANSFER_SELECT} where t.id = ${id} and ${visibleTo(hospitalId)}`,
  );
  return res.rows[0] ? toTransfer(res.rows[0], hospitalId) : null;
}

export async function listTransfers(
  q: Queryable,
  hospitalId: string,
  f: { status: string; direction: string; hospitalization?: string | undefined },
  limit: number,
  offset: number,
) {
  const parts: SQL[] = [];
  if (f.direction === 'incoming')
    parts.push(
      sql`(t.to_hospital_id = ${hospitalId} or (t.hospital_id = ${hospitalId} and t.kind = 'internal'))`,
    );
  else if (f.direction === 'outgoing') parts.push(sql`t.hospital_id = ${hospitalId}`);
  else parts.push(visibleTo(hospitalId));
  if (f.status === 'open') parts.push(sql`t.status in ('requested', 'accepted')`);
  else if (f.status !== 'all') parts.push(sql`t.status = ${f.status}`);
  if (f.hospitalization) parts.push(sql`t.hospitalization_id = ${f.hospitalization}`);
  const where = sql.join(parts, sql` and `);
  const rows = await q.execute<TransferRow>(
    sql`${TRANSFER_SELECT} where ${where} order by t.requested_at desc, t.id desc limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from transfers t where ${where}`,
  );
  return { rows: rows.rows.map((r) => toTransfer(r, hospitalId)), count: Number(counted.rows[0]?.n ?? 0) };
}

/** Locks a transfer visible to the hospital, with what its rules need. */
export async function lockTransfer(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    hospital_id: string;
    hospitalization_id: string;
    patient_id: string;
    kind: TTransfer['kind'];
    status: TTransfer['status'];
    from_department_id: string;
    to_department_id: string | null;
    to_ward_id: string | null;
    to_hospital_id: string | null;
    requested_by: string;
    summary: string | null;
    treatments: string | null;
    to_department_head: string | null;
  }>(sql`select t.id, t.hospital_id, t.hospitalization_id, t.patient_id, t.kind::text as kind,
      t.status::text as status, t.from_department_id, t.to_department_id, t.to_ward_id, t.to_hospital_id,
      t.requested_by, t.summary, t.treatments,
      (select head_user_id from departments where id = t.to_department_id) as to_department_head
    from transfers t where t.id = ${id} and ${visibleTo(hospitalId)} for update`);
  return res.rows[0] ?? null;
}
export type LockedTransfer = NonNullable<Awaited<ReturnType<typeof lockTransfer>>>;

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

/** Transfers of a stay still requested or accepted (a discharge waits for them). */
export async function openTransferCount(q: Queryable, stayId: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from transfers where hospitalization_id = ${stayId} and status in ('requested', 'accepted')`,
  );
  return Number(res.rows[0]?.n ?? 0);
}
