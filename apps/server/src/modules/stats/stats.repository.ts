/**
 * The reporting queries (issue 24, docs/decisions/0035-reporting.md, 0038-reporting-summaries.md). Activity, flow,
 * diagnoses, laboratory and pharmacy read the summary tables (summaries.repository.ts: month rows for whole
 * months, day rows around them); inpatient and billing read their raw tables through their indexes; the
 * drill-down reads the raw tables of one hospital, as the Hospital Overview does (overview.repository.ts). Every
 * query is scoped to the hospitals of the period and built with drizzle's `sql` template only (values are
 * parameters).
 */
import {
  AGE_GROUPS,
  IDSR_AGE_GROUPS,
  IDSR_DISEASES,
  type IdsrDisease,
  type TActivityStats,
  type TBillingStats,
  type TDiagnosisStats,
  type TFlowStats,
  type TInpatientStats,
  type TLaboratoryStats,
  type TPharmacyStats,
} from '@greensen/shared/contracts/stats';
import type { ConsultationAccessUser } from '@greensen/shared/domain/consultation-access';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { readableBy } from '../consultations/consultations.repository.js';
import { diseaseCondition, idsrAgeGroupSql } from './stats.sql.js';
import { histogramMedian, type SummaryPeriod, summaryWhere } from './summaries.repository.js';

/** A period of calendar days (each hospital's own days), one or several hospitals, an optional department. */
export type Period = SummaryPeriod;

export type HospitalInfo = {
  id: string;
  code: string;
  name: string;
  time_zone: string;
};

export async function hospitalsInfo(q: Queryable, ids: readonly string[]): Promise<HospitalInfo[]> {
  const res = await q.execute<HospitalInfo>(
    sql`select id, code, name, time_zone from hospitals where id in (${sqlList(ids)}) order by name, id`,
  );
  return res.rows;
}

/** The period's first instant in a zone (its first day's midnight). */
const start = (p: Period, tz: SQL) => sql`((${p.from}::date)::timestamp at time zone ${tz})`;
/** The instant after the period in a zone (the midnight after its last day). */
const end = (p: Period, tz: SQL) => sql`((${p.to}::date + 1)::timestamp at time zone ${tz})`;
/** `column` within the period, in the zone of the hospital joined as `hz` unless another zone is given. */
const within = (p: Period, column: SQL, tz: SQL = sql`hz.time_zone`) =>
  sql`${column} >= ${start(p, tz)} and ${column} < ${end(p, tz)}`;
const inDepartment = (p: Period, column: SQL) =>
  p.department ? sql`and ${column} = ${p.department}` : sql``;
const inHospitals = (p: Period, column: SQL) => sql`${column} in (${sqlList(p.hospitalIds)})`;

const n = (v: unknown) => Number(v ?? 0);
const avg = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
const ratio = (sum: unknown, count: unknown) => (n(count) > 0 ? avg(Number(sum) / n(count)) : null);

// Activity ---------------------------------------------------------------------------------------------------

export async function activityStats(q: Queryable, p: Period): Promise<Omit<TActivityStats, 'period'>> {
  const byDay = await q.execute<{ day: string; admission_type: string; n: number }>(sql`
    select s.day::text as day, s.admission_type, sum(s.visits)::int as n
    from stats_daily_visits s where ${summaryWhere(p, true)}
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
    with d as (select s.doctor_id, sum(s.consultations)::int as n, sum(s.completed)::int as completed
      from stats_daily_doctors s where ${summaryWhere(p)} group by s.doctor_id)
    select u.id, u.first_name, u.last_name, d.n, d.completed
    from d join users u on u.id = d.doctor_id where d.n > 0 order by d.n desc, u.last_name, u.id`);

  // Visits of a patient's first time in the hospital (new) or not (returning): attendances, as DHIS2 counts them.
  const patients = await q.execute<{ new: number; returning: number }>(sql`
    select coalesce(sum(s.new_visits), 0)::int as new, coalesce(sum(s.visits - s.new_visits), 0)::int as returning
    from stats_daily_visits s where ${summaryWhere(p)}`);

  const pyramid = await q.execute<{ age_group: string; sex: 'F' | 'M'; n: number }>(sql`
    select s.age_group, s.sex, sum(s.visits)::int as n
    from stats_daily_pyramid s where ${summaryWhere(p)} group by 1, 2`);
  const groups = new Map(AGE_GROUPS.map((g) => [g, { age_group: g, F: 0, M: 0 }]));
  for (const r of pyramid.rows) {
    const g = groups.get(r.age_group as (typeof AGE_GROUPS)[number]);
    if (g && (r.sex === 'F' || r.sex === 'M')) g[r.sex] += n(r.n);
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

const WAIT_MEASURES = ['triage', 'doctor', 'end'] as const;

export async function flowStats(q: Queryable, p: Period): Promise<Omit<TFlowStats, 'period'>> {
  const res = await q.execute<{
    level: string | null;
    rank: number | null;
    target: number | null;
    visits: number;
    seen: number;
    within_target: number;
    triage_sum: number;
    triage_n: number;
    doctor_sum: number;
    doctor_n: number;
    end_sum: number;
    end_n: number;
  }>(sql`
    select s.level, min(s.rank)::int as rank, max(s.target)::int as target, sum(s.visits)::int as visits,
      sum(s.seen)::int as seen, sum(s.within_target)::int as within_target,
      sum(s.triage_sum) as triage_sum, sum(s.triage_n)::int as triage_n, sum(s.doctor_sum) as doctor_sum,
      sum(s.doctor_n)::int as doctor_n, sum(s.end_sum) as end_sum, sum(s.end_n)::int as end_n
    from stats_daily_flow s where ${summaryWhere(p)}
    group by s.level
    order by min(s.rank) nulls last, s.level`);
  const waits = await q.execute<{ level: string | null; measure: string; bucket: number; n: number }>(sql`
    select s.level, s.measure, s.bucket, sum(s.n)::int as n
    from stats_daily_waits s where ${summaryWhere(p)} group by 1, 2, 3`);
  const histograms = new Map<string, Map<number, number>>();
  for (const w of waits.rows) {
    const key = `${w.level ?? ''}\u0000${w.measure}`;
    const h = histograms.get(key) ?? new Map<number, number>();
    h.set(n(w.bucket), (h.get(n(w.bucket)) ?? 0) + n(w.n));
    histograms.set(key, h);
  }
  const median = (level: string | null, measure: (typeof WAIT_MEASURES)[number]) =>
    histogramMedian(histograms.get(`${level ?? ''}\u0000${measure}`) ?? new Map());
  return {
    levels: res.rows
      .filter((r) => n(r.visits) > 0)
      .map((r) => ({
        level: r.level,
        target_minutes: r.target === null ? null : n(r.target),
        visits: n(r.visits),
        seen: n(r.seen),
        arrival_to_triage: ratio(r.triage_sum, r.triage_n),
        arrival_to_doctor: ratio(r.doctor_sum, r.doctor_n),
        doctor_to_end: ratio(r.end_sum, r.end_n),
        median_arrival_to_triage: median(r.level, 'triage'),
        median_arrival_to_doctor: median(r.level, 'doctor'),
        median_doctor_to_end: median(r.level, 'end'),
        within_target: n(r.within_target),
      })),
  };
}

// Diagnoses --------------------------------------------------------------------------------------------------

export async function diagnosisStats(
  q: Queryable,
  p: Period,
  lang: 'fr' | 'en',
): Promise<Omit<TDiagnosisStats, 'period'>> {
  const label = lang === 'en' ? sql.raw('label_en') : sql.raw('label_fr');
  const top = await q.execute<{ code: string; label: string | null; n: number }>(sql`
    with counted as (select s.key as code, sum(s.consultations)::int as n
      from stats_daily_diagnoses s where ${summaryWhere(p)} and s.kind = 'code'
      group by s.key order by n desc, s.key limit 20)
    select counted.code, i.${label} as label, counted.n from counted
    left join icd10_codes i on i.code = counted.code where counted.n > 0 order by counted.n desc, counted.code`);
  const chapters = await q.execute<{ chapter: string; label: string | null; n: number }>(sql`
    with counted as (select s.key as chapter, sum(s.consultations)::int as n
      from stats_daily_diagnoses s where ${summaryWhere(p)} and s.kind = 'chapter' group by s.key)
    select counted.chapter, ch.${label} as label, counted.n from counted
    left join icd10_codes ch on ch.code = counted.chapter and ch.kind = 'chapter'
    where counted.n > 0 order by counted.n desc, counted.chapter`);
  const idsr = await q.execute<{ disease: IdsrDisease; age_group: string; n: number }>(sql`
    select s.key as disease, s.age_group, sum(s.consultations)::int as n
    from stats_daily_diagnoses s where ${summaryWhere(p)} and s.kind = 'idsr' group by 1, 2`);
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
      chapter: r.chapter,
      label: r.label ?? r.chapter,
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
    positive: number;
    turnaround: number;
  }>(sql`
    with e as (select s.exam_id, sum(s.requested)::int as requested, sum(s.validated)::int as validated,
        sum(s.cancelled)::int as cancelled, sum(s.positive)::int as positive, sum(s.turnaround_sum) as turnaround
      from stats_daily_exams s where ${summaryWhere(p)} group by s.exam_id)
    select ec.code, ${name} as name, ec.kind, sum(e.requested)::int as requested, sum(e.validated)::int as validated,
      sum(e.cancelled)::int as cancelled, sum(e.positive)::int as positive, sum(e.turnaround) as turnaround
    from e join exam_catalogue ec on ec.id = e.exam_id
    where e.requested > 0
    group by ec.code, ${name}, ec.kind order by requested desc, ec.code`);
  const malaria = res.rows.filter((r) => (MALARIA_TESTS as readonly string[]).includes(r.code));
  return {
    exams: res.rows.map((r) => ({
      code: r.code,
      name: r.name,
      kind: r.kind,
      requested: n(r.requested),
      validated: n(r.validated),
      cancelled: n(r.cancelled),
      turnaround_minutes: ratio(r.turnaround, r.validated),
    })),
    malaria: {
      tested: malaria.reduce((s, r) => s + n(r.validated), 0),
      positive: malaria.reduce((s, r) => s + n(r.positive), 0),
    },
  };
}

// Pharmacy ---------------------------------------------------------------------------------------------------

/** The longest lists of the pharmacy section (the medicines most consumed, the presentations out of stock). */
export const PHARMACY_LIST_LIMIT = 100;

export async function pharmacyStats(
  q: Queryable,
  p: Period,
  lang: 'fr' | 'en',
): Promise<Omit<TPharmacyStats, 'period'>> {
  const inn = lang === 'en' ? sql.raw('m.inn_en') : sql.raw('m.inn_fr');
  const pharmacy = p.department ? sql`and si.pharmacy_id = ${p.department}` : sql``;
  const consumption = await q.execute<{
    id: string;
    code: string;
    inn: string;
    strength: string;
    form: string;
    unit: string;
    dispensed: number;
    dispensings: number;
    received: number;
    written_off: number;
    on_hand: number | null;
  }>(sql`
    with c as (select s.presentation_id, sum(s.dispensed)::int as dispensed, sum(s.dispensings)::int as dispensings,
        sum(s.received)::int as received, sum(s.written_off)::int as written_off
      from stats_daily_pharmacy s where ${summaryWhere(p)} group by s.presentation_id
      order by dispensed desc, s.presentation_id limit ${PHARMACY_LIST_LIMIT})
    select mp.id, mp.code, ${inn} as inn, mp.strength, mp.form::text as form, mp.unit, c.dispensed, c.dispensings,
      c.received, c.written_off,
      (select sum(si.on_hand)::int from stock_items si where si.presentation_id = c.presentation_id
        and ${inHospitals(p, sql`si.hospital_id`)} ${pharmacy}) as on_hand
    from c join medication_presentations mp on mp.id = c.presentation_id join medications m on m.id = mp.medication_id
    order by c.dispensed desc, ${inn}, mp.code`);
  const stock = await q.execute<{ out: number; low: number }>(sql`
    select count(*) filter (where si.on_hand = 0)::int as out,
      count(*) filter (where si.on_hand > 0 and si.on_hand <= si.reorder_level)::int as low
    from stock_items si where ${inHospitals(p, sql`si.hospital_id`)} ${pharmacy}`);
  const outs = await q.execute<{
    id: string;
    code: string;
    inn: string;
    strength: string;
    form: string;
    pharmacy_id: string;
    pharmacy: string;
    reorder_level: number | null;
    since: Date | string | null;
  }>(sql`
    select mp.id, mp.code, ${inn} as inn, mp.strength, mp.form::text as form, d.id as pharmacy_id, d.name as pharmacy,
      si.reorder_level,
      (select max(sm.at) from stock_movements sm where sm.presentation_id = si.presentation_id
        and sm.pharmacy_id = si.pharmacy_id) as since
    from stock_items si join medication_presentations mp on mp.id = si.presentation_id
      join medications m on m.id = mp.medication_id join departments d on d.id = si.pharmacy_id
    where ${inHospitals(p, sql`si.hospital_id`)} ${pharmacy} and si.on_hand = 0
    order by since desc nulls last, mp.code limit ${PHARMACY_LIST_LIMIT}`);
  const label = (r: { inn: string; strength: string; form: string }) => `${r.inn} ${r.strength} (${r.form})`;
  return {
    stock_outs: n(stock.rows[0]?.out),
    below_reorder_level: n(stock.rows[0]?.low),
    consumption: consumption.rows.map((r) => ({
      presentation: { id: r.id, code: r.code, name: label(r), unit: r.unit },
      dispensed: n(r.dispensed),
      dispensings: n(r.dispensings),
      received: n(r.received),
      written_off: n(r.written_off),
      on_hand: r.on_hand === null ? null : n(r.on_hand),
    })),
    out_of_stock: outs.rows.map((r) => ({
      presentation: { id: r.id, code: r.code, name: label(r) },
      pharmacy: { id: r.pharmacy_id, name: r.pharmacy },
      reorder_level: r.reorder_level === null ? null : n(r.reorder_level),
      since: r.since === null ? null : new Date(r.since).toISOString(),
    })),
  };
}

// Inpatient --------------------------------------------------------------------------------------------------

export async function inpatientStats(q: Queryable, p: Period): Promise<Omit<TInpatientStats, 'period'>> {
  const stays = await q.execute<{ admissions: number }>(sql`
    select count(*)::int as admissions from hospitalizations s join hospitals hz on hz.id = s.hospital_id
    where ${inHospitals(p, sql`s.hospital_id`)} and s.admitted_at is not null
      and ${within(p, sql`s.admitted_at`)} ${inDepartment(p, sql`s.department_id`)}`);
  const ended = await q.execute<{ mode: string; n: number; days: string | null }>(sql`
    select s.discharge_mode::text as mode, count(*)::int as n,
      sum(extract(epoch from (s.ended_at - coalesce(s.admitted_at, s.requested_at))) / 86400) as days
    from hospitalizations s join hospitals hz on hz.id = s.hospital_id
    where ${inHospitals(p, sql`s.hospital_id`)} and s.ended_at is not null
      and ${within(p, sql`s.ended_at`)} ${inDepartment(p, sql`s.department_id`)}
    group by s.discharge_mode order by n desc`);
  // Beds, and the bed-days they offer over the period (each hospital's days, never past now).
  const beds = await q.execute<{ n: number; days: string | null }>(sql`
    select coalesce(sum(bc.n), 0)::int as n,
      sum(bc.n * greatest(extract(epoch from (least(${end(p, sql`hz.time_zone`)}, now()) - ${start(p, sql`hz.time_zone`)})) / 86400, 0)) as days
    from (select b.hospital_id, count(*) as n from beds b
      join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
      where ${inHospitals(p, sql`b.hospital_id`)} and b.is_active ${inDepartment(p, sql`w.department_id`)}
      group by b.hospital_id) bc join hospitals hz on hz.id = bc.hospital_id`);
  // Bed-days: the part of each bed assignment inside the period.
  const occupied = await q.execute<{ days: string | null }>(sql`
    select sum(extract(epoch from (least(coalesce(ba.ended_at, now()), ${end(p, sql`hz.time_zone`)}, now())
        - greatest(ba.started_at, ${start(p, sql`hz.time_zone`)}))) / 86400) as days
    from bed_assignments ba join hospitalizations s on s.id = ba.hospitalization_id
      join hospitals hz on hz.id = s.hospital_id
    where ${inHospitals(p, sql`s.hospital_id`)} ${inDepartment(p, sql`s.department_id`)}
      and ba.started_at < ${end(p, sql`hz.time_zone`)} and (ba.ended_at is null or ba.ended_at > ${start(p, sql`hz.time_zone`)})
      and ba.started_at < now()`);
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
  const availableDays = Number(beds.rows[0]?.days ?? 0);
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
    from payments pm join hospitals hz on hz.id = pm.hospital_id
    where ${inHospitals(p, sql`pm.hospital_id`)} and ${within(p, sql`pm.received_at`)}
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
    from invoices i join hospitals hz on hz.id = i.hospital_id
    where ${inHospitals(p, sql`i.hospital_id`)} and i.status = 'issued' and i.kind = 'invoice'
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
  p: Period & { timeZone: string },
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
    where ${inHospitals(p, sql`dg.hospital_id`)} and dg.removed_at is null and dg.coded
      and ${inHospitals(p, sql`c.hospital_id`)} and c.status <> 'cancelled'
      and ${within(p, sql`c.started_at`, sql`${p.timeZone}`)} ${inDepartment(p, sql`c.department_id`)}
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

/** Whether the department is one of these hospitals'. */
export async function departmentInHospitals(
  q: Queryable,
  departmentId: string,
  hospitalIds: readonly string[],
) {
  const found = await q.execute(
    sql`select 1 from departments where id = ${departmentId} and hospital_id in (${sqlList(hospitalIds)})`,
  );
  return found.rows.length > 0;
}

/** The hospitals with days marked for the summaries' refresh. */
export async function hospitalsWithDirtyDays(q: Queryable): Promise<string[]> {
  const marked = await q.execute<{ hospital_id: string }>(
    sql`select distinct hospital_id from stats_dirty_days`,
  );
  return marked.rows.map((r) => r.hospital_id);
}
