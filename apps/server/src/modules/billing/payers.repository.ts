import type { TCoverage, TPayerCreate } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patientCoverages, payerRules, payers } from '../../db/schema/index.js';
import { liveInvoice, openInvoice } from './invoice-money.js';

// The SQL of payers' writes, patients' coverages, payer statements and a patient's balance (issue 21, decision
// 0027); the payers' reads shared with invoicing (payersById, listPayers, rulesOf) are in billing.repository.ts.

export async function insertPayer(q: Queryable, values: typeof payers.$inferInsert): Promise<string> {
  const [p] = await q.insert(payers).values(values).returning({ id: payers.id });
  return p!.id;
}

/** Whether the payer is the hospital's, its row locked for a change. */
export async function lockPayer(q: Queryable, hospitalId: string, id: string): Promise<boolean> {
  const found = await q.execute(
    sql`select 1 from payers where hospital_id = ${hospitalId} and id = ${id} for update`,
  );
  return found.rows.length > 0;
}

export async function updatePayer(q: Queryable, id: string, set: Partial<typeof payers.$inferInsert>) {
  await q.update(payers).set(set).where(sql`${payers.id} = ${id}`);
}

export async function insertPayerRules(q: Queryable, payerId: string, rules: TPayerCreate['rules']) {
  await q.insert(payerRules).values(
    rules.map((r) => ({
      payerId,
      category: r.category,
      ratePercent: r.rate_percent,
      ceiling: r.ceiling,
    })),
  );
}

export async function deletePayerRules(q: Queryable, payerId: string) {
  await q.execute(sql`delete from payer_rules where payer_id = ${payerId}`);
}

/** Issued invoices and credit notes of `[from, to]` (hospital days) with a share for the payer (at most 5,000). */
export async function payerStatementLines(
  q: Queryable,
  hospitalId: string,
  payerId: string,
  from: string,
  to: string,
) {
  const res = await q.execute<{
    id: string;
    number: string | null;
    kind: 'invoice' | 'credit_note';
    issued_at: string | Date;
    patient_id: string;
    record_number: string;
    first_name: string;
    last_name: string;
    member_number: string | null;
    total: string;
    payer_share: string;
    currency: string;
  }>(sql`select i.id, i.number, i.kind, i.issued_at, p.id as patient_id, p.record_number, p.first_name,
      p.last_name, i.member_number, i.total, i.payer_share, i.currency
    from invoices i join patients p on p.id = i.patient_id join hospitals h on h.id = i.hospital_id
    where i.payer_id = ${payerId} and i.hospital_id = ${hospitalId} and i.status = 'issued' and i.payer_share <> 0
      and i.issued_at >= (${from}::date::timestamp at time zone h.time_zone)
      and i.issued_at < ((${to}::date + 1)::timestamp at time zone h.time_zone)
    order by i.issued_at, i.id limit 5000`);
  return res.rows;
}

/** A patient's coverages (or the one `id`), the latest first, with their payer. */
export async function coveragesOfPatient(q: Queryable, hospitalId: string, patientId: string, id?: string) {
  const res = await q.execute<{
    id: string;
    patient_id: string;
    payer_id: string;
    code: string;
    name: string;
    kind: TCoverage['payer']['kind'];
    is_active: boolean;
    member_number: string;
    valid_from: string;
    valid_to: string | null;
  }>(sql`select c.id, c.patient_id, c.payer_id, py.code, py.name, py.kind, py.is_active, c.member_number,
      c.valid_from::text as valid_from, c.valid_to::text as valid_to
    from patient_coverages c join payers py on py.id = c.payer_id
    where c.hospital_id = ${hospitalId} and c.patient_id = ${patientId} ${id ? sql`and c.id = ${id}` : sql``}
    order by c.valid_from desc, c.id`);
  return res.rows;
}

export async function insertCoverage(
  q: Queryable,
  values: typeof patientCoverages.$inferInsert,
): Promise<string> {
  const [c] = await q.insert(patientCoverages).values(values).returning({ id: patientCoverages.id });
  return c!.id;
}

export async function endCoverageOn(q: Queryable, id: string, validTo: string) {
  await q.execute(sql`update patient_coverages set valid_to = ${validTo}::date where id = ${id}`);
}

/**
 * What a patient owes on issued invoices (credit notes and payments deducted), the open and draft invoices, and
 * the hospital's currency.
 */
export async function patientBalance(q: Queryable, hospitalId: string, patientId: string) {
  const res = await q.execute<{
    invoiced: string;
    paid: string;
    open: number;
    drafts: number;
    currency: string;
  }>(
    sql`select
        coalesce(sum(i.patient_share + i.credited_patient_share) filter (where i.status = 'issued'), 0) as invoiced,
        coalesce(sum(i.paid), 0) as paid,
        count(*) filter (where ${openInvoice('i')})::int as open,
        count(*) filter (where i.status = 'draft')::int as drafts,
        (select currency from hospitals where id = ${hospitalId}) as currency
      from invoices i where i.patient_id = ${patientId} and ${liveInvoice('i')}`,
  );
  return res.rows[0]!;
}
