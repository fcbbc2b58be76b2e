/**
 * The reporting summaries (docs/decisions/0038-reporting-summaries.md): the rows of `stats_daily_*` per hospital
 * × department × day, and per calendar month (the sum of its days), rebuilt from the raw tables for the days
 * that the triggers of migration `reporting_dirty_days` marked in `stats_dirty_days`. The stats service rebuilds
 * a hospital's marked days before it reads (so today's figures, and a late change to a past day, are exact), and
 * the `stats.refresh` job rebuilds them in the background so that reads seldom have to.
 */
import { IDSR_DISEASES } from '@greensen/shared/contracts/stats';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client.js';
import { sqlList } from '../../lib/queries.js';
import { ageGroupSql, diseaseCondition, idsrAgeGroupSql } from './stats.sql.js';

/** A summary table: its key columns after (hospital, department, grain, day), and its measures' aggregates. */
interface Summary {
  table: string;
  dims: string[];
  measures: [column: string, aggregate: 'sum' | 'min' | 'max'][];
}

const SUMMARIES: Summary[] = [
  {
    table: 'stats_daily_visits',
    dims: ['admission_type'],
    measures: [
      ['visits', 'sum'],
      ['new_visits', 'sum'],
    ],
  },
  { table: 'stats_daily_pyramid', dims: ['age_group', 'sex'], measures: [['visits', 'sum']] },
  {
    table: 'stats_daily_doctors',
    dims: ['doctor_id'],
    measures: [
      ['consultations', 'sum'],
      ['completed', 'sum'],
    ],
  },
  {
    table: 'stats_daily_flow',
    dims: ['level'],
    measures: [
      ['rank', 'min'],
      ['target', 'max'],
      ['visits', 'sum'],
      ['seen', 'sum'],
      ['within_target', 'sum'],
      ['triage_n', 'sum'],
      ['triage_sum', 'sum'],
      ['doctor_n', 'sum'],
      ['doctor_sum', 'sum'],
      ['end_n', 'sum'],
      ['end_sum', 'sum'],
    ],
  },
  { table: 'stats_daily_waits', dims: ['level', 'measure', 'bucket'], measures: [['n', 'sum']] },
  {
    table: 'stats_daily_diagnoses',
    dims: ['kind', 'key', 'age_group'],
    measures: [['consultations', 'sum']],
  },
  {
    table: 'stats_daily_exams',
    dims: ['exam_id'],
    measures: [
      ['requested', 'sum'],
      ['validated', 'sum'],
      ['cancelled', 'sum'],
      ['positive', 'sum'],
      ['turnaround_sum', 'sum'],
    ],
  },
  {
    table: 'stats_daily_pharmacy',
    dims: ['presentation_id'],
    measures: [
      ['dispensed', 'sum'],
      ['dispensings', 'sum'],
      ['received', 'sum'],
      ['written_off', 'sum'],
    ],
  },
];

/**
 * The waits' histogram buckets (minutes, lower bound): a minute wide under 30 min, 5 under 2 h, 15 under 8 h,
 * an hour under a day, 6 hours under a week, then one open bucket. The medians are exact to a bucket's width.
 */
export const WAIT_BUCKETS: readonly { from: number; width: number }[] = [
  { from: 0, width: 1 },
  { from: 30, width: 5 },
  { from: 120, width: 15 },
  { from: 480, width: 60 },
  { from: 1440, width: 360 },
  { from: 10080, width: 0 },
];

/** The bucket of a wait in minutes (SQL). */
function bucketSql(w: SQL): SQL {
  const v = sql`greatest(${w}, 0)`;
  const cases = WAIT_BUCKETS.slice(0, -1).map((b, i) => {
    const next = WAIT_BUCKETS[i + 1]!.from;
    return sql`when ${v} < ${sql.raw(String(next))} then ${sql.raw(String(b.from))} + ${sql.raw(String(b.width))} * floor((${v} - ${sql.raw(String(b.from))}) / ${sql.raw(String(b.width))})`;
  });
  return sql`(case ${sql.join(cases, sql` `)} else ${sql.raw(String(WAIT_BUCKETS.at(-1)!.from))} end)::int`;
}

/** The width of a bucket (0 for the last, open one). */
export function bucketWidth(bucket: number): number {
  let width = 0;
  for (const b of WAIT_BUCKETS) if (bucket >= b.from) width = b.width;
  return width;
}

/** The median of a histogram (bucket → count), interpolated inside its bucket; null when empty. */
export function histogramMedian(histogram: Map<number, number>): number | null {
  const buckets = [...histogram.entries()].filter(([, n]) => n > 0).sort((x, y) => x[0] - y[0]);
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const half = total / 2;
  let below = 0;
  for (const [bucket, n] of buckets) {
    if (below + n >= half) return Math.round((bucket + (bucketWidth(bucket) * (half - below)) / n) * 10) / 10;
    below += n;
  }
  return null;
}

// Rebuilding days ------------------------------------------------------------------------------------------

interface Range {
  hospitalId: string;
  timeZone: string;
  from: string;
  to: string;
}

const local = (r: Range, column: SQL) => sql`(${column} at time zone ${r.timeZone})::date`;
const inRange = (r: Range, column: SQL) =>
  sql`${column} >= ((${r.from}::date)::timestamp at time zone ${r.timeZone})
    and ${column} < ((${r.to}::date + 1)::timestamp at time zone ${r.timeZone})`;

/** The statements rebuilding the day rows of a range of days of one hospital (after their deletion). */
function rebuildStatements(r: Range): SQL[] {
  const h = r.hospitalId;
  const visitsFrom = (joins: SQL = sql``) => sql`admissions a ${joins}
    where a.hospital_id = ${h} and ${inRange(r, sql`a.admitted_at`)} and a.status <> 'cancelled'`;
  const visits = visitsFrom();
  const flow = sql`with v as (
      select a.department_id, ${local(r, sql`a.admitted_at`)} as day, a.triage_level, a.triage_rank,
        a.triage_target_minutes, a.admitted_at,
        (select min(t.recorded_at) from triage_records t where t.admission_id = a.id) as triaged_at,
        (select min(c.started_at) from consultations c where c.admission_id = a.id and c.status <> 'cancelled') as doctor_at,
        (select max(c.completed_at) from consultations c where c.admission_id = a.id and c.status = 'completed') as ended_at
      from ${visits}),
    m as (select v.*, extract(epoch from (triaged_at - admitted_at)) / 60 as w_triage,
        extract(epoch from (doctor_at - admitted_at)) / 60 as w_doctor,
        extract(epoch from (ended_at - doctor_at)) / 60 as w_end from v),
    flow as (insert into stats_daily_flow (hospital_id, department_id, grain, day, level, rank, target, visits, seen,
        within_target, triage_n, triage_sum, doctor_n, doctor_sum, end_n, end_sum)
      select ${h}::uuid, department_id, 'd', day, triage_level, min(triage_rank), max(triage_target_minutes), count(*),
        count(doctor_at), count(*) filter (where doctor_at is not null and triage_target_minutes is not null
          and doctor_at - admitted_at <= make_interval(mins => triage_target_minutes)),
        count(w_triage), coalesce(sum(w_triage), 0), count(w_doctor), coalesce(sum(w_doctor), 0),
        count(w_end), coalesce(sum(w_end), 0)
      from m group by department_id, day, triage_level returning 1)
    insert into stats_daily_waits (hospital_id, department_id, grain, day, level, measure, bucket, n)
    select ${h}::uuid, m.department_id, 'd', m.day, m.triage_level, x.measure, ${bucketSql(sql`x.w`)} as bucket, count(*)
    from m cross join lateral (values ('triage', m.w_triage), ('doctor', m.w_doctor), ('end', m.w_end)) x(measure, w)
    where x.w is not null
    group by m.department_id, m.day, m.triage_level, x.measure, bucket`;
  const cases = sql.join(
    IDSR_DISEASES.map((d) => sql`when ${diseaseCondition(d.key)} then ${d.key}`),
    sql` `,
  );
  const diagnoses = sql`with dg as (
      select c.department_id, ${local(r, sql`c.started_at`)} as day, dg.consultation_id, dg.icd_code, dg.certainty,
        ${idsrAgeGroupSql(sql`pt.birth_date`, sql`c.started_at at time zone ${r.timeZone}`)} as age_group
      from consultation_diagnoses dg join consultations c on c.id = dg.consultation_id
        join patients pt on pt.id = dg.patient_id
      where c.hospital_id = ${h} and ${inRange(r, sql`c.started_at`)} and c.status <> 'cancelled'
        and dg.hospital_id = ${h} and dg.removed_at is null and dg.coded)
    insert into stats_daily_diagnoses (hospital_id, department_id, grain, day, kind, key, age_group, consultations)
    select ${h}::uuid, department_id, 'd', day, 'code', icd_code, '', count(distinct consultation_id)
      from dg group by department_id, day, icd_code
    union all
    select ${h}::uuid, dg.department_id, 'd', dg.day, 'chapter', coalesce(i.chapter, '?'), '', count(distinct dg.consultation_id)
      from dg join icd10_codes i on i.code = dg.icd_code group by dg.department_id, dg.day, coalesce(i.chapter, '?')
    union all
    select ${h}::uuid, department_id, 'd', day, 'idsr', disease, age_group, count(distinct consultation_id)
      from (select dg.*, case ${cases} end as disease from dg) x
      where disease is not null group by department_id, day, disease, age_group`;
  return [
    sql`insert into stats_daily_visits (hospital_id, department_id, grain, day, admission_type, visits, new_visits)
      select ${h}::uuid, a.department_id, 'd', ${local(r, sql`a.admitted_at`)}, a.admission_type::text, count(*),
        count(*) filter (where not exists (select 1 from admissions b where b.patient_id = a.patient_id
          and b.hospital_id = a.hospital_id and b.status <> 'cancelled'
          and (b.admitted_at < a.admitted_at or (b.admitted_at = a.admitted_at and b.id < a.id))))
      from ${visits} group by 2, 4, 5`,
    sql`insert into stats_daily_pyramid (hospital_id, department_id, grain, day, age_group, sex, visits)
      select ${h}::uuid, a.department_id, 'd', ${local(r, sql`a.admitted_at`)},
        ${ageGroupSql(sql`pt.birth_date`, sql`a.admitted_at at time zone ${r.timeZone}`)}, pt.sex::text, count(*)
      from ${visitsFrom(sql`join patients pt on pt.id = a.patient_id`)} group by 2, 4, 5, 6`,
    sql`insert into stats_daily_doctors (hospital_id, department_id, grain, day, doctor_id, consultations, completed)
      select ${h}::uuid, c.department_id, 'd', ${local(r, sql`c.started_at`)}, c.doctor_id, count(*),
        count(*) filter (where c.status = 'completed')
      from consultations c where c.hospital_id = ${h} and ${inRange(r, sql`c.started_at`)} and c.status <> 'cancelled'
      group by 2, 4, 5`,
    flow,
    diagnoses,
    sql`insert into stats_daily_exams (hospital_id, department_id, grain, day, exam_id, requested, validated, cancelled,
        positive, turnaround_sum)
      select ${h}::uuid, e.department_id, 'd', ${local(r, sql`e.requested_at`)}, e.exam_id, count(*),
        count(*) filter (where e.status = 'validated'), count(*) filter (where e.status = 'cancelled'),
        count(*) filter (where e.status = 'validated' and e.abnormal),
        coalesce(sum(extract(epoch from (e.validated_at - e.requested_at)) / 60) filter (where e.status = 'validated'), 0)
      from exam_orders e where e.hospital_id = ${h} and ${inRange(r, sql`e.requested_at`)}
      group by 2, 4, 5`,
    sql`insert into stats_daily_pharmacy (hospital_id, department_id, grain, day, presentation_id, dispensed, dispensings,
        received, written_off)
      select ${h}::uuid, m.pharmacy_id, 'd', ${local(r, sql`m.at`)}, m.presentation_id,
        coalesce(-sum(m.quantity) filter (where m.kind = 'dispense'), 0), count(*) filter (where m.kind = 'dispense'),
        coalesce(sum(m.quantity) filter (where m.kind = 'receipt'), 0),
        coalesce(-sum(m.quantity) filter (where m.kind = 'expiry_writeoff'), 0)
      from stock_movements m where m.hospital_id = ${h} and ${inRange(r, sql`m.at`)}
      group by 2, 4, 5`,
  ];
}

/** Rebuilds the day rows of a range of days of one hospital, then the rows of the months it touches. */
export async function rebuildRange(q: Queryable, r: Range): Promise<void> {
  for (const s of SUMMARIES)
    await q.execute(sql`delete from ${sql.identifier(s.table)}
      where hospital_id = ${r.hospitalId} and grain = 'd' and day >= ${r.from}::date and day <= ${r.to}::date`);
  for (const statement of rebuildStatements(r)) await q.execute(statement);
  for (let month = monthStart(r.from); month <= r.to; month = addMonths(month, 1))
    await rollUpMonth(q, r.hospitalId, month);
}

/** The month rows of one hospital and month: the sums of its day rows. */
async function rollUpMonth(q: Queryable, hospitalId: string, month: string): Promise<void> {
  const next = addMonths(month, 1);
  for (const s of SUMMARIES) {
    const table = sql.identifier(s.table);
    const dims = sql.join(
      s.dims.map((d) => sql.identifier(d)),
      sql`, `,
    );
    const columns = sql.join(
      [...s.dims, ...s.measures.map(([m]) => m)].map((c) => sql.identifier(c)),
      sql`, `,
    );
    const measures = sql.join(
      s.measures.map(([m, agg]) => sql`${sql.raw(agg)}(${sql.identifier(m)})`),
      sql`, `,
    );
    await q.execute(
      sql`delete from ${table} where hospital_id = ${hospitalId} and grain = 'm' and day = ${month}::date`,
    );
    await q.execute(sql`insert into ${table} (hospital_id, department_id, grain, day, ${columns})
      select hospital_id, department_id, 'm', ${month}::date, ${dims}, ${measures} from ${table}
      where hospital_id = ${hospitalId} and grain = 'd' and day >= ${month}::date and day < ${next}::date
      group by hospital_id, department_id, ${dims}`);
  }
}

/** `YYYY-MM-01` of a day. */
export const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month `n` months after the month of `month` (a `YYYY-MM-01`). */
export function addMonths(month: string, n: number): string {
  const d = new Date(`${month.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The longest range rebuilt by one statement per summary (a backfill of a year is cut in such ranges). */
const MAX_RANGE_DAYS = 14;

/** Whether any of these hospitals has a marked day (a cheap read, outside any transaction). */
export async function hasDirtyDays(q: Queryable, hospitalIds: readonly string[]): Promise<boolean> {
  const res = await q.execute(
    sql`select 1 from stats_dirty_days where hospital_id in (${sqlList(hospitalIds)}) limit 1`,
  );
  return res.rows.length > 0;
}

/**
 * Rebuilds the marked days of these hospitals, one transaction per hospital under an advisory lock (two
 * instances never rebuild the same hospital at once). The marks are taken (deleted) first, so a write that
 * commits meanwhile marks its day again and is rebuilt by the next pass. Returns the days rebuilt.
 */
export async function refreshDirtyDays(db: Database['db'], hospitalIds: readonly string[]): Promise<number> {
  let days = 0;
  for (const hospitalId of [...hospitalIds].sort()) {
    days += await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stats:${hospitalId}`}))`);
      const taken = await tx.execute<{ day: string; time_zone: string }>(sql`
        with taken as (delete from stats_dirty_days where hospital_id = ${hospitalId} returning day)
        select taken.day::text as day, h.time_zone from taken join hospitals h on h.id = ${hospitalId}
        order by taken.day`);
      const marked = taken.rows;
      // Contiguous days make one range: one statement per summary for a whole backfill.
      let i = 0;
      while (i < marked.length) {
        let j = i;
        while (
          j + 1 < marked.length &&
          j - i + 1 < MAX_RANGE_DAYS &&
          marked[j + 1]!.day === addDays(marked[j]!.day, 1)
        )
          j++;
        await rebuildRange(tx, {
          hospitalId,
          timeZone: marked[i]!.time_zone,
          from: marked[i]!.day,
          to: marked[j]!.day,
        });
        i = j + 1;
      }
      return marked.length;
    });
  }
  return days;
}

/** Marks every day of a hospital that has data (after a bulk load that bypassed the triggers, or a zone change). */
export async function markAllDays(q: Queryable, hospitalId: string): Promise<void> {
  await q.execute(sql`insert into stats_dirty_days (hospital_id, day)
    select distinct ${hospitalId}::uuid, (x.at at time zone h.time_zone)::date
    from (select admitted_at as at from admissions where hospital_id = ${hospitalId}
      union all select started_at from consultations where hospital_id = ${hospitalId}
      union all select requested_at from exam_orders where hospital_id = ${hospitalId}
      union all select at from stock_movements where hospital_id = ${hospitalId}) x
    join hospitals h on h.id = ${hospitalId}
    on conflict do nothing`);
}

// Reading ----------------------------------------------------------------------------------------------------

export interface SummaryPeriod {
  hospitalIds: readonly string[];
  from: string;
  to: string;
  department: string | null;
}

/**
 * The rows of a summary (alias `s`) covering a period: month rows for its whole calendar months, day rows for
 * the days before and after them; `daily` reads day rows only (a figure per day).
 */
export function summaryWhere(p: SummaryPeriod, daily = false): SQL {
  const department = p.department ? sql` and s.department_id = ${p.department}` : sql``;
  const hospitals = sql`s.hospital_id in (${sqlList(p.hospitalIds)})`;
  const firstMonth = p.from.endsWith('-01') ? p.from : addMonths(p.from, 1);
  const afterLastMonth = monthStart(addDays(p.to, 1));
  if (daily || firstMonth >= afterLastMonth)
    return sql`${hospitals} and s.grain = 'd' and s.day >= ${p.from}::date and s.day <= ${p.to}::date${department}`;
  return sql`${hospitals} and (
      (s.grain = 'm' and s.day >= ${firstMonth}::date and s.day < ${afterLastMonth}::date)
      or (s.grain = 'd' and ((s.day >= ${p.from}::date and s.day < ${firstMonth}::date)
        or (s.day >= ${afterLastMonth}::date and s.day <= ${p.to}::date))))${department}`;
}
