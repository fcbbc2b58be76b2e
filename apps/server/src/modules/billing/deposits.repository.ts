import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

// The SQL of deposits on admission (issue 21, decision 0036): a deposit is a payment of the stay's invoice.

/** The live invoice of a stay (the partial unique index `invoices_hospitalization_uq` finds it). */
export async function liveInvoiceOfStay(
  q: Queryable,
  hospitalId: string,
  stayId: string,
): Promise<string | null> {
  const res = await q.execute<{ id: string }>(sql`select id from invoices
    where hospitalization_id = ${stayId} and hospital_id = ${hospitalId} and kind = 'invoice'
      and status <> 'cancelled'`);
  return res.rows[0]?.id ?? null;
}

/** The patient of a stay of the hospital, or null. */
export async function patientOfStay(
  q: Queryable,
  hospitalId: string,
  stayId: string,
): Promise<string | null> {
  const res = await q.execute<{ patient_id: string }>(
    sql`select patient_id from hospitalizations where id = ${stayId} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0]?.patient_id ?? null;
}
