import type { TDoseRecord, TMarLine } from '@greensen/shared/contracts/care';
import type { DoseFrequency } from '@greensen/shared/domain/care';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { medicationAdministrations } from '../../db/schema/index.js';
import { sqlList } from '../../lib/queries.js';
import { prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { DOSE_SELECT, type DoseRow, toDose } from './care.repository.js';

/** An hour in milliseconds (the day of `dosesGivenInDayTo`). */
const HOUR = 3_600_000;
/** The statuses of a signed prescription. */
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

/** The signed lines of plans with their dose records in `[from, to)` (`linesWithRecords`), for `planDoses`. */
export async function planLinesWithRecords(
  q: Queryable,
  planIds: readonly string[],
  from: Date,
  to: Date,
): Promise<LineWithRecords[]> {
  const res = await q.execute<LineWithRecords>(linesWithRecords(sqlList(planIds), from, to));
  return res.rows;
}

/** The dose recorded under the client's key (`idempotency_key`), with its hospital (null: none). */
export async function doseByKey(
  q: Queryable,
  key: string,
): Promise<{ hospitalId: string; dose: TDoseRecord } | null> {
  const res = await q.execute<DoseRow>(sql`${DOSE_SELECT} where ma.idempotency_key = ${key}`);
  const row = res.rows[0];
  return row ? { hospitalId: row.hospital_id, dose: toDose(row) } : null;
}

/** A dose record by id (it exists: the caller has just written it). */
export async function doseById(q: Queryable, id: string): Promise<TDoseRecord> {
  const res = await q.execute<DoseRow>(sql`${DOSE_SELECT} where ma.id = ${id}`);
  return toDose(res.rows[0]!);
}

/** Where a line of a signed prescription of the hospital was prescribed: its stay or visit (null: none). */
export async function signedLineOrigin(q: Queryable, hospitalId: string, lineId: string) {
  const res = await q.execute<{
    prescription_id: string;
    hospitalization_id: string | null;
    admission_id: string | null;
    refused: boolean;
  }>(
    sql`select pr.id as prescription_id, pr.hospitalization_id, c.admission_id,
            l.refused_at is not null as refused from prescription_lines l
          join prescriptions pr on pr.id = l.prescription_id left join consultations c on c.id = pr.consultation_id
          where l.id = ${lineId} and pr.hospital_id = ${hospitalId} and pr.status in ${SIGNED}`,
  );
  return res.rows[0] ?? null;
}

/**
 * A stat first dose at `at`: the line's doses are timed from it. Only while it has none and no dose was given;
 * false otherwise.
 */
export async function setFirstDose(q: Queryable, lineId: string, at: Date): Promise<boolean> {
  const set = await q.execute<{
    id: string;
  }>(sql`update prescription_lines set first_dose_at = ${at.toISOString()}
          where id = ${lineId} and first_dose_at is null and not exists (select 1 from medication_administrations
            where prescription_line_id = ${lineId} and outcome = 'given') returning id`);
  return Boolean(set.rows[0]);
}

/** The doses of a line given in the 24 hours up to `at` (its time included). */
export async function dosesGivenInDayTo(q: Queryable, lineId: string, at: Date): Promise<number> {
  const res = await q.execute<{ n: number }>(sql`select count(*)::int as n from medication_administrations
      where prescription_line_id = ${lineId} and outcome = 'given'
        and scheduled_at > ${new Date(at.getTime() - 24 * HOUR).toISOString()}
        and scheduled_at <= ${at.toISOString()}`);
  return Number(res.rows[0]?.n ?? 0);
}

/** The latest stay a visit led to (null: none). */
export async function latestStayOfVisit(q: Queryable, admissionId: string): Promise<string | null> {
  const s = await q.execute<{ id: string }>(
    sql`select id from hospitalizations where admission_id = ${admissionId}
          order by requested_at desc limit 1`,
  );
  return s.rows[0]?.id ?? null;
}

/** Records a dose, unless it is recorded already (its key, or its line and time): its id, or null. */
export async function insertDoseUnlessRecorded(
  q: Queryable,
  values: typeof medicationAdministrations.$inferInsert,
): Promise<string | null> {
  const inserted = await q
    .insert(medicationAdministrations)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: medicationAdministrations.id });
  return inserted[0]?.id ?? null;
}
