import type {
  TInvoice,
  TInvoiceLine,
  TPayer,
  TPayment,
  TPaymentSummary,
} from '@greensen/shared/contracts/billing';
import { invoiceStanding } from '@greensen/shared/domain/money';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { examOfStay, prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { balanceOf, liveBalanceOf, liveInvoice } from './invoice-money.js';

// The money rules are defined once in invoice-money.ts; `balanceOf` stays importable from here.
export { balanceOf };

const num = (v: unknown) => Number(v ?? 0);
const ref = (id: unknown, first: unknown, last: unknown) =>
  id ? { id: String(id), full_name: fullName(first as string, last as string) } : null;

// Invoices ----------------------------------------------------------------------------------------------

/** An invoice's header as `invoiceHeaderSelect` reads it (what `toInvoice` needs). */
export type InvoiceHeaderRow = {
  id: string;
  number: string | null;
  kind: TInvoice['kind'];
  status: TInvoice['status'];
  patient_id: string;
  p_record_number: string;
  p_first_name: string;
  p_last_name: string;
  admission_id: string | null;
  hospitalization_id: string | null;
  currency: string;
  payer_category: TInvoice['payer_category'];
  payer_id: string | null;
  payer_code: string | null;
  payer_name: string | null;
  payer_kind: TPayer['kind'] | null;
  coverage_id: string | null;
  member_number: string | null;
  total: string | number;
  payer_share: string | number;
  patient_share: string | number;
  paid: string | number;
  credited_patient_share: string | number;
  credited_invoice_id: string | null;
  credited_number: string | null;
  issued_at: string | Date | null;
  created_at: string | Date;
};

/** An invoice with its detail's names as `invoiceSelect` reads it. */
export type InvoiceRow = InvoiceHeaderRow & {
  credit_reason: string | null;
  cancel_reason: string | null;
  created_by: string;
  cb_first: string;
  cb_last: string;
  issued_by: string | null;
  ib_first: string | null;
  ib_last: string | null;
  hospital_code: string;
};

/** The columns `toInvoice` reads from an invoice aliased `i`, and their joins (patient, payer, credited invoice). */
const HEADER_COLUMNS = sql`i.id, i.number, i.kind, i.status, i.patient_id,
    p.record_number as p_record_number, p.first_name as p_first_name, p.last_name as p_last_name,
    i.admission_id, i.hospitalization_id, i.currency, i.payer_category, i.payer_id, py.code as payer_code,
    py.name as payer_name, py.kind as payer_kind, i.coverage_id, i.member_number, i.total, i.payer_share,
    i.patient_share, i.paid, i.credited_patient_share, i.credited_invoice_id, ci.number as credited_number,
    i.issued_at, i.created_at`;
const HEADER_JOINS = sql`join patients p on p.id = i.patient_id
  left join payers py on py.id = i.payer_id
  left join invoices ci on ci.id = i.credited_invoice_id`;

/** What `toInvoice` reads (the header, without the detail's names) from `source` (aliased `i`): the assembly's answer. */
export const invoiceHeaderSelect = (source: SQL) =>
  sql`select ${HEADER_COLUMNS} from ${source} i ${HEADER_JOINS}`;

/**
 * The invoice's columns and names from `source` (aliased `i`): the table, or a page of it already cut (the list
 * joins its 20 rows only, not the thousands its filter matches).
 */
export const invoiceSelect = (source: SQL) => sql`select ${HEADER_COLUMNS}, i.credit_reason, i.cancel_reason,
    i.created_by, cb.first_name as cb_first, cb.last_name as cb_last, i.issued_by, ib.first_name as ib_first,
    ib.last_name as ib_last, h.code as hospital_code
  from ${source} i ${HEADER_JOINS}
  join hospitals h on h.id = i.hospital_id
  join users cb on cb.id = i.created_by
  left join users ib on ib.id = i.issued_by`;

export const INVOICE_SELECT = invoiceSelect(sql`invoices`);

export function toInvoice(r: InvoiceHeaderRow): TInvoice {
  return {
    id: r.id,
    number: r.number,
    kind: r.kind,
    status: r.status,
    patient: {
      id: r.patient_id,
      record_number: r.p_record_number,
      full_name: fullName(r.p_first_name, r.p_last_name),
    },
    admission: r.admission_id,
    hospitalization: r.hospitalization_id,
    currency: r.currency,
    payer_category: r.payer_category,
    payer:
      r.payer_id && r.payer_kind
        ? { id: r.payer_id, code: r.payer_code ?? '', name: r.payer_name ?? '', kind: r.payer_kind }
        : null,
    total: num(r.total),
    payer_share: num(r.payer_share),
    patient_share: num(r.patient_share),
    paid: num(r.paid),
    balance: liveBalanceOf(r),
    standing: invoiceStanding({
      status: r.status,
      kind: r.kind,
      paid: num(r.paid),
      balance: liveBalanceOf(r),
    }),
    credited_invoice: r.credited_invoice_id ? { id: r.credited_invoice_id, number: r.credited_number } : null,
    issued_at: iso(r.issued_at),
    created_at: isoRequired(r.created_at),
  };
}

export async function findInvoice(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<InvoiceRow>(
    sql`${INVOICE_SELECT} where i.hospital_id = ${hospitalId} and i.id = ${id}`,
  );
  return res.rows[0] ?? null;
}

/** The invoice's row, locked until the transaction ends (every change of a draft, every payment). */
export async function lockInvoice(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    status: TInvoice['status'];
    kind: TInvoice['kind'];
    patient_id: string;
    currency: string;
    payer_id: string | null;
    payer_category: TInvoice['payer_category'];
    patient_share: string | number;
    credited_patient_share: string | number;
    paid: string | number;
    admission_id: string | null;
    hospitalization_id: string | null;
  }>(sql`select id, status, kind, patient_id, currency, payer_id, payer_category, patient_share,
      credited_patient_share, paid, admission_id, hospitalization_id
    from invoices where hospital_id = ${hospitalId} and id = ${id} for update`);
  return res.rows[0] ?? null;
}

export interface InvoiceFilters {
  patient?: string | undefined;
  status?: string | undefined;
  kind?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  number?: string | undefined;
}

/**
 * A page of invoices, newest first. Each filter has its index: patient (`invoices_patient_idx`), dates and
 * the default order (`invoices_hospital_created_idx`), status (`invoices_hospital_status_idx`), number (unique).
 * The count stops at 10 000 (`count_capped`) so that a large hospital's unfiltered list stays fast.
 */
export async function listInvoices(
  q: Queryable,
  hospitalId: string,
  f: InvoiceFilters,
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`i.hospital_id = ${hospitalId}`];
  if (f.patient) where.push(sql`i.patient_id = ${f.patient}`);
  if (f.status) where.push(sql`i.status = ${f.status}`);
  if (f.kind) where.push(sql`i.kind = ${f.kind}`);
  if (f.from) where.push(sql`i.created_at >= ${f.from}::date`);
  if (f.to) where.push(sql`i.created_at < ${f.to}::date + 1`);
  if (f.number) {
    where.push(
      /^\d{1,6}$/.test(f.number)
        ? sql`i.number like ${`%-${f.number.padStart(6, '0')}`}`
        : sql`i.number = ${f.number.toUpperCase()}`,
    );
  }
  const cond = sql.join(where, sql` and `);
  const CAP = 10_000;
  const [rows, count] = await Promise.all([
    q.execute<InvoiceRow>(
      // The page is cut in a subquery, on the filter's index, before the joins: joined first, a week of a
      // million invoices (~7,000 rows) was joined and sorted whole for its 20 (docs/performance.md, billing).
      sql`${invoiceSelect(sql`(select * from invoices i where ${cond}
          order by i.created_at desc, i.id desc limit ${limit} offset ${offset})`)}
        order by i.created_at desc, i.id desc`,
    ),
    q.execute<{ n: number }>(
      sql`select count(*)::int as n from (select 1 from invoices i where ${cond} limit ${CAP + 1}) c`,
    ),
  ]);
  const n = Number(count.rows[0]?.n ?? 0);
  return { rows: rows.rows, count: Math.min(n, CAP), capped: n > CAP };
}

export type LineRow = {
  id: string;
  position: number;
  act_id: string;
  code: string;
  label_fr: string;
  label_en: string;
  category: TInvoiceLine['act']['category'];
  performed_act_id: string | null;
  quantity: number;
  unit_price: string | number;
  discount: string | number;
  discount_reason: string | null;
  db_id: string | null;
  db_first: string | null;
  db_last: string | null;
  total: string | number;
  payer_share: string | number;
  patient_share: string | number;
  removed_at: string | Date | null;
  removed_reason: string | null;
  rb_id: string | null;
  rb_first: string | null;
  rb_last: string | null;
};

/** The invoice's lines as `toLine` reads them, in position order. */
function lineRowsOf(q: Queryable, invoiceId: string) {
  return q.execute<LineRow>(sql`select il.id, il.position, il.act_id, il.code, il.label_fr, il.label_en,
      il.category, il.performed_act_id, il.quantity, il.unit_price, il.discount, il.discount_reason,
      db.id as db_id, db.first_name as db_first, db.last_name as db_last, il.total, il.payer_share,
      il.patient_share, il.removed_at, il.removed_reason, rb.id as rb_id, rb.first_name as rb_first,
      rb.last_name as rb_last
    from invoice_lines il left join users db on db.id = il.discount_by left join users rb on rb.id = il.removed_by
    where il.invoice_id = ${invoiceId} order by il.position`);
}

export async function linesOf(q: Queryable, invoiceId: string): Promise<TInvoiceLine[]> {
  return (await lineRowsOf(q, invoiceId)).rows.map(toLine);
}

export function toLine(r: LineRow): TInvoiceLine {
  return {
    id: r.id,
    position: Number(r.position),
    act: { id: r.act_id, code: r.code, label_fr: r.label_fr, label_en: r.label_en, category: r.category },
    performed_act: r.performed_act_id,
    quantity: Number(r.quantity),
    unit_price: num(r.unit_price),
    gross: Number(r.quantity) * num(r.unit_price),
    discount: num(r.discount),
    discount_reason: r.discount_reason,
    discount_by: ref(r.db_id, r.db_first, r.db_last),
    total: num(r.total),
    payer_share: num(r.payer_share),
    patient_share: num(r.patient_share),
    is_removed: r.removed_at !== null,
    removed_reason: r.removed_reason,
    removed_by: ref(r.rb_id, r.rb_first, r.rb_last),
    removed_at: iso(r.removed_at),
  };
}

// Payments ----------------------------------------------------------------------------------------------

type PaymentRow = {
  id: string;
  invoice_id: string;
  invoice_number: string | null;
  kind: TPayment['kind'];
  method: TPayment['method'];
  operator: TPayment['operator'];
  phone: string | null;
  reference: string | null;
  currency: string;
  amount: string | number;
  rate: string | null;
  amount_invoice: string | number;
  refunded_payment_id: string | null;
  note: string | null;
  reason: string | null;
  is_deposit: boolean;
  /** A deposit or the refund of one (`DEPOSIT_OR_ITS_REFUND`): its receipt names the stay. */
  of_deposit: boolean;
  amount_tendered: string | number | null;
  change_due: string | number | null;
  cash_session_id: string;
  received_by: string;
  rb_first: string;
  rb_last: string;
  received_at: string | Date;
  receipt_id: string;
  receipt_number: string;
};

/** A deposit or the refund of one (decision 0036): what a stay's deposits panel lists and its receipts name. */
const DEPOSIT_OR_ITS_REFUND = sql`(pm.is_deposit or exists (select 1 from payments d
  where d.id = pm.refunded_payment_id and d.is_deposit))`;

const PAYMENT_SELECT = sql`select pm.id, pm.invoice_id, i.number as invoice_number, pm.kind, pm.method, pm.operator,
    pm.phone, pm.reference, pm.currency, pm.amount, pm.rate::text as rate, pm.amount_invoice,
    pm.refunded_payment_id, pm.note, pm.reason, pm.is_deposit, ${DEPOSIT_OR_ITS_REFUND} as of_deposit, pm.amount_tendered, pm.change_due, pm.cash_session_id,
    pm.received_by, u.first_name as rb_first,
    u.last_name as rb_last, pm.received_at, r.id as receipt_id, r.number as receipt_number
  from payments pm join invoices i on i.id = pm.invoice_id join users u on u.id = pm.received_by
  join receipts r on r.payment_id = pm.id`;

/** `655.95700000` → `655.957`. */
const trimRate = (rate: string | null) =>
  rate === null ? null : rate.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

export function toPayment(r: PaymentRow): TPayment {
  return {
    id: r.id,
    kind: r.kind,
    method: r.method,
    operator: r.operator,
    currency: r.currency,
    amount: num(r.amount),
    rate: trimRate(r.rate),
    amount_invoice_currency: num(r.amount_invoice),
    reference: r.reference,
    is_deposit: r.is_deposit === true,
    receipt: { id: r.receipt_id, number: r.receipt_number },
    received_by: { id: r.received_by, full_name: fullName(r.rb_first, r.rb_last) },
    received_at: isoRequired(r.received_at),
    invoice: { id: r.invoice_id, number: r.invoice_number },
    phone: r.phone,
    note: r.note,
    reason: r.reason,
    refunded_payment: r.refunded_payment_id,
    cash_session: r.cash_session_id,
    amount_tendered: r.amount_tendered === null ? null : num(r.amount_tendered),
    change_due: r.change_due === null ? null : num(r.change_due),
  };
}

function toSummary(r: PaymentRow): TPaymentSummary {
  const p = toPayment(r);
  return {
    id: p.id,
    kind: p.kind,
    method: p.method,
    operator: p.operator,
    currency: p.currency,
    amount: p.amount,
    rate: p.rate,
    amount_invoice_currency: p.amount_invoice_currency,
    reference: p.reference,
    is_deposit: p.is_deposit,
    receipt: p.receipt,
    received_by: p.received_by,
    received_at: p.received_at,
  };
}

export async function paymentsOf(q: Queryable, invoiceId: string): Promise<TPaymentSummary[]> {
  const res = await q.execute<PaymentRow>(sql`${PAYMENT_SELECT} where pm.invoice_id = ${invoiceId}
    order by pm.received_at, pm.id`);
  return res.rows.map(toSummary);
}

/** The deposits taken on an invoice and their refunds (decision 0036). */
export async function depositsOfInvoice(q: Queryable, invoiceId: string): Promise<TPaymentSummary[]> {
  const res = await q.execute<PaymentRow>(sql`${PAYMENT_SELECT} where pm.invoice_id = ${invoiceId}
      and ${DEPOSIT_OR_ITS_REFUND}
    order by pm.received_at, pm.id`);
  return res.rows.map(toSummary);
}

export async function findPaymentByReceipt(q: Queryable, hospitalId: string, receiptId: string) {
  const res = await q.execute<PaymentRow & { issued_at: string | Date; patient_id: string }>(
    sql`${PAYMENT_SELECT} where pm.hospital_id = ${hospitalId} and r.id = ${receiptId}`,
  );
  return res.rows[0] ?? null;
}

export async function findPayment(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<PaymentRow>(
    sql`${PAYMENT_SELECT} where pm.hospital_id = ${hospitalId} and pm.id = ${id}`,
  );
  return res.rows[0] ?? null;
}

/** What the invoice's pending mobile-money requests ask for, in its currency (issue 36). */
export async function pendingMobileMoney(q: Queryable, invoiceId: string): Promise<number> {
  const res = await q.execute<{ total: string | number }>(
    sql`select coalesce(sum(amount), 0) as total from mobile_money_requests
      where invoice_id = ${invoiceId} and status = 'pending'`,
  );
  return Number(res.rows[0]?.total ?? 0);
}

/**
 * A visit's draft drawn up before the visit led to a stay becomes the stay's draft (issue 37): the same invoice,
 * refreshed, then carries the bed-days and the stay's medicines beside the consultation it already held. Nothing
 * moves when the stay already has a live invoice (the unique index on a stay's live invoice holds under a race).
 * Answers the draft moved, if any.
 */
export async function moveVisitDraftToStay(
  q: Queryable,
  hospitalId: string,
  admissionId: string,
  stayId: string,
) {
  const res = await q.execute<{ id: string }>(sql`update invoices set admission_id = null,
      hospitalization_id = ${stayId}, updated_at = now()
    where hospital_id = ${hospitalId} and admission_id = ${admissionId} and kind = 'invoice' and status = 'draft'
      and not exists (select 1 from invoices o where o.hospitalization_id = ${stayId} and ${liveInvoice('o')})
    returning id`);
  return res.rows[0]?.id ?? null;
}

/**
 * A draft is out of date (issue 37) when its visit or stay has moved on since it was last assembled: a dispensing of
 * its orders, an exam validated, a consultation completed, a new bed-day or the discharge, or its visit led to a
 * stay (the stay bills it now). The cashier is told and refreshes it.
 */
export async function draftOutOfDate(q: Queryable, invoiceId: string) {
  const res = await q.execute<{ stale: boolean }>(sql`select i.status = 'draft' and (
      exists (select 1 from stock_movements sm join prescriptions pr on pr.id = sm.prescription_id
        where sm.kind = 'dispense' and sm.at > i.updated_at and pr.patient_id = i.patient_id
          and (case when st.id is not null then ${prescriptionOfStay('pr', sql`st.id`, sql`st.admission_id`)}
            else pr.hospitalization_id is null and pr.consultation_id in
              (select c.id from consultations c where c.admission_id = i.admission_id) end))
      or exists (select 1 from exam_orders eo where eo.patient_id = i.patient_id and eo.status = 'validated'
          and eo.validated_at > i.updated_at
          and (case when st.id is not null then ${examOfStay('eo', 'st')}
            else eo.admission_id = i.admission_id end))
      or exists (select 1 from consultations c where c.admission_id = coalesce(i.admission_id, st.admission_id)
          and c.status = 'completed' and c.completed_at > i.updated_at)
      or (st.id is not null and st.admitted_at is not null and (st.ended_at > i.updated_at
          or (st.ended_at is null and (now() at time zone h.time_zone)::date > (i.updated_at at time zone h.time_zone)::date)))
      or (i.admission_id is not null and exists (select 1 from hospitalizations vs where vs.admission_id = i.admission_id))
    ) as stale
    from invoices i join hospitals h on h.id = i.hospital_id
    left join hospitalizations st on st.id = i.hospitalization_id
    where i.id = ${invoiceId}`);
  return Boolean(res.rows[0]?.stale);
}
