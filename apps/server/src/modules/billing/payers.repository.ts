import type { TCoverage, TPayer, TPayerCreate } from '@greensen/shared/contracts/billing';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patientCoverages, payerRules, payers } from '../../db/schema/index.js';
import { containsPattern, sqlList } from '../../lib/queries.js';
import { liveInvoice, openInvoice } from './invoice-money.js';

// The SQL of payers, their rules, patients' coverages, payer statements and a patient's balance (issue 21,
// decision 0027).

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

// Payers' reads (moved from billing.repository.ts, issue 41) --------------------------------------------

type PayerRow = {
  id: string;
  code: string;
  name: string;
  kind: TPayer['kind'];
  payer_category: TPayer['payer_category'];
  contact: string | null;
  is_active: boolean;
  max_age_years: number | null;
  eligible_sex: 'F' | 'M' | null;
};

export async function payersById(q: Queryable, hospitalId: string, ids?: string[]) {
  const res = await q.execute<PayerRow>(sql`select id, code, name, kind, payer_category, contact, is_active,
      max_age_years, eligible_sex from payers where hospital_id = ${hospitalId}
      ${ids ? sql`and id in (${ids.length ? sqlList(ids) : sql`null`})` : sql``} order by name, id`);
  return res.rows;
}

export async function listPayers(
  q: Queryable,
  hospitalId: string,
  f: { search?: string | undefined; kind?: string | undefined },
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`hospital_id = ${hospitalId}`];
  if (f.search)
    where.push(
      sql`f_unaccent(lower(code || ' ' || name)) like f_unaccent(${containsPattern(f.search.toLowerCase())})`,
    );
  if (f.kind) where.push(sql`kind = ${f.kind}`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<PayerRow>(sql`select id, code, name, kind, payer_category, contact, is_active, max_age_years,
        eligible_sex from payers where ${cond} order by name, id limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from payers where ${cond}`),
  ]);
  return { rows: rows.rows, count: Number(count.rows[0]?.n ?? 0) };
}

export type RuleRow = {
  payer_id: string;
  category: TPayer['rules'][number]['category'];
  rate_percent: number;
  ceiling: string | number | null;
};

export async function rulesOf(q: Queryable, payerIds: string[]) {
  const out = new Map<string, TPayer['rules']>();
  if (!payerIds.length) return out;
  const res = await q.execute<RuleRow>(sql`select payer_id, category, rate_percent, ceiling
    from payer_rules where payer_id in (${sqlList(payerIds)}) order by category`);
  for (const r of res.rows) {
    const list = out.get(r.payer_id) ?? [];
    list.push({
      category: r.category,
      rate_percent: Number(r.rate_percent),
      ceiling: r.ceiling === null ? null : Number(r.ceiling),
    });
    out.set(r.payer_id, list);
  }
  return out;
}

export function toPayer(r: PayerRow, rules: TPayer['rules']): TPayer {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    kind: r.kind,
    payer_category: r.payer_category,
    contact: r.contact,
    is_active: r.is_active,
    rules,
    eligibility: {
      max_age_years: r.max_age_years === null ? null : Number(r.max_age_years),
      sex: r.eligible_sex,
    },
  };
}
