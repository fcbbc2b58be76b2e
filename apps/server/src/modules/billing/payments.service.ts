import {
  documentNumber,
  type MobileMoneyOperator,
  NUMBER_PREFIXES,
  type PaymentMethod,
  type TCashSession,
  type TCashSessionClose,
  type TCashSessionOpen,
  type TCashSessionReport,
  type TPaymentCreate,
  type TReceipt,
} from '@greensen/shared/contracts/billing';
import { changeDue, convertMinor } from '@greensen/shared/domain/money';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
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
import { depositStayOf } from './deposits.repository.js';
import { rateInForce } from './exchange-rates.repository.js';
import { hospitalNameAndCode } from './mobile-money.repository.js';
import {
  addToInvoicePaid,
  closeCashSession,
  findCashSession,
  findOpenSessionOfCashier,
  insertCashSession,
  insertPaymentRow,
  insertReceipt,
  listCashSessions,
  openSessionOfCashier,
  receiptIssuedAt,
  refundedSoFar,
  sessionTotals,
} from './payments.repository.js';

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
  /** Cash: what the patient handed over (decision 0079); the change due is computed from it. */
  amountTendered?: number | null;
}

type LockedInvoice = NonNullable<Awaited<ReturnType<typeof lockInvoice>>>;

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
    const id = await openSessionOfCashier(q, scopedHospital(ctx).id, actingUser(ctx).id);
    if (!id) throw conflict('billing.no_open_session');
    return id;
  }

  private async receipt(tx: Tx, ctx: ServiceContext, paymentId: string) {
    const hospital = scopedHospital(ctx);
    const year = (await hospitalToday(tx, hospital.id)).slice(0, 4);
    const n = await nextSequenceValue(tx, hospital.id, `receipt:${year}`);
    const number = documentNumber(NUMBER_PREFIXES.receipt, hospital.code, Number(year), n);
    return { id: await insertReceipt(tx, hospital.id, number, paymentId), number };
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
          amountTendered: body.amount_tendered ?? null,
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
    // Decision 0079: the change is the server's figure (the request's schema refused what does not cover it).
    const tendered = p.method === 'cash' ? (p.amountTendered ?? null) : null;
    const paymentId = await insertPaymentRow(tx, {
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
      amountTendered: tendered,
      changeDue: changeDue(p.amount, tendered),
      receivedBy: p.receivedBy,
    });
    await addToInvoicePaid(tx, inv.id, p.amountInvoice);
    const receipt = await this.receipt(tx, ctx, paymentId);
    await this.app.audit.record(
      ctx,
      {
        action: p.isDeposit ? 'deposit.create' : 'payment.create',
        resourceType: 'payment',
        resourceId: paymentId,
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
    return { paymentId, receipt };
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
      const done = await refundedSoFar(tx, paymentId);
      const left = Number(original.amount) - done.amount;
      if (amount > left)
        throw conflict('billing.refund_above_payment', {
          left: { money: left, currency: original.currency },
        });
      const leftInvoice = Number(original.amount_invoice) - done.amountInvoice;
      const amountInvoice =
        amount === left
          ? leftInvoice
          : original.currency === inv.currency
            ? amount
            : convertMinor(amount, original.currency, original.rate!, inv.currency);
      const refundId = await insertPaymentRow(tx, {
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
      });
      await addToInvoicePaid(tx, inv.id, -Math.min(amountInvoice, leftInvoice));
      const receipt = await this.receipt(tx, ctx, refundId);
      await this.app.audit.record(
        ctx,
        {
          action: 'payment.refund',
          resourceType: 'payment',
          resourceId: refundId,
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
    const h = (await hospitalNameAndCode(this.app.db, hospital.id))!;
    return {
      id: receiptId,
      number: row.receipt_number,
      issued_at: await receiptIssuedAt(this.app.db, receiptId),
      hospital: { id: hospital.id, name: h.name, code: h.code },
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
      // A deposit, and the refund of one, read as such (decision 0088): the stay rather than the draft's missing
      // number.
      stay:
        row.of_deposit === true && inv!.hospitalization_id
          ? await depositStayOf(this.app.db, hospital.id, inv!.hospitalization_id)
          : null,
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
        const sessionId = await insertCashSession(tx, hospital.id, user.id, body.floats ?? []);
        await this.app.audit.record(
          ctx,
          {
            action: 'cash_session.open',
            resourceType: 'cash_session',
            resourceId: sessionId,
            details: { floats: body.floats ?? [] },
          },
          tx,
        );
        return sessionId;
      });
      return (await findCashSession(this.app.db, hospital.id, id))!;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('billing.session_already_open');
      throw err;
    }
  }

  async current(ctx: ServiceContext): Promise<TCashSession> {
    const hospital = scopedHospital(ctx);
    await requireBillingStaff(this.app.db, ctx);
    const session = await findOpenSessionOfCashier(this.app.db, hospital.id, actingUser(ctx).id);
    if (!session) throw notFound('billing.no_open_session');
    return session;
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
    // A cashier lists her own sessions only, whatever the filter asks.
    const cashier = isBillingManager(ctx) ? f.cashier : actingUser(ctx).id;
    return listCashSessions(
      this.app.db,
      hospital.id,
      { cashier, status: f.status },
      pageSize,
      (page - 1) * pageSize,
    );
  }

  /** Closes the caller's own open session with the cash counted per currency; the report shows the variance. */
  async close(ctx: ServiceContext, id: string, body: TCashSessionClose): Promise<TCashSessionReport> {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const s = await findCashSession(tx, hospital.id, id, true);
      if (!s) throw notFound();
      await requireBillingStaff(tx, ctx);
      if (s.cashier.id !== actingUser(ctx).id) throw forbidden('billing.not_your_session');
      if (s.status !== 'open') throw conflict('billing.session_closed');
      await closeCashSession(tx, id, body.counted, body.note ?? null);
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
    const s = await findCashSession(this.app.db, hospital.id, id);
    if (!s) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    // Decision 0027 (issue 36): a cashier reads her own sessions only, as she lists them; the head doctor and the
    // administrators read every cashier's.
    if (!isBillingManager(ctx) && s.cashier.id !== actingUser(ctx).id)
      throw forbidden('billing.not_your_session_report');
    return this.reportOf(this.app.db, hospital.id, id);
  }

  private async reportOf(q: Queryable, hospitalId: string, id: string): Promise<TCashSessionReport> {
    const session = (await findCashSession(q, hospitalId, id))!;
    const totals = await sessionTotals(q, id);
    const cash = new Map<string, { float: number; received: number; refunded: number }>();
    const entry = (c: string) => {
      const e = cash.get(c) ?? { float: 0, received: 0, refunded: 0 };
      cash.set(c, e);
      return e;
    };
    for (const f of session.floats) entry(f.currency).float += f.amount;
    for (const c of session.counted ?? []) entry(c.currency);
    const byMethod = new Map<string, TCashSessionReport['by_method'][number]>();
    for (const r of totals) {
      const total = Number(r.total);
      if (r.method === 'cash') {
        if (r.kind === 'payment') entry(r.currency).received += total;
        else entry(r.currency).refunded -= total;
      }
      const key = `${r.method}|${r.operator ?? ''}|${r.currency}`;
      const m = byMethod.get(key) ?? {
        method: r.method,
        operator: r.operator,
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
