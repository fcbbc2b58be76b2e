/**
 * The MAR's lines and doses (issue 20): the signed prescription lines of care plans and their doses in a window,
 * read by the MAR (`mar.service.ts`), the care list's counts (`care.service.ts`) and the nurse's tasks
 * (`tasks.service.ts`). Its own file so that the care and MAR services do not import each other (issue 36).
 */
import type { TDose, TDoseRecord, TMarLine } from '@greensen/shared/contracts/care';
import { type DoseFrequency, doseTimes, GRACE_MINUTES, isLate } from '@greensen/shared/domain/care';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { statDoseTimes } from '../medication-safety/safety.rules.js';
import { type DoseRow, toDose } from './care.repository.js';

export const HOUR = 3_600_000;
export const SIGNED = sql.raw(`('signed', 'partially_dispensed', 'dispensed')`);

export type LineRow = {
  plan_id: string;
  id: string;
  prescription_id: string;
  dose: number | string;
  dose_unit: string;
  route: TMarLine['route'];
  frequency: DoseFrequency | string;
  duration_days: number | null;
  instructions: string | null;
  m_id: string;
  inn_fr: string;
  inn_en: string;
  strength: string;
  form: string;
  signed_at: Date | string;
  /** A stat first dose: the line's doses are timed from it (issue 34). */
  first_dose_at: Date | string | null;
  u_id: string;
  u_first: string;
  u_last: string;
};

/** The signed lines of the plans `cp` (prescribed in the stay, or in a consultation of the visit it came from). */
const LINES_FROM = sql`from care_plans cp
    left join hospitalizations s on s.id = cp.hospitalization_id
    join prescriptions pr on pr.patient_id = cp.patient_id and pr.status in ${SIGNED}
    join prescription_lines l on l.prescription_id = pr.id and l.refused_at is null
    join medications m on m.id = l.medication_id
    join medication_presentations mp on mp.id = l.presentation_id
    join users u on u.id = pr.prescriber_id`;
const LINE_COLUMNS = sql`cp.id as plan_id, l.id, l.prescription_id, l.dose, l.dose_unit,
      l.route, l.frequency, l.duration_days, l.instructions, m.id as m_id, m.inn_fr, m.inn_en, mp.strength,
      mp.form::text as form, pr.signed_at, l.first_dose_at, u.id as u_id, u.first_name as u_first,
      u.last_name as u_last`;
/** The plans of `planSet`: a list of ids, or a statement selecting them. */
/** A prescription `pr` of the plan `cp`'s stay, or of a consultation `c` of the visit it came from. */
const OF_PLAN = prescriptionOfStay(
  'pr',
  sql`cp.hospitalization_id`,
  sql`coalesce(cp.admission_id, s.admission_id)`,
);
const linesWhere = (planSet: SQL) => sql`where cp.id in (${planSet}) and ${OF_PLAN}
    order by pr.signed_at, l.position`;

/**
 * The signed prescription lines of plans: those written in the stay, or in a consultation of the visit the plan
 * (or its stay) came from.
 */
export async function planLines(q: Queryable, planIds: readonly string[]): Promise<LineRow[]> {
  if (planIds.length === 0) return [];
  const res = await q.execute<LineRow>(
    sql`select ${LINE_COLUMNS} ${LINES_FROM} ${linesWhere(sqlList(planIds))}`,
  );
  return res.rows;
}

/** A line row with its records of the window (JSON). */
export type LineWithRecords = LineRow & { records: DoseRow[] | string };

/**
 * The statement of the signed lines of the plans of `planSet`, each with its dose records in `[from, to)` as
 * JSON: one statement for the lines and their records.
 */
export function linesWithRecords(planSet: SQL, from: Date, to: Date): SQL {
  // The lines of the plans first (`offset 0`: planned on its own), then their medication, presentation and
  // prescriber: two small join problems instead of one of eight tables (decision 0044).
  return sql`select x.plan_id, x.id, x.prescription_id, x.dose, x.dose_unit, x.route, x.frequency,
      x.duration_days, x.instructions, m.id as m_id, m.inn_fr, m.inn_en, mp.strength, mp.form::text as form,
      x.signed_at, x.first_dose_at, u.id as u_id, u.first_name as u_first, u.last_name as u_last,
      (select coalesce(json_agg(to_jsonb(ma) || jsonb_build_object(
        'u_first', ru.first_name, 'u_last', ru.last_name)), '[]'::json)
      from medication_administrations ma join users ru on ru.id = ma.recorded_by
      where ma.prescription_line_id = x.id and ma.scheduled_at >= ${from.toISOString()}
        and ma.scheduled_at < ${to.toISOString()}) as records
    from (select cp.id as plan_id, l.id, l.prescription_id, l.dose, l.dose_unit, l.route, l.frequency,
        l.duration_days, l.instructions, l.medication_id, l.presentation_id, l.position, pr.signed_at,
        l.first_dose_at, pr.prescriber_id
      from care_plans cp
      left join hospitalizations s on s.id = cp.hospitalization_id
      join prescriptions pr on pr.patient_id = cp.patient_id and pr.status in ${SIGNED}
      join prescription_lines l on l.prescription_id = pr.id and l.refused_at is null
      where cp.id in (${planSet}) and ${OF_PLAN}
      offset 0) x
    join medications m on m.id = x.medication_id
    join medication_presentations mp on mp.id = x.presentation_id
    join users u on u.id = x.prescriber_id
    order by x.signed_at, x.position`;
}

/** The doses of lines read by `linesWithRecords`. */
export function dosesOfLines(
  rows: LineWithRecords[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Map<string, TDose[]> {
  const records = rows.flatMap((r) =>
    (typeof r.records === 'string' ? (JSON.parse(r.records) as DoseRow[]) : r.records).map(toDose),
  );
  return scheduleDoses(rows, records, from, to, now, timeZone);
}

/** The signed lines of plans with their doses in `[from, to)`, in one statement: the care list's counts, the MAR. */
export async function planDoses(
  q: Queryable,
  planIds: readonly string[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Promise<{ lines: LineRow[]; doses: Map<string, TDose[]> }> {
  if (planIds.length === 0) return { lines: [], doses: new Map() };
  const res = await q.execute<LineWithRecords>(linesWithRecords(sqlList(planIds), from, to));
  return { lines: res.rows, doses: dosesOfLines(res.rows, from, to, now, timeZone) };
}

export const parseFrequency = (f: DoseFrequency | string): DoseFrequency =>
  typeof f === 'string' ? JSON.parse(f) : f;

export function lineOf(r: LineRow): Omit<TMarLine, 'doses'> {
  const frequency = parseFrequency(r.frequency);
  const starts = new Date(r.first_dose_at ?? r.signed_at);
  return {
    id: r.id,
    prescription: r.prescription_id,
    medication: { id: r.m_id, inn_fr: r.inn_fr, inn_en: r.inn_en },
    strength: r.strength,
    form: r.form,
    dose: Number(r.dose),
    dose_unit: r.dose_unit,
    route: r.route,
    frequency: frequency as TMarLine['frequency'],
    instructions: r.instructions,
    starts_at: starts.toISOString(),
    ends_at: r.duration_days ? new Date(starts.getTime() + r.duration_days * 24 * HOUR).toISOString() : null,
    prescriber: { id: r.u_id, full_name: fullName(r.u_first, r.u_last) },
    as_needed: frequency.kind === 'as_needed',
  };
}

/**
 * The scheduled times of a line in `[from, to)`: from its signature and the ward's round times, or, after a
 * stat first dose, from that dose by its frequency (issue 34).
 */
export function lineDoseTimes(l: LineRow, from: Date, to: Date, timeZone: string): Date[] {
  const frequency = parseFrequency(l.frequency);
  if (l.first_dose_at) return statDoseTimes(frequency, new Date(l.first_dose_at), l.duration_days, from, to);
  return doseTimes(frequency, new Date(l.signed_at), l.duration_days, from, to, timeZone);
}

/** The doses of lines in `[from, to)` given their records of the window (as-needed lines: their records). */
function scheduleDoses(
  lines: LineRow[],
  recorded: TDoseRecord[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Map<string, TDose[]> {
  const out = new Map<string, TDose[]>();
  const records = new Map<string, TDoseRecord>();
  for (const d of recorded) records.set(`${d.prescription_line}|${d.scheduled_at}`, d);
  for (const l of lines) {
    const times = lineDoseTimes(l, from, to, timeZone);
    const keys = new Set(times.map((t) => t.toISOString()));
    // As-needed administrations (and any record at a time no longer scheduled) are shown too.
    for (const r of records.values()) if (r.prescription_line === l.id) keys.add(r.scheduled_at);
    const doses = [...keys].sort().map((at): TDose => {
      const record = records.get(`${l.id}|${at}`) ?? null;
      const status: TDose['status'] = record
        ? record.outcome
        : isLate(new Date(at), null, now, GRACE_MINUTES)
          ? 'overdue'
          : 'due';
      return { prescription_line: l.id, scheduled_at: at, status, record };
    });
    out.set(l.id, doses);
  }
  return out;
}
