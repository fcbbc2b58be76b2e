import type { TDoseRecord } from '@greensen/shared/contracts/care';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { medicationAdministrations } from '../../db/schema/index.js';
import { DOSE_SELECT, type DoseRow, toDose } from './care.repository.js';
import { HOUR, SIGNED } from './mar.lines.js';

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
