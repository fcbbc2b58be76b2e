import {
  documentNumber,
  type MobileMoneyOperator,
  NUMBER_PREFIXES,
  type PaymentMethod,
  type TCashSession,
  type TCashSessionClose,
  type TCashSessionOpen,
  type TCashSessionReport,
  type TCurrencyAmount,
  type TPaymentCreate,
  type TReceipt,
} from '@greensen/shared/contracts/billing';
import { convertMinor } from '@greensen/shared/domain/money';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { cashSessions, payments, receipts } from '../../db/schema/index.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { hospitalToday } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import { isBillingManager, requireBillingReader, requireBillingStaff } from './billing.access.js';
import {
  balanceOf,
  findInvoice,
  findPayment,
  findPaymentByReceipt,
  lockInvoice,
  pendingMobileMoney,
  toPayment,
} from './billing.repository.js';
import { rateInForce } from './exchange-rates.service.js';

interface SessionRow {
  [column: string]: unknown;
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
}

const SESSION_SELECT = sql`select cs.id, cs.cashier_id, u.first_name as c_first, u.last_name as c_last, cs.status,
  cs.opened_at, cs.closed_at, cs.floats, cs.counted, cs.note
  from cash_sessions cs join users u on u.id = cs.cashier_id`;

/** A payment to insert (`insertPayment`): the amount in its currency and in the invoice's. */
export interface NewPayment {
  sessionId: string;
  receivedBy: string;
  method: PaymentMethod;
  operator: MobileMoneyOperator | null;
  phone: string | null;
  reference: string | null;
  currency: string;
  amount: number;
  rate: string | null;
  amountInvoice: number;
  note: string | null;
  isDeposit: boolean;
}

type LockedInvoice = NonNullable<Awaited<ReturnType<typeof lockInvoice>>>;

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

/**
 * Payments, refunds and receipts, and the cash desk's sessions (issue 21, decision 0027). A payment is taken in
 * the cashier's open session (the database refuses it otherwise), under the invoice's row lock; its transaction
 * reference is unique per hospital and operator (a second one is a 409, by the unique index); its receipt is
 * numbered from the hospital's gap-free `receipt:<year>` sequence in the same transaction.
 */
export class PaymentsService {
  constructor(private readonly app: FastifyInstance) {}

  /** The caller's open cash session in the hospital (409 when none). */
  async openSessionOf(q: Queryable, ctx: ServiceContext): Promise<string> {
    const res = await q.execute<{ id: string }>(sql`select id from cash_sessions
      where hospital_id = ${scopedHospital(ctx).id} and cashier_id = ${actingUser(ctx).id} and status = 'open'`);
    if (!res.rows[0]) throw conflict('billing.no_open_session');
    return res.rows[0].id;
  }

  private async receipt(tx: Tx, ctx: ServiceContext, paymentId: string) {
    const hospital = scopedHospital(ctx);
    const year = (await hospitalToday(tx, hospital.id)).slice(0, 4);
    const n = await nextSequenceValue(tx, hospital.id, `receipt:${year}`);
    const number = documentNumber(NUMBER_PREFIXES.receipt, hospital.code, Number(year), n);
    const [r] = await tx
      .insert(receipts)
      .values({ hospitalId: hospital.id, number, paymentId })
      .returning({ id: receipts.id });
    return { id: r!.id, number };
  }

  /**
   * `POST /api/payments/`: on a draft (an advance) or an issued invoice, never above what is left to pay. A
   * deposit (`POST /api/hospitalizations/{id}/deposits/`, decision 0036) is a payment flagged `is_deposit` on the
   * stay's draft invoice: only a draft takes one (an issued invoice takes payments).
   */
  async record(
    ctx: ServiceContext,
    body: TPaymentCreate,
    opts: { deposit?: boolean } = {},
  ): Promise<TReceipt> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    try {
      const receiptId = await this.app.db.transaction(async (tx) => {
        const inv = await lockInvoice(tx, hospital.id, body.invoice);
        if (!inv) throw notFound('billing.invoice_unknown');
        await requireBillingStaff(tx, ctx);
        if (inv.kind !== 'invoice' || inv.status === 'cancelled') throw conflict('billing.not_payable');
        if (opts.deposit && inv.status !== 'draft') throw conflict('billing.deposit_after_issue');
        const session = await this.openSessionOf(tx, ctx);
        const currency = body.currency ?? inv.currency;
        const foreign = currency !== inv.currency;
        // The rate typed by the cashier, else the hospital's rate of the day (decision 0040).
        const rate = foreign
          ? (body.rate ??
            (await rateInForce(tx, hospital.id, currency, inv.currency, await hospitalToday(tx, hospital.id)))
              ?.rate)
          : null;
        if (foreign && !rate) throw badRequest({ rate: ['billing.rate_required'] });
        const amountInvoice = rate ? convertMinor(body.amount, currency, rate, inv.currency) : body.amount;
        if (inv.status === 'issued' && amountInvoice > balanceOf(inv))
          throw conflict('billing.overpayment', {
            balance: { money: balanceOf(inv), currency: inv.currency },
          });
        // Issue 36: money may be on its way from a phone; the cashier confirms before taking more.
        if (!body.confirm_pending) {
          const pending = await pendingMobileMoney(tx, inv.id);
          if (pending > 0)
            throw new ApiError(409, 'billing.mobile_money_pending', {
              code: 'mobile_money_pending',
              params: { amount: { money: pending, currency: inv.currency } },
              body: { pending_amount: pending },
            });
        }
        const { receipt } = await this.insertPayment(tx, ctx, inv, {
          sessionId: session,
          receivedBy: user.id,
          method: body.method,
          operator: body.operator ?? null,
          phone: body.phone ?? null,
          reference: body.reference ?? null,
          currency,
          amount: body.amount,
          rate: rate ?? null,
          amountInvoice,
          note: body.note ?? null,
          isDeposit: opts.deposit === true,
        });
        return receipt.id;
      });
      return this.receiptOf(ctx, receiptId);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('billing.reference_taken');
      throw err;
    }
  }

  /**
   * Inserts a payment on a locked invoice with its receipt, adds it to what is paid and audits it, in `tx`: the
   * cashier's payments (`record`) and the mobile-money confirmations (`MobileMoneyService`) alike.
   */
  async insertPayment(
    tx: Tx,
    ctx: ServiceContext,
    inv: LockedInvoice,
    p: NewPayment,
  ): Promise<{ paymentId: string; receipt: { id: string; number: string } }> {
    const [row] = await tx
      .insert(payments)
      .values({
        hospitalId: scopedHospital(ctx).id,
        invoiceId: inv.id,
        cashSessionId: p.sessionId,
        kind: 'payment',
        method: p.method,
        operator: p.operator,
        phone: p.phone,
        reference: p.reference,
        currency: p.currency,
        amount: p.amount,
        rate: p.rate,
        amountInvoice: p.amountInvoice,
        note: p.note,
        isDeposit: p.isDeposit,
        receivedBy: p.receivedBy,
      })
      .returning({ id: payments.id });
    await tx.execute(
      sql`update invoices set paid = paid + ${p.amountInvoice}, updated_at = now() where id = ${inv.id}`,
    );
    const receipt = await this.receipt(tx, ctx, row!.id);
    await this.app.audit.record(
      ctx,
      {
        action: p.isDeposit ? 'deposit.create' : 'payment.create',
        resourceType: 'payment',
        resourceId: row!.id,
        patientId: inv.patient_id,
        details: {
          invoice: inv.id,
          ...(p.isDeposit ? { hospitalization: inv.hospitalization_id } : {}),
          method: p.method,
          operator: p.operator,
          currency: p.currency,
          amount: p.amount,
          receipt: receipt.number,
        },
      },
      tx,
    );
    return { paymentId: row!.id, receipt };
  }

  /** A refund: a negative movement of a payment's method and currency (at its rate), with a reason. */
  async refund(ctx: ServiceContext, paymentId: string, amount: number, reason: string): Promise<TReceipt> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    const receiptId = await this.app.db.transaction(async (tx) => {
      const original = await findPayment(tx, hospital.id, paymentId);
      if (!original) throw notFound();
      const inv = await lockInvoice(tx, hospital.id, original.invoice_id);
      if (!inv) throw notFound();
      await requireBillingStaff(tx, ctx);
      if (original.kind !== 'payment') throw conflict('billing.not_refundable');
      const session = await this.openSessionOf(tx, ctx);
      const done = await tx.execute<{ amount: string; amount_invoice: string }>(sql`select
          coalesce(-sum(amount), 0) as amount, coalesce(-sum(amount_invoice), 0) as amount_invoice
        from payments where refunded_payment_id = ${paymentId}`);
      const left = Number(original.amount) - Number(done.rows[0]!.amount);
      if (amount > left)
        throw conflict('billing.refund_above_payment', {
          left: { money: left, currency: original.currency },
        });
      const leftInvoice = Number(original.amount_invoice) - Number(done.rows[0]!.amount_invoice);
      const amountInvoice =
        amount === left
          ? leftInvoice
          : original.currency === inv.currency
            ? amount
            : convertMinor(amount, original.currency, original.rate!, inv.currency);
      const [p] = await tx
        .insert(payments)
        .values({
          hospitalId: hospital.id,
          invoiceId: inv.id,
          cashSessionId: session,
          kind: 'refund',
          method: original.method,
          operator: original.operator,
          phone: original.phone,
          reference: original.reference,
          currency: original.currency,
          amount: -amount,
          rate: original.rate,
          amountInvoice: -Math.min(amountInvoice, leftInvoice),
          refundedPaymentId: paymentId,
          reason,
          receivedBy: user.id,
        })
        .returning({ id: payments.id });
      await tx.execute(sql`update invoices set paid = paid - ${Math.min(amountInvoice, leftInvoice)},
        updated_at = now() where id = ${inv.id}`);
      const receipt = await this.receipt(tx, ctx, p!.id);
      await this.app.audit.record(
        ctx,
        {
          action: 'payment.refund',
          resourceType: 'payment',
          resourceId: p!.id,
          patientId: inv.patient_id,
          details: {
            payment: paymentId,
            amount,
            currency: original.currency,
            reason,
            receipt: receipt.number,
          },
        },
        tx,
      );
      return receipt.id;
    });
    return this.receiptOf(ctx, receiptId);
  }

  private async receiptOf(ctx: ServiceContext, receiptId: string): Promise<TReceipt> {
    const hospital = scopedHospital(ctx);
    const row = await findPaymentByReceipt(this.app.db, hospital.id, receiptId);
    if (!row) throw notFound();
    const inv = await findInvoice(this.app.db, hospital.id, row.invoice_id);
    const h = await this.app.db.execute<{ name: string; code: string }>(
      sql`select name, code from hospitals where id = ${hospital.id}`,
    );
    const issued = await this.app.db.execute<{ issued_at: string | Date }>(
      sql`select issued_at from receipts where id = ${receiptId}`,
    );
    return {
      id: receiptId,
      number: row.receipt_number,
      issued_at: isoRequired(issued.rows[0]!.issued_at),
      hospital: { id: hospital.id, name: h.rows[0]!.name, code: h.rows[0]!.code },
      patient: {
        id: inv!.patient_id,
        record_number: inv!.p_record_number,
        full_name: fullName(inv!.p_first_name, inv!.p_last_name),
      },
      invoice: {
        id: inv!.id,
        number: inv!.number,
        currency: inv!.currency,
        patient_share: Number(inv!.patient_share) + Number(inv!.credited_patient_share),
        paid: Number(inv!.paid),
        balance: balanceOf(inv!),
      },
      payment: toPayment(row),
    };
  }

  /** `GET /api/receipts/{id}/` (printable): billing staff and the management; audited. */
  async readReceipt(ctx: ServiceContext, receiptId: string): Promise<TReceipt> {
    const hospital = scopedHospital(ctx);
    const row = await findPaymentByReceipt(this.app.db, hospital.id, receiptId);
    if (!row) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    const receipt = await this.receiptOf(ctx, receiptId);
    await this.app.audit.record(ctx, {
      action: 'receipt.read',
      resourceType: 'receipt',
      resourceId: receiptId,
      patientId: receipt.patient.id,
    });
    return receipt;
  }

  // Cash sessions ------------------------------------------------------------------------------------------

  async open(ctx: ServiceContext, body: TCashSessionOpen): Promise<TCashSession> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await requireBillingStaff(this.app.db, ctx);
    try {
      const id = await this.app.db.transaction(async (tx) => {
        const [s] = await tx
          .insert(cashSessions)
          .values({ hospitalId: hospital.id, cashierId: user.id, floats: body.floats ?? [] })
          .returning({ id: cashSessions.id });
        await this.app.audit.record(
          ctx,
          {
            action: 'cash_session.open',
            resourceType: 'cash_session',
            resourceId: s!.id,
            details: { floats: body.floats ?? [] },
          },
          tx,
        );
        return s!.id;
      });
      return (await this.find(this.app.db, hospital.id, id))!;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('billing.session_already_open');
      throw err;
    }
  }

  private async find(q: Queryable, hospitalId: string, id: string, lock = false) {
    const res =
      await q.execute<SessionRow>(sql`${SESSION_SELECT} where cs.hospital_id = ${hospitalId} and cs.id = ${id}
      ${lock ? sql`for update of cs` : sql``}`);
    return res.rows[0] ? toSession(res.rows[0]) : null;
  }

  async current(ctx: ServiceContext): Promise<TCashSession> {
    const hospital = scopedHospital(ctx);
    await requireBillingStaff(this.app.db, ctx);
    const res = await this.app.db.execute<SessionRow>(sql`${SESSION_SELECT}
      where cs.hospital_id = ${hospital.id} and cs.cashier_id = ${actingUser(ctx).id} and cs.status = 'open'`);
    if (!res.rows[0]) throw notFound('billing.no_open_session');
    return toSession(res.rows[0]);
  }

  /** Sessions, newest first: billing staff see their own, the head doctor and administrators everyone's. */
  async list(
    ctx: ServiceContext,
    f: { status?: 'open' | 'closed' | undefined; cashier?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const where: SQL[] = [sql`cs.hospital_id = ${hospital.id}`];
    if (!isBillingManager(ctx)) where.push(sql`cs.cashier_id = ${actingUser(ctx).id}`);
    else if (f.cashier) where.push(sql`cs.cashier_id = ${f.cashier}`);
    if (f.status) where.push(sql`cs.status = ${f.status}`);
    const cond = sql.join(where, sql` and `);
    const [rows, count] = await Promise.all([
      this.app.db.execute<SessionRow>(sql`${SESSION_SELECT} where ${cond} order by cs.opened_at desc, cs.id
        limit ${pageSize} offset ${(page - 1) * pageSize}`),
      this.app.db.execute<{ n: number }>(sql`select count(*)::int as n from cash_sessions cs where ${cond}`),
    ]);
    return { rows: rows.rows.map(toSession), count: Number(count.rows[0]?.n ?? 0) };
  }

  /** Closes the caller's own open session with the cash counted per currency; the report shows the variance. */
  async close(ctx: ServiceContext, id: string, body: TCashSessionClose): Promise<TCashSessionReport> {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const s = await this.find(tx, hospital.id, id, true);
      if (!s) throw notFound();
      await requireBillingStaff(tx, ctx);
      if (s.cashier.id !== actingUser(ctx).id) throw forbidden('billing.not_your_session');
      if (s.status !== 'open') throw conflict('billing.session_closed');
      await tx.execute(sql`update cash_sessions set status = 'closed', closed_at = now(),
        counted = ${JSON.stringify(body.counted)}::jsonb, note = ${body.note ?? null} where id = ${id}`);
      await this.app.audit.record(
        ctx,
        {
          action: 'cash_session.close',
          resourceType: 'cash_session',
          resourceId: id,
          details: { counted: body.counted },
        },
        tx,
      );
    });
    return this.reportOf(this.app.db, hospital.id, id);
  }

  async report(ctx: ServiceContext, id: string): Promise<TCashSessionReport> {
    const hospital = scopedHospital(ctx);
    const s = await this.find(this.app.db, hospital.id, id);
    if (!s) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    // Decision 0027 (issue 36): a cashier reads her own sessions only, as she lists them; the head doctor and the
    // administrators read every cashier's.
    if (!isBillingManager(ctx) && s.cashier.id !== actingUser(ctx).id)
      throw forbidden('billing.not_your_session_report');
    return this.reportOf(this.app.db, hospital.id, id);
  }

  private async reportOf(q: Queryable, hospitalId: string, id: string): Promise<TCashSessionReport> {
    const session = (await this.find(q, hospitalId, id))!;
    const res = await q.execute<{
      method: string;
      operator: string | null;
      currency: string;
      kind: string;
      n: number;
      total: string;
    }>(
      sql`select method, operator, currency, kind, count(*)::int as n, sum(amount) as total
        from payments where cash_session_id = ${id} group by method, operator, currency, kind
        order by method, operator nulls first, currency, kind`,
    );
    const cash = new Map<string, { float: number; received: number; refunded: number }>();
    const entry = (c: string) => {
      const e = cash.get(c) ?? { float: 0, received: 0, refunded: 0 };
      cash.set(c, e);
      return e;
    };
    for (const f of session.floats) entry(f.currency).float += f.amount;
    for (const c of session.counted ?? []) entry(c.currency);
    const byMethod = new Map<string, TCashSessionReport['by_method'][number]>();
    for (const r of res.rows) {
      const total = Number(r.total);
      if (r.method === 'cash') {
        if (r.kind === 'payment') entry(r.currency).received += total;
        else entry(r.currency).refunded -= total;
      }
      const key = `${r.method}|${r.operator ?? ''}|${r.currency}`;
      const m = byMethod.get(key) ?? {
        method: r.method as TCashSessionReport['by_method'][number]['method'],
        operator: r.operator as TCashSessionReport['by_method'][number]['operator'],
        currency: r.currency,
        count: 0,
        total: 0,
      };
      m.count += Number(r.n);
      m.total += total;
      byMethod.set(key, m);
    }
    const counted = new Map((session.counted ?? []).map((c) => [c.currency, c.amount]));
    return {
      session,
      cash: [...cash.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, e]) => {
          const expected = e.float + e.received - e.refunded;
          const c = session.counted ? (counted.get(currency) ?? 0) : null;
          return {
            currency,
            float: e.float,
            received: e.received,
            refunded: e.refunded,
            expected,
            counted: c,
            variance: c === null ? null : c - expected,
          };
        }),
      by_method: [...byMethod.values()],
    };
  }
}
