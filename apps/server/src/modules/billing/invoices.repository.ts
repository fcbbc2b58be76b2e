/**
 * The SQL of an invoice's lifecycle (issue 41): issued, cancelled, corrected by credit notes. The invoice's reads
 * (`findInvoice`, `lockInvoice`, `listInvoices`, its lines and payments) are in billing.repository.ts.
 */
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { invoices } from '../../db/schema/index.js';

/** The credit notes against an invoice, oldest first. */
export async function creditNotesOf(q: Queryable, invoiceId: string) {
  const notes = await q.execute<{ id: string; number: string | null; total: string }>(
    sql`select id, number, total from invoices where credited_invoice_id = ${invoiceId} order by created_at`,
  );
  return notes.rows.map((n) => ({ id: n.id, number: n.number, total: Number(n.total) }));
}

export async function markInvoiceIssued(q: Queryable, id: string, number: string, by: string) {
  await q.execute(sql`update invoices set status = 'issued', number = ${number}, issued_at = now(),
        issued_by = ${by}, updated_at = now() where id = ${id}`);
}

/** A cancelled draft owes nothing: its totals go to 0. */
export async function markInvoiceCancelled(q: Queryable, id: string, by: string, reason: string) {
  await q.execute(sql`update invoices set status = 'cancelled', cancelled_at = now(), cancelled_by = ${by},
        cancel_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0, updated_at = now() where id = ${id}`);
}

/** The coverage an invoice was billed to and the patient's member number. */
export async function coverageOfInvoice(q: Queryable, id: string) {
  const header = await q.execute<{ member_number: string | null; coverage_id: string | null }>(
    sql`select member_number, coverage_id from invoices where id = ${id}`,
  );
  return header.rows[0];
}

export async function insertCreditNote(q: Queryable, values: typeof invoices.$inferInsert): Promise<string> {
  const [note] = await q.insert(invoices).values(values).returning({ id: invoices.id });
  return note!.id;
}

/** Issues a credit note with its totals (negative) and number. */
export async function markCreditNoteIssued(
  q: Queryable,
  id: string,
  n: { total: number; payer: number; number: string; by: string },
) {
  await q.execute(sql`update invoices set total = ${n.total}, payer_share = ${n.payer},
        patient_share = ${n.total - n.payer}, status = 'issued', number = ${n.number}, issued_at = now(),
        issued_by = ${n.by} where id = ${id}`);
}

/** Adds a credit note's patient share (negative) to the invoice it corrects: its balance follows. */
export async function addCreditedPatientShare(q: Queryable, invoiceId: string, amount: number) {
  await q.execute(sql`update invoices set credited_patient_share = credited_patient_share + ${amount},
        updated_at = now() where id = ${invoiceId}`);
}
