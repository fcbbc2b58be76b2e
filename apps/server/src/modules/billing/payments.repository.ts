import type { TCashSession, TCashSessionReport, TCurrencyAmount } from '@greensen/shared/contracts/billing';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { cashSessions, payments, receipts } from '../../db/schema/index.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';

// Payments, refunds and receipts ------------------------------------------------------------------------------
// (A payment's reads — `findPayment`, `findPaymentByReceipt`, `toPayment` — are in billing.repository.ts, beside
// the invoice they belong to.)

/** A payment or refund row to insert, as the Drizzle schema has it. */
export type PaymentInsert = typeof payments.$inferInsert;

/** Inserts a payment or refund movement; answers its id. */
export async function insertPaymentRow(q: Queryable, values: PaymentInsert): Promise<string> {
  const [row] = await q.insert(payments).values(values).returning({ id: payments.id });
  return row!.id;
}

/** Adds `amount` (in the invoice's currency; negative for a refund) to what is paid on the invoice. */
export async function addToInvoicePaid(q: Queryable, invoiceId: string, amount: number) {
  await q.execute(
    sql`update invoices set paid = paid + ${amount}, updated_at = now() where id = ${invoiceId}`,
  );
}

/** What the refunds of a payment have given back so far, in its currency and in the invoice's (both ≥ 0). */
export async function refundedSoFar(q: Queryable, paymentId: string) {
  const res = await q.execute<{ amount: string; amount_invoice: string }>(sql`select
      coalesce(-sum(amount), 0) as amount, coalesce(-sum(amount_invoice), 0) as amount_invoice
    from payments where refunded_payment_id = ${paymentId}`);
  return { amount: Number(res.rows[0]!.amount), amountInvoice: Number(res.rows[0]!.amount_invoice) };
}

/** Inserts the numbered receipt of a payment or refund; answers its id. */
export async function insertReceipt(q: Queryable, hospitalId: string, number: string, paymentId: string) {
  const [r] = await q
    .insert(receipts)
    .values({ hospitalId, number, paymentId })
    .returning({ id: receipts.id });
  return r!.id;
}

/** When a receipt was issued. */
export async function receiptIssuedAt(q: Queryable, receiptId: string) {
  const res = await q.execute<{ issued_at: string | Date }>(
    sql`select issued_at from receipts where id = ${receiptId}`,
  );
  return isoRequired(res.rows[0]!.issued_at);
}

// Cash sessions -----------------------------------------------------------------------------------------------

type SessionRow = {
  id: string;
  cashier_id: string;
  c_first: string;
  c_last: string;
  status: 'open' | 'closed';
  opened_at: string | Date;
  closed_at: string | Date | null;
  floats: TCurrencyAmount[] | string;
  counted: TCurrencyAmount[] | string | null;
  note: string | null;
};

/** A cash session with its cashier's name (aliased `cs`), as `toSession` reads it: the one select of a session. */
const SESSION_SELECT = sql`select cs.id, cs.cashier_id, u.first_name as c_first, u.last_name as c_last, cs.status,
  cs.opened_at, cs.closed_at, cs.floats, cs.counted, cs.note
  from cash_sessions cs join users u on u.id = cs.cashier_id`;

const json = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function toSession(r: SessionRow): TCashSession {
  return {
    id: r.id,
    cashier: { id: r.cashier_id, full_name: fullName(r.c_first, r.c_last) },
    status: r.status,
    opened_at: isoRequired(r.opened_at),
    closed_at: iso(r.closed_at),
    floats: json(r.floats) ?? [],
    counted: json(r.counted),
    note: r.note,
  };
}

/** The open cash session of a cashier in the hospital (its id), or null. */
export async function openSessionOfCashier(q: Queryable, hospitalId: string, cashierId: string) {
  const session = await q.execute<{ id: string }>(sql`select id from cash_sessions
    where hospital_id = ${hospitalId} and cashier_id = ${cashierId} and status = 'open'`);
  return session.rows[0]?.id ?? null;
}

/** A cash session of the hospital (locked until the transaction ends with `lock`), or null. */
export async function findCashSession(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res =
    await q.execute<SessionRow>(sql`${SESSION_SELECT} where cs.hospital_id = ${hospitalId} and cs.id = ${id}
      ${lock ? sql`for update of cs` : sql``}`);
  return res.rows[0] ? toSession(res.rows[0]) : null;
}

/** A cashier's open cash session in the hospital, or null. */
export async function findOpenSessionOfCashier(q: Queryable, hospitalId: string, cashierId: string) {
  const res = await q.execute<SessionRow>(sql`${SESSION_SELECT}
      where cs.hospital_id = ${hospitalId} and cs.cashier_id = ${cashierId} and cs.status = 'open'`);
  return res.rows[0] ? toSession(res.rows[0]) : null;
}

/** A page of the hospital's cash sessions, newest first, of one cashier and/or in one status when given. */
export async function listCashSessions(
  q: Queryable,
  hospitalId: string,
  f: { cashier?: string | undefined; status?: 'open' | 'closed' | undefined },
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`cs.hospital_id = ${hospitalId}`];
  if (f.cashier) where.push(sql`cs.cashier_id = ${f.cashier}`);
  if (f.status) where.push(sql`cs.status = ${f.status}`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<SessionRow>(sql`${SESSION_SELECT} where ${cond} order by cs.opened_at desc, cs.id
        limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from cash_sessions cs where ${cond}`),
  ]);
  return { rows: rows.rows.map(toSession), count: Number(count.rows[0]?.n ?? 0) };
}

/** Opens a cashier's session with its floats; answers its id (a second open session breaks a unique index). */
export async function insertCashSession(
  q: Queryable,
  hospitalId: string,
  cashierId: string,
  floats: TCurrencyAmount[],
) {
  const [s] = await q
    .insert(cashSessions)
    .values({ hospitalId, cashierId, floats })
    .returning({ id: cashSessions.id });
  return s!.id;
}

/** Closes a session with the cash counted per currency and the cashier's note. */
export async function closeCashSession(
  q: Queryable,
  id: string,
  counted: TCurrencyAmount[],
  note: string | null,
) {
  await q.execute(sql`update cash_sessions set status = 'closed', closed_at = now(),
        counted = ${JSON.stringify(counted)}::jsonb, note = ${note} where id = ${id}`);
}

/** A session's movements summed per method, operator, currency and kind (payment or refund), in a stable order. */
export async function sessionTotals(q: Queryable, sessionId: string) {
  const res = await q.execute<{
    method: TCashSessionReport['by_method'][number]['method'];
    operator: TCashSessionReport['by_method'][number]['operator'];
    currency: string;
    kind: 'payment' | 'refund';
    n: number;
    total: string;
  }>(
    sql`select method, operator, currency, kind, count(*)::int as n, sum(amount) as total
        from payments where cash_session_id = ${sessionId} group by method, operator, currency, kind
        order by method, operator nulls first, currency, kind`,
  );
  return res.rows;
}
