import type {
  TCareVitals,
  TNews2Summary,
  TVitalsRecord,
  VITALS_SOURCES,
} from '@greensen/shared/contracts/care';
import type { TVitals } from '@greensen/shared/contracts/triage';
import { computeNews2, type News2Result, news2Applies } from '@greensen/shared/domain/news2';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { ageOf, fullName, isoRequired } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { parseJson } from './care.repository.js';

/**
 * One series of vital signs per patient (issue 37, decision 0068): the sets recorded on the ward (`care_vitals`),
 * at triage (`triage_records`) and in a consultation (`consultations.vitals`, not a cancelled one), each with its
 * NEWS2 stored when it was recorded (`news2Of`, the one place that decides it). The care ward, the care file, the
 * round, the temperature chart and the nurse's dashboard all read the series through the functions below.
 */

/** Where a set of the series was recorded. */
export type VitalsSource = (typeof VITALS_SOURCES)[number];

/**
 * NEWS2 of a set for a patient born on `birthDate` (null for a child: NEWS2 is from 16 years); scale 2 when a
 * doctor said hypercapnic. Triage, consultations and the ward all call this.
 */
export function news2Of(
  v: Partial<TCareVitals> | Partial<TVitals> | null | undefined,
  birthDate: string | null | undefined,
  hypercapnic = false,
): News2Result | null {
  if (!v || !news2Applies(ageOf(birthDate))) return null;
  const values = v as Partial<TCareVitals>;
  const input = {
    respiratory_rate: values.respiratory_rate ?? null,
    spo2: values.spo2 ?? null,
    on_oxygen: values.on_oxygen ?? false,
    systolic_bp: values.systolic_bp ?? null,
    heart_rate: values.heart_rate ?? null,
    avpu: values.avpu ?? null,
    confused: values.confused ?? null,
    temperature: values.temperature ?? null,
  };
  if (Object.values(input).every((x) => x === null || x === false)) return null;
  return computeNews2(input, { hypercapnic });
}

/** A patient's birth date (what `news2Of` reads), null when unknown. */
export async function birthDateOf(q: Queryable, patientId: string): Promise<string | null> {
  const res = await q.execute<{ b: string | null }>(
    sql`select birth_date::text as b from patients where id = ${patientId}`,
  );
  return res.rows[0]?.b ?? null;
}

/** A number of a consultation's vitals (jsonb). */
const num = (expr: string) => sql.raw(`nullif(c.vitals->>'${expr}', '')::numeric`);

/** The three sources of patient `patient` (an SQL expression) in the hospital, each limited and ordered. */
function sources(
  hospitalId: string,
  patient: SQL,
  range: { start: Date; end: Date } | null,
  limit: number,
): SQL[] {
  const tail = (at: string) => sql.raw(`order by ${at} desc limit ${Math.trunc(limit)}`);
  const within = (at: SQL) =>
    range ? sql`and ${at} >= ${range.start.toISOString()} and ${at} < ${range.end.toISOString()}` : sql``;
  return [
    sql`(select 'ward'::text as source, cv.id, cv.plan_id, cv.patient_id, cv.recorded_at, cv.recorded_by,
        cv.temperature::numeric as temperature, cv.heart_rate::numeric as heart_rate,
        cv.respiratory_rate::numeric as respiratory_rate, cv.systolic_bp::numeric as systolic_bp,
        cv.diastolic_bp::numeric as diastolic_bp, cv.spo2::numeric as spo2, cv.on_oxygen,
        cv.oxygen_flow::numeric as oxygen_flow, cv.avpu, cv.confused, cv.pain::numeric as pain,
        cv.weight::numeric as weight, cv.height::numeric as height, cv.glycaemia::numeric as glycaemia, cv.note, cv.news2_score, cv.news2,
        cv.escalated_to
      from care_vitals cv where cv.hospital_id = ${hospitalId} and cv.patient_id = ${patient}
        ${within(sql`cv.recorded_at`)} ${tail('cv.recorded_at')})`,
    sql`(select 'triage'::text, tr.id, null::uuid, tr.patient_id, tr.recorded_at, tr.recorded_by,
        tr.temperature::numeric, tr.heart_rate::numeric, tr.respiratory_rate::numeric, tr.systolic_bp::numeric,
        tr.diastolic_bp::numeric, tr.spo2::numeric, false, null::numeric, tr.avpu, tr.confused, tr.pain::numeric,
        tr.weight::numeric, tr.height::numeric, tr.glycaemia::numeric, tr.notes, tr.news2_score, tr.news2, '{}'::uuid[]
      from triage_records tr where tr.hospital_id = ${hospitalId} and tr.patient_id = ${patient}
        ${within(sql`tr.recorded_at`)} ${tail('tr.recorded_at')})`,
    sql`(select 'consultation'::text, c.id, null::uuid, c.patient_id, c.started_at, c.doctor_id,
        ${num('temperature')}, ${num('heart_rate')}, ${num('respiratory_rate')}, ${num('systolic_bp')},
        ${num('diastolic_bp')}, ${num('spo2')}, false, null::numeric, c.vitals->>'avpu',
        (c.vitals->>'confused')::boolean, ${num('pain')}, ${num('weight')}, ${num('height')}, ${num('glycaemia')}, null::text,
        c.news2_score, c.news2, '{}'::uuid[]
      from consultations c where c.hospital_id = ${hospitalId} and c.patient_id = ${patient}
        and c.vitals is not null and c.status <> 'cancelled'
        ${within(sql`c.started_at`)} ${tail('c.started_at')})`,
  ];
}

/**
 * The latest set of patient `patient` (an SQL expression, e.g. a column of the enclosing query), as a subquery
 * for a `left join lateral … on true`: each source's latest through its (patient, time) index, then the newest.
 */
export function latestVitalsOf(hospitalId: string, patient: SQL): SQL {
  return sql`(select * from (${sql.join(sources(hospitalId, patient, null, 1), sql` union all `)}) series
    order by recorded_at desc limit 1)`;
}

export type SeriesRow = {
  source: VitalsSource;
  id: string;
  plan_id: string | null;
  patient_id: string;
  recorded_at: Date | string;
  recorded_by: string;
  temperature: string | number | null;
  heart_rate: string | number | null;
  respiratory_rate: string | number | null;
  systolic_bp: string | number | null;
  diastolic_bp: string | number | null;
  spo2: string | number | null;
  on_oxygen: boolean | null;
  oxygen_flow: string | number | null;
  avpu: TVitalsRecord['avpu'];
  confused: boolean | null;
  pain: string | number | null;
  weight: string | number | null;
  height: string | number | null;
  glycaemia: string | number | null;
  note: string | null;
  news2_score: number | null;
  news2: Record<string, unknown> | string | null;
  u_first: string | null;
  u_last: string | null;
};

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A set of the series as the care contracts show it (`plan` null for a triage or consultation set). */
export function toSeriesVitals(r: SeriesRow): TVitalsRecord {
  return {
    id: r.id,
    source: r.source,
    plan: r.plan_id,
    patient: r.patient_id,
    recorded_at: isoRequired(r.recorded_at),
    recorded_by: { id: r.recorded_by, full_name: fullName(r.u_first, r.u_last) },
    temperature: n(r.temperature),
    heart_rate: n(r.heart_rate),
    respiratory_rate: n(r.respiratory_rate),
    systolic_bp: n(r.systolic_bp),
    diastolic_bp: n(r.diastolic_bp),
    spo2: n(r.spo2),
    on_oxygen: Boolean(r.on_oxygen),
    oxygen_flow: n(r.oxygen_flow),
    avpu: r.avpu ?? null,
    confused: r.confused ?? null,
    pain: n(r.pain),
    weight: n(r.weight),
    height: n(r.height),
    glycaemia: n(r.glycaemia),
    note: r.note ?? null,
    news2: parseJson<TVitalsRecord['news2'] & object>(r.news2),
    escalated_to: [],
  };
}

/** The NEWS2 summary of a set (null: a child's set, or none). */
export function news2SummaryOf(
  r: Pick<SeriesRow, 'news2_score' | 'news2' | 'recorded_at'> | undefined,
): TNews2Summary | null {
  if (!r || r.news2_score === null) return null;
  const news2 = parseJson<News2Result>(r.news2);
  if (!news2) return null;
  return {
    score: Number(r.news2_score),
    risk: news2.risk,
    escalation: news2.escalation,
    complete: news2.complete,
    recorded_at: isoRequired(r.recorded_at),
  };
}

/** The latest set of each patient (one query for a page of patients). */
export async function latestVitals(
  q: Queryable,
  hospitalId: string,
  patientIds: readonly string[],
): Promise<Map<string, SeriesRow>> {
  const out = new Map<string, SeriesRow>();
  const ids = [...new Set(patientIds)];
  if (ids.length === 0) return out;
  const res = await q.execute<SeriesRow>(sql`select v.*, u.first_name as u_first, u.last_name as u_last
    from (select distinct p.id from patients p where p.id in (${sqlList(ids)})) x
    join lateral ${latestVitalsOf(hospitalId, sql`x.id`)} v on true
    left join users u on u.id = v.recorded_by`);
  for (const r of res.rows) out.set(r.patient_id, r);
  return out;
}

/** The sets of a patient recorded in `[start, end)`, oldest first (at most `limit`, the latest kept). */
export async function vitalsSeries(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  start: Date,
  end: Date,
  limit: number,
): Promise<SeriesRow[]> {
  const res = await q.execute<SeriesRow>(sql`select * from (select s.*, u.first_name as u_first,
      u.last_name as u_last
    from (${sql.join(sources(hospitalId, sql`${patientId}`, { start, end }, limit), sql` union all `)}) s
    left join users u on u.id = s.recorded_by
    order by s.recorded_at desc limit ${limit}) z order by z.recorded_at`);
  return res.rows;
}

/** The first vitals execution of each plan still to do before `until` (what a set in the round completes). */
export async function dueVitalsExecutions(
  q: Queryable,
  planIds: readonly string[],
  until: Date,
): Promise<Map<string, string>> {
  const due = new Map<string, string>();
  if (planIds.length === 0) return due;
  const res = await q.execute<{ plan_id: string; id: string }>(
    sql`select distinct on (e.plan_id) e.plan_id, e.id from care_executions e
      join care_orders o on o.id = e.order_id
      where e.plan_id in (${sqlList(planIds)}) and e.status = 'scheduled' and o.kind = 'vitals'
        and e.scheduled_at < ${until.toISOString()}
      order by e.plan_id, e.scheduled_at`,
  );
  for (const r of res.rows) due.set(r.plan_id, r.id);
  return due;
}
