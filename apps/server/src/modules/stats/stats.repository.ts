/**
 * The reporting queries (issue 24, docs/decisions/0035-reporting.md). Every query is scoped to one hospital,
 * reads a period of calendar days in its time zone and an optional department, and is built with drizzle's
 * `sql` template only (values are parameters). The indexes they use are listed in the decision.
 */
import {
  AGE_GROUPS,
  IDSR_AGE_GROUPS,
  IDSR_DISEASES,
  type IdsrDisease,
  type TActivityStats,
  type TBillingStats,
  type TDashboardOverview,
  type TDiagnosisStats,
  type TFlowStats,
  type TInpatientStats,
  type TLaboratoryStats,
} from '@greensen/shared/contracts/stats';
import type { ConsultationAccessUser } from '@greensen/shared/domain/consultation-access';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { readableBy } from '../consultations/consultations.repository.js';

export interface Period {
  hospitalId: string;
  from: string;
  to: string;
  department: string | null;
  timeZone: string;
}

export type HospitalInfo = {
  id: string;
  code: string;
  name: string;
  time_zone: string;
};

export async function hospitalInfo(q: Queryable, hospitalId: string): Promise<HospitalInfo | null> {
  const res = await q.execute<HospitalInfo>(
    sql`select id, code, name, time_zone from hospitals where id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** The period's first instant (its first day's midnight in the hospital's zone). */
const start = (p: Period) => sql`((${p.from}::date)::timestamp at time zone ${p.timeZone})`;
/** The instant after the period (the midnight after its last day). */
const end = (p: Period) => sql`((${p.to}::date + 1)::timestamp at time zone ${p.timeZone})`;
/** `column` within the period. */
const within = (p: Period, column: SQL) => sql`${column} >= ${start(p)} and ${column} < ${end(p)}`;
const inDepartment = (p: Period, column: SQL) =>
  p.department ? sql`and ${column} = ${p.department}` : sql``;

/** The age group (pyramid) of a birth date at an instant. */
export function ageGroupSql(birthDate: SQL, at: SQL): SQL {
  return sql`case
    when ${birthDate} is null then 'unknown'
    when ${birthDate} > (${at})::date - interval '1 year' then '0-11m'
    when ${birthDate} > (${at})::date - interval '5 years' then '1-4'
    when ${birthDate} > (${at})::date - interval '15 years' then '5-14'
    when ${birthDate} > (${at})::date - interval '25 years' then '15-24'
    when ${birthDate} > (${at})::date - interval '50 years' then '25-49'
    when ${birthDate} > (${at})::date - interval '65 years' then '50-64'
    else '65+' end`;
}

/** The IDSR form's age groups (under 1, 1–4, 5–14, 15 and over). */
export function idsrAgeGroupSql(birthDate: SQL, at: SQL): SQL {
  return sql`case
    when ${birthDate} is null then 'unknown'
    when ${birthDate} > (${at})::date - interval '1 year' then '0-11m'
    when ${birthDate} > (${at})::date - interval '5 years' then '1-4'
    when ${birthDate} > (${at})::date - interval '15 years' then '5-14'
    else '15+' end`;
}

const n = (v: unknown) => Number(v ?? 0);
const avg = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

// Activity ---------------------------------------------------------------------------------------------------

export async function activityStats(q: Queryable, p: Period): Promise<Omit<TActivityStats, 'period'>> {
  const byDay = await q.execute<{ day: string; admission_type: string; n: number }>(sql`
    select ((a.admitted_at at time zone ${p.timeZone})::date)::text as day, a.admission_type, count(*)::int as n
    from admissions a
    where a.hospital_id = ${p.hospitalId} and ${within(p, sql`a.admitted_at`)} ${inDepartment(p, sql`a.department_id`)}
      and a.status <> 'cancelled'
    group by 1, 2 order by 1`);
  const days = new Map<string, TActivityStats['admissions_by_day'][number]>();
  for (const r of byDay.rows) {
    const row = days.get(r.day) ?? {
      day: r.day,
      outpatient: 0,
      emergency: 0,
      maternity: 0,
      inpatient: 0,
      total: 0,
    };
    const type = r.admission_type as 'outpatient' | 'emergency' | 'maternity' | 'inpatient';
    row[type] += n(r.n);
    row.total += n(r.n);
    days.set(r.day, row);
  }

  const doctors = await q.execute<{
    id: string;
    first_name: string;
    last_name: string;
    n: number;
    completed: number;
  }>(sql`
    select u.id, u.first_name, u.last_name, count(*)::int as n,
      count(*) filter (where c.status = 'completed')::int as completed
    from consultations c join users u on u.id = c.doctor_id
    where c.hospital_id = ${p.hospitalId} and ${within(p, sql`c.started_at`)} ${inDepartment(p, sql`c.department_id`)}
      and c.status <> 'cancelled'
    group by u.id, u.first_name, u.last_name order by n desc, u.last_name`);

  // Patients with a visit in the period; new when they had no visit before it (in this hospital).
  const patients = await q.execute<{ new: number; returning: number }>(sql`
    with seen as (
      select distinct a.patient_id from admissions a
      where a.hospital_id = ${p.hospitalId} and ${within(p, sql`a.admitted_at`)} ${inDepartment(p, sql`a.department_id`)}
        and a.status <> 'cancelled')
    select
      count(*) filter (where not exists (select 1 from admissions b where b.patient_id = seen.patient_id
        and b.hospital_id = ${p.hospitalId} and b.admitted_at < ${start(p)} and b.status <> 'cancelled'))::int as new,
      count(*) filter (where exists (select 1 from admissions b where b.patient_id = seen.patient_id
        and b.hospital_id = ${p.hospitalId} and b.admitted_at < ${start(p)} and b.status <> 'cancelled'))::int as returning
    from seen`);

  const pyramid = await q.execute<{ age_group: string; sex: 'F' | 'M'; n: number }>(sql`
    with seen as (
      select a.patient_id, min(a.admitted_at) as at from admissions a
      where a.hospital_id = ${p.hospitalId} and ${within(p, sql`a.admitted_at`)} ${inDepartment(p, sql`a.department_id`)}
        and a.status <> 'cancelled'
      group by a.patient_id)
    select ${ageGroupSql(sql`pt.birth_date`, sql`seen.at`)} as age_group, pt.sex, count(*)::int as n
    from seen join patients pt on pt.id = seen.patient_id
    group by 1, 2`);
  const groups = new Map(AGE_GROUPS.map((g) => [g, { age_group: g, F: 0, M: 0 }]));
  for (const r of pyramid.rows) {
    const g = groups.get(r.age_group as (typeof AGE_GROUPS)[number]);
    if (g) g[r.sex] += n(r.n);
  }

  return {
    admissions_by_day: [...days.values()],
    consultations_by_doctor: doctors.rows.map((r) => ({
      doctor: { id: r.id, full_name: fullName(r.first_name, r.last_name) },
      consultations: n(r.n),
      completed: n(r.completed),
    })),
    patients: { new: n(patients.rows[0]?.new), returning: n(patients.rows[0]?.returning) },
    pyramid: [...groups.values()],
  };
}

// Flow -------------------------------------------------------------------------------------------------------

export async function flowStats(q: Queryable, p: Period): Promise<Omit<TFlowStats, 'period'>> {
  const res = await q.execute<{
    level: string | null;
    rank: number | null;
    target: number | null;
    visits: number;
    seen: number;
    to_triage: string | null;
    to_doctor: string | null;
    doctor_to_end: string | null;
    within_target: number;
  }>(sql`
    with visits as (
      select a.id, a.admitted_at, a.triage_level, a.triage_rank, a.triage_target_minutes, a.closed_at,
        (select min(t.recorded_at) from triage_records t where t.admission_id = a.id) as triaged_at,
        (select min(c.started_at) from consultations c where c.admission_id = a.id and c.status <> 'cancelled') as doctor_at,
        (select max(c.completed_at) from consultations c where c.admission_id = a.id and c.status = 'completed') as ended_at
      from admissions a
      where a.hospital_id = ${p.hospitalId} and ${within(p, sql`a.admitted_at`)} ${inDepartment(p, sql`a.department_id`)}
        and a.status <> 'cancelled')
    select triage_level as level, min(triage_rank)::int as rank, max(triage_target_minutes)::int as target,
      count(*)::int as visits,
      count(doctor_at)::int as seen,
      avg(extract(epoch from (triaged_at - admitted_at)) / 60) as to_triage,
      avg(extract(epoch from (doctor_at - admitted_at)) / 60) as to_doctor,
      avg(extract(epoch from (ended_at - doctor_at)) / 60) as doctor_to_end,
      count(*) filter (where doctor_at is not null and triage_target_minutes is not null
        and doctor_at - admitted_at <= make_interval(mins => triage_target_minutes))::int as within_target
    from visits
    group by triage_level
    order by min(triage_rank) nulls last`);
  return {
    levels: res.rows.map((r) => ({
      level: r.level,
      target_minutes: r.target === null ? null : n(r.target),
      visits: n(r.visits),
      seen: n(r.seen),
      arrival_to_triage: avg(r.to_triage),
      arrival_to_doctor: avg(r.to_doctor),
      doctor_to_end: avg(r.doctor_to_end),
      within_target: n(r.within_target),
    })),
  };
}

// Diagnoses --------------------------------------------------------------------------------------------------

/** The active diagnoses of the period's consultations (not cancelled), as a FROM clause aliased dg/c/pt. */
const diagnosesFrom = (p: Period, joins: SQL = sql``) => sql`consultation_diagnoses dg
  join consultations c on c.id = dg.consultation_id
  join patients pt on pt.id = dg.patient_id ${joins}
  where dg.hospital_id = ${p.hospitalId} and dg.removed_at is null and dg.coded
    and c.hospital_id = ${p.hospitalId} and c.status <> 'cancelled'
    and ${within(p, sql`c.started_at`)} ${inDepartment(p, sql`c.department_id`)}`;

/** The condition selecting one IDSR disease's diagnoses (alias dg). */
export function diseaseCondition(key: IdsrDisease): SQL {
  const disease = IDSR_DISEASES.find((d) => d.key === key)!;
  const prefixes = disease.prefixes.map((prefix) => sql`dg.icd_code like ${`${prefix}%`}`);
  const certainty = disease.certainty ? sql` and dg.certainty = ${disease.certainty}` : sql``;
  return sql`(${sql.join(prefixes, sql` or `)})${certainty}`;
}

export async function diagnosisStats(
  q: Queryable,
  p: Period,
  lang: 'fr' | 'en',
): Promise<Omit<TDiagnosisStats, 'period'>> {
  const label = lang === 'en' ? sql.raw('label_en') : sql.raw('label_fr');
  const top = await q.execute<{ code: string; label: string | null; n: number }>(sql`
    with counted as (select dg.icd_code as code, count(distinct dg.consultation_id)::int as n
      from ${diagnosesFrom(p)} group by dg.icd_code order by n desc, dg.icd_code limit 20)
    select counted.code, i.${label} as label, counted.n from counted
    left join icd10_codes i on i.code = counted.code order by counted.n desc, counted.code`);
  const chapters = await q.execute<{ chapter: string | null; label: string | null; n: number }>(sql`
    with counted as (select i.chapter, count(distinct dg.consultation_id)::int as n
      from ${diagnosesFrom(p, sql`join icd10_codes i on i.code = dg.icd_code`)}
      group by i.chapter)
    select counted.chapter, ch.${label} as label, counted.n from counted
    left join icd10_codes ch on ch.code = counted.chapter and ch.kind = 'chapter'
    order by counted.n desc, counted.chapter`);
  const age = idsrAgeGroupSql(sql`pt.birth_date`, sql`c.started_at at time zone ${p.timeZone}`);
  const cases = sql.join(
    IDSR_DISEASES.map((d) => sql`when ${diseaseCondition(d.key)} then ${d.key}`),
    sql` `,
  );
  const idsr = await q.execute<{ disease: IdsrDisease; age_group: string; n: number }>(sql`
    select disease, age_group, count(distinct consultation_id)::int as n from (
      select case ${cases} end as disease, ${age} as age_group, dg.consultation_id
      from ${diagnosesFrom(p)}
        and (${sql.join(
          IDSR_DISEASES.flatMap((d) => d.prefixes).map((prefix) => sql`dg.icd_code like ${`${prefix}%`}`),
          sql` or `,
        )})) x
    where disease is not null
    group by disease, age_group`);
  const byDisease = new Map(
    IDSR_DISEASES.map((d) => [
      d.key,
      {
        disease: d.key,
        total: 0,
        by_age: Object.fromEntries(IDSR_AGE_GROUPS.map((g) => [g, 0])) as Record<
          (typeof IDSR_AGE_GROUPS)[number],
          number
        >,
      },
    ]),
  );
  for (const r of idsr.rows) {
    const d = byDisease.get(r.disease);
    if (!d) continue;
    d.by_age[r.age_group as (typeof IDSR_AGE_GROUPS)[number]] += n(r.n);
    d.total += n(r.n);
  }
  return {
    top_codes: top.rows.map((r) => ({ code: r.code, label: r.label ?? r.code, count: n(r.n) })),
    chapters: chapters.rows.map((r) => ({
      chapter: r.chapter ?? '?',
      label: r.label ?? r.chapter ?? '?',
      count: n(r.n),
    })),
    idsr: [...byDisease.values()],
  };
}

// Laboratory -------------------------------------------------------------------------------------------------

/** The catalogue codes of the malaria tests (rapid test, thick and thin smear). */
export const MALARIA_TESTS = ['TDR-PALU', 'GE'] as const;

export async function laboratoryStats(
  q: Queryable,
  p: Period,
  lang: 'fr' | 'en',
): Promise<Omit<TLaboratoryStats, 'period'>> {
  const name = lang === 'en' ? sql.raw('ec.name_en') : sql.raw('ec.name_fr');
  const res = await q.execute<{
    code: string;
    name: string;
    kind: 'lab' | 'imaging';
    requested: number;
    validated: number;
    cancelled: number;
    turnaround: string | null;
  }>(sql`
    select ec.code, ${name} as name, ec.kind, count(*)::int as requested,
      count(*) filter (where e.status = 'validated')::int as validated,
      count(*) filter (where e.status = 'cancelled')::int as cancelled,
      avg(extract(epoch from (e.validated_at - e.requested_at)) / 60) filter (where e.status = 'validated') as turnaround
    from exam_orders e join exam_catalogue ec on ec.id = e.exam_id
    where e.hospital_id = ${p.hospitalId} and ${within(p, sql`e.requested_at`)} ${inDepartment(p, sql`e.department_id`)}
    group by ec.code, ${name}, ec.kind order by requested desc, ec.code`);
  const malaria = await q.execute<{ tested: number; positive: number }>(sql`
    select count(*)::int as tested, count(*) filter (where e.abnormal)::int as positive
    from exam_orders e join exam_catalogue ec on ec.id = e.exam_id
    where e.hospital_id = ${p.hospitalId} and ${within(p, sql`e.requested_at`)} ${inDepartment(p, sql`e.department_id`)}
      and e.status = 'validated' and ec.code in (${sqlList(MALARIA_TESTS)})`);
  return {
    exams: res.rows.map((r) => ({
      code: r.code,
      name: r.name,
      kind: r.kind,
      requested: n(r.requested),
      validated: n(r.validated),
      cancelled: n(r.cancelled),
      turnaround_minutes: avg(r.turnaround),
    })),
    malaria: { tested: n(malaria.rows[0]?.tested), positive: n(malaria.rows[0]?.positive) },
  };
}

// Inpatient --------------------------------------------------------------------------------------------------

export async function inpatientStats(q: Queryable, p: Period): Promise<Omit<TInpatientStats, 'period'>> {
  const stays = await q.execute<{ admissions: number }>(sql`
    select count(*)::int as admissions from hospitalizations s
    where s.hospital_id = ${p.hospitalId} and s.admitted_at is not null
      and ${within(p, sql`s.admitted_at`)} ${inDepartment(p, sql`s.department_id`)}`);
  const ended = await q.execute<{ mode: string; n: number; days: string | null }>(sql`
    select s.discharge_mode::text as mode, count(*)::int as n,
      sum(extract(epoch from (s.ended_at - coalesce(s.admitted_at, s.requested_at))) / 86400) as days
    from hospitalizations s
    where s.hospital_id = ${p.hospitalId} and s.ended_at is not null
      and ${within(p, sql`s.ended_at`)} ${inDepartment(p, sql`s.department_id`)}
    group by s.discharge_mode order by n desc`);
  const beds = await q.execute<{ n: number }>(sql`
    select count(*)::int as n from beds b
    join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
    where b.hospital_id = ${p.hospitalId} and b.is_active ${inDepartment(p, sql`w.department_id`)}`);
  // Bed-days: the part of each bed assignment inside the period.
  const occupied = await q.execute<{ days: string | null }>(sql`
    select sum(extract(epoch from (least(coalesce(ba.ended_at, now()), ${end(p)}, now())
        - greatest(ba.started_at, ${start(p)}))) / 86400) as days
    from bed_assignments ba join hospitalizations s on s.id = ba.hospitalization_id
    where s.hospital_id = ${p.hospitalId} ${inDepartment(p, sql`s.department_id`)}
      and ba.started_at < ${end(p)} and (ba.ended_at is null or ba.ended_at > ${start(p)})
      and ba.started_at < now()`);
  const available = await q.execute<{ days: string }>(sql`
    select greatest(extract(epoch from (least(${end(p)}, now()) - ${start(p)})) / 86400, 0) as days`);
  let discharges = 0;
  let deaths = 0;
  let days = 0;
  for (const r of ended.rows) {
    discharges += n(r.n);
    days += Number(r.days ?? 0);
    if (r.mode === 'deceased') deaths += n(r.n);
  }
  const bedCount = n(beds.rows[0]?.n);
  const occupiedDays = Math.round(Number(occupied.rows[0]?.days ?? 0) * 10) / 10;
  const availableDays = bedCount * Number(available.rows[0]?.days ?? 0);
  return {
    admissions: n(stays.rows[0]?.admissions),
    discharges,
    deaths,
    average_length_of_stay: discharges > 0 ? Math.round((days / discharges) * 10) / 10 : null,
    beds: bedCount,
    occupied_bed_days: occupiedDays,
    occupancy: availableDays > 0 ? Math.round((occupiedDays / availableDays) * 1000) / 10 : null,
    discharges_by_mode: ended.rows.map((r) => ({ mode: r.mode, count: n(r.n) })),
  };
}

// Billing ----------------------------------------------------------------------------------------------------

export async function billingStats(q: Queryable, p: Period): Promise<Omit<TBillingStats, 'period'>> {
  const methods = await q.execute<{ method: string; currency: string; amount: string; n: number }>(sql`
    select pm.method::text as method, pm.currency, sum(pm.amount)::text as amount, count(*)::int as n
    from payments pm
    where pm.hospital_id = ${p.hospitalId} and ${within(p, sql`pm.received_at`)}
    group by pm.method, pm.currency order by pm.method, pm.currency`);
  const payers = await q.execute<{
    payer_category: string;
    currency: string;
    n: number;
    total: string;
    payer_share: string;
    patient_share: string;
  }>(sql`
    select i.payer_category::text as payer_category, i.currency, count(*)::int as n,
      sum(i.total)::text as total, sum(i.payer_share)::text as payer_share, sum(i.patient_share)::text as patient_share
    from invoices i
    where i.hospital_id = ${p.hospitalId} and i.status = 'issued' and i.kind = 'invoice'
      and ${within(p, sql`i.issued_at`)}
    group by i.payer_category, i.currency order by i.payer_category, i.currency`);
  return {
    by_method: methods.rows.map((r) => ({
      method: r.method,
      currency: r.currency,
      amount: r.amount,
      count: n(r.n),
    })),
    by_payer: payers.rows.map((r) => ({
      payer_category: r.payer_category,
      currency: r.currency,
      invoices: n(r.n),
      total: r.total,
      payer_share: r.payer_share,
      patient_share: r.patient_share,
    })),
  };
}

// Drill-down -------------------------------------------------------------------------------------------------

export interface DrilldownFilter {
  disease?: IdsrDisease | undefined;
  code?: string | undefined;
  ageGroup?: string | undefined;
}

export async function drilldown(
  q: Queryable,
  p: Period,
  user: ConsultationAccessUser,
  f: DrilldownFilter,
  limit: number,
  offset: number,
) {
  const target = f.disease ? diseaseCondition(f.disease) : sql`dg.icd_code like ${`${f.code}%`}`;
  const age = idsrAgeGroupSql(sql`pt.birth_date`, sql`c.started_at at time zone ${p.timeZone}`);
  const ageCond = f.ageGroup ? sql`and ${age} = ${f.ageGroup}` : sql``;
  // The consultations list's own rule (readableBy, aliases c and a): the drill-down never shows more.
  const from = sql`consultation_diagnoses dg
    join consultations c on c.id = dg.consultation_id
    left join admissions a on a.id = c.admission_id
    join patients pt on pt.id = dg.patient_id
    join users u on u.id = c.doctor_id
    join departments d on d.id = c.department_id
    where dg.hospital_id = ${p.hospitalId} and dg.removed_at is null and dg.coded
      and c.hospital_id = ${p.hospitalId} and c.status <> 'cancelled'
      and ${within(p, sql`c.started_at`)} ${inDepartment(p, sql`c.department_id`)}
      and ${target} ${ageCond} and ${readableBy(user)}`;
  const rows = await q.execute<{
    consultation: string;
    started_at: Date | string;
    status: string;
    patient_id: string;
    record_number: string;
    first_name: string;
    last_name: string;
    age_group: string;
    doctor_id: string;
    doctor_first: string;
    doctor_last: string;
    department_id: string;
    department_name: string;
    code: string;
    label: string;
    certainty: string;
  }>(sql`
    select distinct on (c.started_at, c.id) c.id as consultation, c.started_at, c.status::text as status,
      pt.id as patient_id, pt.record_number, pt.first_name, pt.last_name, ${age} as age_group,
      u.id as doctor_id, u.first_name as doctor_first, u.last_name as doctor_last,
      d.id as department_id, d.name as department_name,
      dg.icd_code as code, dg.label, dg.certainty::text as certainty
    from ${from}
    order by c.started_at desc, c.id desc, dg.rank
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(sql`select count(distinct c.id)::int as n from ${from}`);
  return {
    count: n(counted.rows[0]?.n),
    rows: rows.rows.map((r) => ({
      consultation: r.consultation,
      started_at: new Date(r.started_at).toISOString(),
      status: r.status,
      patient: {
        id: r.patient_id,
        record_number: r.record_number,
        full_name: fullName(r.first_name, r.last_name),
        age_group: r.age_group,
      },
      doctor: { id: r.doctor_id, full_name: fullName(r.doctor_first, r.doctor_last) },
      department: { id: r.department_id, name: r.department_name },
      diagnosis: { code: r.code, label: r.label, certainty: r.certainty },
    })),
  };
}

// The Hospital Overview (today) -------------------------------------------------------------------------------

export async function overview(
  q: Queryable,
  hospitalId: string,
  timeZone: string,
): Promise<Omit<TDashboardOverview, 'generated_at'>> {
  const midnight = sql`(((now() at time zone ${timeZone})::date)::timestamp at time zone ${timeZone})`;
  const today = await q.execute<{
    admission_type: string;
    n: number;
    waiting: number;
    in_consultation: number;
    completed: number;
  }>(sql`
    select a.admission_type::text as admission_type, count(*)::int as n,
      count(*) filter (where a.status in ('waiting', 'assigned'))::int as waiting,
      count(*) filter (where a.status = 'in_consultation')::int as in_consultation,
      count(*) filter (where a.status = 'completed')::int as completed
    from admissions a
    where a.hospital_id = ${hospitalId} and a.admitted_at >= ${midnight} and a.status <> 'cancelled'
    group by a.admission_type`);
  const byType = { outpatient: 0, emergency: 0, maternity: 0, inpatient: 0 };
  let admissions = 0;
  for (const r of today.rows) {
    byType[r.admission_type as keyof typeof byType] = n(r.n);
    admissions += n(r.n);
  }
  // The waiting room: every visit still waiting (whatever its day), by its triage level.
  const waiting = await q.execute<{
    level: string | null;
    target: number | null;
    n: number;
    longest: number;
    average: number;
    over: number;
  }>(sql`
    select a.triage_level as level, max(a.triage_target_minutes)::int as target, count(*)::int as n,
      floor(max(extract(epoch from (now() - a.admitted_at)) / 60))::int as longest,
      floor(avg(extract(epoch from (now() - a.admitted_at)) / 60))::int as average,
      count(*) filter (where a.triage_target_minutes is not null
        and now() - a.admitted_at > make_interval(mins => a.triage_target_minutes))::int as over
    from admissions a
    where a.hospital_id = ${hospitalId} and a.status in ('waiting', 'assigned')
    group by a.triage_level order by min(a.triage_rank) nulls last`);
  const waitingTotal = waiting.rows.reduce((s, r) => s + n(r.n), 0);
  const consultations = await q.execute<{ n: number }>(sql`
    select count(*)::int as n from consultations c
    where c.hospital_id = ${hospitalId} and c.status = 'completed' and c.completed_at >= ${midnight}`);
  const inConsultation = await q.execute<{ n: number }>(sql`
    select count(*)::int as n from admissions a where a.hospital_id = ${hospitalId} and a.status = 'in_consultation'`);
  const outpatient = await q.execute<{
    id: string;
    name: string;
    n: number;
    waiting: number;
    in_consultation: number;
    completed: number;
  }>(sql`
    select d.id, d.name, count(*)::int as n,
      count(*) filter (where a.status in ('waiting', 'assigned'))::int as waiting,
      count(*) filter (where a.status = 'in_consultation')::int as in_consultation,
      count(*) filter (where a.status = 'completed')::int as completed
    from admissions a join departments d on d.id = a.department_id
    where a.hospital_id = ${hospitalId} and a.admitted_at >= ${midnight} and a.status <> 'cancelled'
    group by d.id, d.name order by n desc, d.name`);
  const stays = await q.execute<{
    id: string;
    name: string;
    census: number;
    pending: number;
    admitted_today: number;
  }>(sql`
    select d.id, d.name,
      count(*) filter (where s.status = 'admitted')::int as census,
      count(*) filter (where s.status = 'pending_bed')::int as pending,
      count(*) filter (where s.admitted_at >= ${midnight})::int as admitted_today
    from hospitalizations s join departments d on d.id = s.department_id
    where s.hospital_id = ${hospitalId} and s.status in ('pending_bed', 'admitted')
    group by d.id, d.name order by census desc, d.name`);
  const beds = await q.execute<{ total: number; occupied: number; free: number }>(sql`
    select count(*)::int as total, count(*) filter (where b.status = 'occupied')::int as occupied,
      count(*) filter (where b.status = 'free')::int as free
    from beds b where b.hospital_id = ${hospitalId} and b.is_active`);
  const discharged = await q.execute<{ mode: string; n: number }>(sql`
    select s.discharge_mode::text as mode, count(*)::int as n from hospitalizations s
    where s.hospital_id = ${hospitalId} and s.ended_at >= ${midnight} and s.discharge_mode is not null
    group by s.discharge_mode order by n desc`);
  const urgent = await q.execute<{ n: number }>(sql`
    select count(*)::int as n from exam_orders e
    where e.hospital_id = ${hospitalId} and e.status = 'validated' and e.urgency = 'urgent' and e.abnormal
      and e.acknowledged_at is null`);

  const census = stays.rows.reduce((s, r) => s + n(r.census), 0);
  const pending = stays.rows.reduce((s, r) => s + n(r.pending), 0);
  const over = waiting.rows.reduce((s, r) => s + n(r.over), 0);
  const dischargedToday = discharged.rows.reduce((s, r) => s + n(r.n), 0);
  const bedRow = beds.rows[0];
  const alerts: TDashboardOverview['alerts'] = [];
  if (over > 0) alerts.push({ kind: 'wait_over_target', count: over });
  if (pending > 0) alerts.push({ kind: 'pending_bed', count: pending });
  if (n(urgent.rows[0]?.n) > 0) alerts.push({ kind: 'urgent_results', count: n(urgent.rows[0]?.n) });
  if (n(bedRow?.total) > 0 && n(bedRow?.free) === 0) alerts.push({ kind: 'no_free_bed', count: 0 });

  return {
    today: {
      admissions,
      by_type: byType,
      waiting: waitingTotal,
      in_consultation: n(inConsultation.rows[0]?.n),
      consultations_completed: n(consultations.rows[0]?.n),
      hospitalized: census,
      discharged: dischargedToday,
      deaths: n(discharged.rows.find((r) => r.mode === 'deceased')?.n),
    },
    alerts,
    waiting: waiting.rows.map((r) => ({
      level: r.level,
      target_minutes: r.target === null ? null : n(r.target),
      count: n(r.n),
      longest_minutes: n(r.longest),
      average_minutes: n(r.average),
      over_target: n(r.over),
    })),
    outpatient: outpatient.rows.map((r) => ({
      department: { id: r.id, name: r.name },
      admissions: n(r.n),
      waiting: n(r.waiting),
      in_consultation: n(r.in_consultation),
      completed: n(r.completed),
    })),
    inpatient: {
      beds: n(bedRow?.total),
      occupied: n(bedRow?.occupied),
      pending_bed: pending,
      by_department: stays.rows.map((r) => ({
        department: { id: r.id, name: r.name },
        census: n(r.census),
        pending_bed: n(r.pending),
        admitted_today: n(r.admitted_today),
      })),
    },
    discharged: discharged.rows.map((r) => ({ mode: r.mode, count: n(r.n) })),
  };
}
