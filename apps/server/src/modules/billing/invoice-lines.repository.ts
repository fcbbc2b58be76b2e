/**
 * The SQL of an invoice's lines (issue 41): the payer split's reads and writes, the edits of a draft's lines
 * (added by hand, removed, discounted, priced again) and the lines a credit note reverses.
 */
import type { PayerCategory } from '@greensen/shared/contracts/medical-acts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { invoiceLines } from '../../db/schema/index.js';
import { sqlList } from '../../lib/queries.js';
import { type InvoiceHeaderRow, invoiceHeaderSelect } from './billing.repository.js';

export type LineCategory = (typeof invoiceLines.$inferInsert)['category'];

/** A line that counts (not removed), aliased `alias` (or the statement's one table). */
export function liveLine(alias?: string): SQL {
  return sql`${sql.raw(alias ? `${alias}.` : '')}removed_at is null`;
}

/**
 * The price of the act `act` for the payer category on the hospital day `day` (`h`: the hospital): the tariff
 * valid that day, the latest first; null without one.
 */
export const tariffOn = (act: SQL, category: PayerCategory, day: SQL) =>
  sql`(select t.price from act_tariffs t where t.act_id = ${act} and t.payer_category = ${category}
    and t.valid_from <= (${day} at time zone h.time_zone)::date
    and (t.valid_to is null or t.valid_to >= (${day} at time zone h.time_zone)::date)
    order by t.valid_from desc limit 1)`;

/**
 * A line as the payer split reads it, with the payer's rule for its category (`payer_rules` is unique per payer
 * and category; none: the payer pays nothing of it). A new line has no id yet.
 */
export type SplitRow = {
  id?: string;
  category: string;
  total: string | number;
  payer_share: string | number;
  removed: boolean;
  rate_percent: number | null;
  ceiling: string | number | null;
};

/** The payer's rule for a line's category (`category`: its column). */
export const ruleJoin = (payerId: string | null, category: SQL) =>
  sql`left join payer_rules r on r.payer_id = ${payerId}::uuid and r.category = ${category}`;

/**
 * A performed act (`pa`) not billed: on no live line of any invoice, nor on a line (removed or not) of this one.
 * Two `not exists`, each on its index (`invoice_lines_performed_uq`, `invoice_lines_position_uq`): one with an
 * `or` could use neither and would scan every invoice's lines.
 */
export const notOnInvoice = (invoiceId: string) => sql`not exists (select 1 from invoice_lines il
    where il.performed_act_id = pa.id and ${liveLine('il')})
  and not exists (select 1 from invoice_lines il where il.invoice_id = ${invoiceId} and il.performed_act_id = pa.id)`;

/** The invoice's lines as the split reads them (`SplitRow`), aliased `il`, with their position. */
export const splitRowsOf = (invoiceId: string, payerId: string | null) =>
  sql`select il.id, il.position, il.category, il.total, il.payer_share, il.removed_at is not null as removed,
      r.rate_percent, r.ceiling
    from invoice_lines il ${ruleJoin(payerId, sql`il.category`)}
    where il.invoice_id = ${invoiceId}`;

/** The invoice's lines as the split reads them, in position order. */
export async function splitRowsOfInvoice(q: Queryable, invoiceId: string, payerId: string | null) {
  const res = await q.execute<SplitRow>(sql`${splitRowsOf(invoiceId, payerId)} order by il.position`);
  return res.rows;
}

/** A line whose shares the split changed. */
export type ShareChange = { id: string | undefined; payer: number; patient: number };

/**
 * Writes a split in one statement: the shares of the lines that changed and the invoice's totals. Answers the
 * invoice's header.
 */
export async function writeInvoiceSplit(
  q: Queryable,
  invoiceId: string,
  changes: ShareChange[],
  totals: { total: number; payerTotal: number },
): Promise<InvoiceHeaderRow> {
  const values = changes.map((c) => sql`(${c.id}::uuid, ${c.payer}::bigint, ${c.patient}::bigint)`);
  const updated = await q.execute<InvoiceHeaderRow>(sql`with
      ${
        values.length
          ? sql`changed as (update invoice_lines il set payer_share = v.payer, patient_share = v.patient
              from (values ${sql.join(values, sql`, `)}) as v(id, payer, patient) where il.id = v.id),`
          : sql``
      }
      u as (update invoices set total = ${totals.total}, payer_share = ${totals.payerTotal},
        patient_share = ${totals.total - totals.payerTotal}, updated_at = now() where id = ${invoiceId} returning *)
      ${invoiceHeaderSelect(sql`u`)}`);
  return updated.rows[0]!;
}

/** Performed acts of the invoice's visit or stay left off it for want of a tariff (at most 200). */
export async function unpricedActsOfInvoice(q: Queryable, invoiceId: string) {
  const res = await q.execute<{
    id: string;
    label: string;
  }>(sql`select pa.id, ma.code || ' ' || ma.label_fr as label
      from invoices i left join hospitalizations ist on ist.id = i.hospitalization_id
      join performed_acts pa on (pa.admission_id = coalesce(i.admission_id, ist.admission_id)
        or pa.hospitalization_id = i.hospitalization_id)
      join medical_acts ma on ma.id = pa.act_id
      where i.id = ${invoiceId} and pa.cancelled_at is null and ${notOnInvoice(invoiceId)}
      order by pa.performed_at limit 200`);
  return res.rows;
}

/** The invoice's live lines with the price of their act for `category` on the day it was performed. */
export async function liveLinesPricedFor(q: Queryable, invoiceId: string, category: PayerCategory) {
  const res = await q.execute<{ id: string; quantity: number; discount: string; price: string | null }>(
    sql`select il.id, il.quantity, il.discount,
          ${tariffOn(sql`il.act_id`, category, sql`pa.performed_at`)} as price
        from invoice_lines il join performed_acts pa on pa.id = il.performed_act_id
        join hospitals h on h.id = pa.hospital_id
        where il.invoice_id = ${invoiceId} and ${liveLine('il')}`,
  );
  return res.rows;
}

/** Writes lines priced again; their shares go back to the patient until the split runs. */
export async function writeLinePrices(
  q: Queryable,
  prices: { id: string; price: number; discount: number; total: number }[],
) {
  if (!prices.length) return;
  const values = prices.map(
    (p) => sql`(${p.id}::uuid, ${p.price}::bigint, ${p.discount}::bigint, ${p.total}::bigint)`,
  );
  await q.execute(sql`update invoice_lines il set unit_price = v.price, discount = v.discount, total = v.total,
        payer_share = 0, patient_share = v.total
      from (values ${sql.join(values, sql`, `)}) as v(id, price, discount, total) where il.id = v.id`);
}

/** An active act of the hospital's catalogue with its price for `category` today; null when unknown. */
export async function activeActPricedToday(
  q: Queryable,
  hospitalId: string,
  actId: string,
  category: PayerCategory,
) {
  const res = await q.execute<{
    id: string;
    code: string;
    label_fr: string;
    label_en: string;
    category: LineCategory;
    price: string | null;
  }>(sql`select ma.id, ma.code, ma.label_fr, ma.label_en, ma.category,
      ${tariffOn(sql`ma.id`, category, sql`now()`)} as price
    from medical_acts ma join hospitals h on h.id = ma.hospital_id
    where ma.hospital_id = ${hospitalId} and ma.id = ${actId} and ma.is_active`);
  return res.rows[0] ?? null;
}

/** The position after the invoice's last line (removed ones included). */
export async function nextLinePosition(q: Queryable, invoiceId: string): Promise<number> {
  const pos = await q.execute<{ n: number }>(
    sql`select coalesce(max(position), 0)::int as n from invoice_lines where invoice_id = ${invoiceId}`,
  );
  return Number(pos.rows[0]?.n ?? 0) + 1;
}

export async function insertInvoiceLines(q: Queryable, values: (typeof invoiceLines.$inferInsert)[]) {
  await q.insert(invoiceLines).values(values);
}

/** A live line of the invoice; null when unknown or removed. */
export async function findLiveLine(q: Queryable, invoiceId: string, lineId: string) {
  const res = await q.execute<{ quantity: number; unit_price: string; code: string }>(
    sql`select quantity, unit_price, code from invoice_lines where id = ${lineId} and invoice_id = ${invoiceId}
        and ${liveLine()}`,
  );
  return res.rows[0] ?? null;
}

export async function markLineRemoved(q: Queryable, lineId: string, by: string, reason: string) {
  await q.execute(sql`update invoice_lines set removed_at = now(), removed_by = ${by},
        removed_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0 where id = ${lineId}`);
}

/** A line's discount (0: none, its reason and author cleared); its shares go back to the patient until the split. */
export async function setLineDiscount(
  q: Queryable,
  lineId: string,
  d: { amount: number; reason: string; by: string; gross: number },
) {
  await q.execute(sql`update invoice_lines set discount = ${d.amount},
        discount_reason = ${d.amount ? d.reason : null}, discount_by = ${d.amount ? d.by : null},
        total = ${d.gross - d.amount}, payer_share = 0, patient_share = ${d.gross - d.amount} where id = ${lineId}`);
}

/** Whether the invoice has a live line. */
export async function hasLiveLine(q: Queryable, invoiceId: string): Promise<boolean> {
  const lines = await q.execute(
    sql`select 1 from invoice_lines where invoice_id = ${invoiceId} and ${liveLine()} limit 1`,
  );
  return lines.rows.length > 0;
}

/** Removes every live line of the invoice (a cancelled draft), so that their acts may be billed again. */
export async function removeLiveLines(q: Queryable, invoiceId: string, by: string, reason: string) {
  await q.execute(sql`update invoice_lines set removed_at = now(), removed_by = ${by},
        removed_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0
        where invoice_id = ${invoiceId} and ${liveLine()}`);
}

/** The invoice's live lines (or those of `lineIds`) in position order, each saying whether a credit note has it. */
export async function linesToCredit(q: Queryable, invoiceId: string, lineIds?: string[]) {
  const res = await q.execute<{
    id: string;
    act_id: string;
    code: string;
    label_fr: string;
    label_en: string;
    category: LineCategory;
    quantity: number;
    unit_price: string;
    discount: string;
    discount_reason: string | null;
    total: string;
    payer_share: string;
    patient_share: string;
    credited: boolean;
  }>(sql`select il.id, il.act_id, il.code, il.label_fr, il.label_en, il.category, il.quantity, il.unit_price,
          il.discount, il.discount_reason, il.total, il.payer_share, il.patient_share,
          exists (select 1 from invoice_lines cl where cl.credited_line_id = il.id) as credited
        from invoice_lines il where il.invoice_id = ${invoiceId} and ${liveLine('il')}
        ${lineIds ? sql`and il.id in (${sqlList(lineIds)})` : sql``} order by il.position`);
  return res.rows;
}
