import type { MobileMoneyOperator, TMobileMoneyRequest } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { mobileMoneyRequests, mobileMoneySecrets } from '../../db/schema/index.js';
import { iso, isoRequired } from '../../lib/clinical.js';

// The SQL of mobile-money requests and the operators' callback secrets (issue 21, decision 0040); the rules are in
// mobile-money.service.ts.

type RequestRow = {
  id: string;
  hospital_id: string;
  invoice_id: string;
  operator: MobileMoneyOperator;
  phone: string;
  currency: string;
  amount: string | number;
  status: TMobileMoneyRequest['status'];
  requested_by: string;
  cash_session_id: string;
  provider_reference: string | null;
  payment_id: string | null;
  receipt_id: string | null;
  receipt_number: string | null;
  failure_reason: string | null;
  created_at: string | Date;
  completed_at: string | Date | null;
};

const REQUEST_SELECT = sql`select m.id, m.hospital_id, m.invoice_id, m.operator, m.phone, m.currency, m.amount,
  m.status, m.requested_by, m.cash_session_id, m.provider_reference, m.payment_id, rc.id as receipt_id,
  rc.number as receipt_number, m.failure_reason, m.created_at, m.completed_at
  from mobile_money_requests m left join receipts rc on rc.payment_id = m.payment_id`;

export function toRequest(r: RequestRow): TMobileMoneyRequest {
  return {
    id: r.id,
    invoice: r.invoice_id,
    operator: r.operator,
    phone: r.phone,
    currency: r.currency,
    amount: Number(r.amount),
    status: r.status,
    provider_reference: r.provider_reference,
    payment:
      r.payment_id && r.receipt_id && r.receipt_number
        ? { id: r.payment_id, receipt: { id: r.receipt_id, number: r.receipt_number } }
        : null,
    failure_reason: r.failure_reason,
    created_at: isoRequired(r.created_at),
    completed_at: iso(r.completed_at),
  };
}

/** A request (locked with `lock`), or null. */
export async function findMoneyRequest(
  q: Queryable,
  id: string,
  lock = false,
): Promise<TMobileMoneyRequest | null> {
  const res = await q.execute<RequestRow>(
    sql`${REQUEST_SELECT} where m.id = ${id} ${lock ? sql`for update of m` : sql``}`,
  );
  return res.rows[0] ? toRequest(res.rows[0]) : null;
}

export async function insertMoneyRequest(
  q: Queryable,
  values: typeof mobileMoneyRequests.$inferInsert,
): Promise<string> {
  const [row] = await q.insert(mobileMoneyRequests).values(values).returning({ id: mobileMoneyRequests.id });
  return row!.id;
}

/** The hospital and operator of a request, or null (a callback's first check, before any secret is read). */
export async function moneyRequestTarget(q: Queryable, id: string) {
  const facts = await q.execute<{ hospital_id: string; operator: MobileMoneyOperator }>(
    sql`select hospital_id, operator from mobile_money_requests where id = ${id}`,
  );
  return facts.rows[0] ?? null;
}

/** Who asked for a request (the cashier the callback acts for). */
export async function moneyRequestCashier(q: Queryable, id: string): Promise<string> {
  const owner = await q.execute<{ requested_by: string }>(
    sql`select requested_by from mobile_money_requests where id = ${id}`,
  );
  return owner.rows[0]!.requested_by;
}

/** Records a request's outcome as the operator told it. */
export async function completeMoneyRequest(
  q: Queryable,
  id: string,
  o: { status: string; reference: string; paymentId: string | null; failure: string | null },
) {
  await q.execute(sql`update mobile_money_requests set status = ${o.status},
    provider_reference = ${o.reference}, payment_id = ${o.paymentId},
    failure_reason = ${o.failure}, completed_at = now() where id = ${id}`);
}

/** The encrypted callback secret of a hospital for an operator, or null. */
export async function operatorSecret(q: Queryable, hospitalId: string, operator: MobileMoneyOperator) {
  const res = await q.execute<{ secret_encrypted: string }>(sql`select secret_encrypted
    from mobile_money_secrets where hospital_id = ${hospitalId} and operator = ${operator}`);
  return res.rows[0]?.secret_encrypted ?? null;
}

/** Sets or replaces a hospital's encrypted callback secret for an operator. */
export async function upsertOperatorSecret(
  q: Queryable,
  hospitalId: string,
  operator: MobileMoneyOperator,
  secretEncrypted: string,
) {
  await q
    .insert(mobileMoneySecrets)
    .values({ hospitalId, operator, secretEncrypted })
    .onConflictDoUpdate({
      target: [mobileMoneySecrets.hospitalId, mobileMoneySecrets.operator],
      set: { secretEncrypted, updatedAt: new Date() },
    });
}

/** A hospital's name and code (the system context of a callback). */
export async function hospitalNameAndCode(q: Queryable, hospitalId: string) {
  const hospital = await q.execute<{ name: string; code: string }>(
    sql`select name, code from hospitals where id = ${hospitalId}`,
  );
  return hospital.rows[0];
}
