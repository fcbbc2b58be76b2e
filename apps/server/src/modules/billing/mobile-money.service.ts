import type {
  MobileMoneyOperator,
  TMobileMoneyRequest,
  TMobileMoneyRequestCreate,
} from '@greensen/shared/contracts/billing';
import { ZMobileMoneyCallback } from '@greensen/shared/contracts/billing';
import { minorToDecimal } from '@greensen/shared/domain/money';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { mobileMoneyRequests, mobileMoneySecrets } from '../../db/schema/index.js';
import { iso, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital, systemContext } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound, unauthorized } from '../../lib/errors.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { requireBillingStaff } from './billing.access.js';
import { balanceOf, lockInvoice, pendingMobileMoney } from './billing.repository.js';
import type { MobileMoneyProvider } from './mobile-money.js';
import { verifyCallback } from './mobile-money.js';
import type { PaymentsService } from './payments.service.js';

interface RequestRow {
  [column: string]: unknown;
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
}

const REQUEST_SELECT = sql`select m.id, m.hospital_id, m.invoice_id, m.operator, m.phone, m.currency, m.amount,
  m.status, m.requested_by, m.cash_session_id, m.provider_reference, m.payment_id, rc.id as receipt_id,
  rc.number as receipt_number, m.failure_reason, m.created_at, m.completed_at
  from mobile_money_requests m left join receipts rc on rc.payment_id = m.payment_id`;

function toRequest(r: RequestRow): TMobileMoneyRequest {
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

/**
 * Sets (or replaces) a hospital's callback secret for an operator, encrypted with `SECRETS_KEY` (the CLI's
 * `mobile-money-secret`; decision 0040). The secret is never logged.
 */
export async function storeOperatorSecret(
  db: Queryable,
  secretsKey: string | null,
  hospitalId: string,
  operator: MobileMoneyOperator,
  secret: string,
): Promise<void> {
  if (!secretsKey) throw new Error('SECRETS_KEY is not set: no secret can be stored');
  if (secret.length < 32) throw new Error('A callback secret has at least 32 characters');
  const secretEncrypted = encryptSecret(secretsKey, secret);
  await db
    .insert(mobileMoneySecrets)
    .values({ hospitalId, operator, secretEncrypted })
    .onConflictDoUpdate({
      target: [mobileMoneySecrets.hospitalId, mobileMoneySecrets.operator],
      set: { secretEncrypted, updatedAt: new Date() },
    });
}

/** Every refusal of a callback is the same 401: which check failed is logged, not told. */
const refused = () => unauthorized('billing.callback_refused', 'signature_invalid');

/** What the route hands over of a callback: the operator of the path, the signature headers, the raw body. */
export interface CallbackInput {
  operator: MobileMoneyOperator;
  timestamp: string | undefined;
  signature: string | undefined;
  rawBody: Buffer;
}

/**
 * Mobile money pushed to the payer's phone (issue 21, decision 0040). The cashier's request is recorded pending
 * and handed to the provider; the operator's signed callback confirms it (a payment with its receipt in the
 * requesting cashier's open session, one transaction) or fails it, and the cashier is notified. A callback is
 * handled once: the request's row is locked and only a pending request changes.
 */
export class MobileMoneyService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly payments: PaymentsService,
    private readonly provider: MobileMoneyProvider,
  ) {}

  /** `POST /api/payments/mobile-money/`: billing staff, in their own open session, on a payable invoice. */
  async request(ctx: ServiceContext, body: TMobileMoneyRequestCreate): Promise<TMobileMoneyRequest> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    const { id } = await this.app.db
      .transaction(async (tx) => {
        const inv = await lockInvoice(tx, hospital.id, body.invoice);
        if (!inv) throw notFound('billing.invoice_unknown');
        await requireBillingStaff(tx, ctx);
        if (inv.kind !== 'invoice' || inv.status === 'cancelled') throw conflict('billing.not_payable');
        const session = await this.payments.openSessionOf(tx, ctx);
        // Issue 36: the invoice's row is locked, so requests of one invoice are counted one after the other; what
        // is already pending is set aside from the balance (and the unique index keeps one pending per phone).
        const pending = await pendingMobileMoney(tx, inv.id);
        if (inv.status === 'issued' && body.amount > balanceOf(inv) - pending)
          throw conflict(pending > 0 ? 'billing.mobile_money_over_pending' : 'billing.overpayment', {
            balance: { money: balanceOf(inv), currency: inv.currency },
            available: { money: Math.max(0, balanceOf(inv) - pending), currency: inv.currency },
          });
        const [row] = await tx
          .insert(mobileMoneyRequests)
          .values({
            hospitalId: hospital.id,
            invoiceId: inv.id,
            operator: body.operator,
            phone: body.phone,
            currency: inv.currency,
            amount: body.amount,
            requestedBy: user.id,
            cashSessionId: session,
          })
          .returning({ id: mobileMoneyRequests.id });
        await this.app.audit.record(
          ctx,
          {
            action: 'mobile_money.request',
            resourceType: 'mobile_money_request',
            resourceId: row!.id,
            patientId: inv.patient_id,
            details: {
              invoice: inv.id,
              operator: body.operator,
              amount: body.amount,
              currency: inv.currency,
            },
          },
          tx,
        );
        return { id: row!.id };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict('billing.mobile_money_pending_phone');
        throw err;
      });
    const moneyRequest = (await this.find(this.app.db, id))!;
    // After the commit: the provider (an outbox by default) never sees a request that was rolled back.
    await this.provider.requestPayment({
      requestId: id,
      operator: moneyRequest.operator,
      phone: moneyRequest.phone,
      currency: moneyRequest.currency,
      amount: moneyRequest.amount,
      description: hospital.name,
    });
    return moneyRequest;
  }

  private async find(q: Queryable, id: string, lock = false): Promise<TMobileMoneyRequest | null> {
    const res = await q.execute<RequestRow>(
      sql`${REQUEST_SELECT} where m.id = ${id} ${lock ? sql`for update of m` : sql``}`,
    );
    return res.rows[0] ? toRequest(res.rows[0]) : null;
  }

  /** The hospital's secret for the operator, decrypted; null when there is none or it does not decrypt. */
  private async secretOf(q: Queryable, hospitalId: string, operator: MobileMoneyOperator) {
    const key = this.app.config.secretsKey;
    if (!key) return null;
    const res = await q.execute<{ secret_encrypted: string }>(sql`select secret_encrypted
      from mobile_money_secrets where hospital_id = ${hospitalId} and operator = ${operator}`);
    return res.rows[0] ? decryptSecret(key, res.rows[0].secret_encrypted) : null;
  }

  /**
   * `POST /api/payments/mobile-money/callback/{operator}/` (public). Refused with one 401 unless the body names a
   * request of this operator and the signature of the hospital's secret over `timestamp + "." + raw body` holds
   * within 5 minutes. A request already handled answers 200 with `duplicate` and changes nothing.
   */
  async callback(ctx: ServiceContext, input: CallbackInput) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.rawBody.toString('utf8'));
    } catch {
      throw badRequest({ body: ['billing.callback_body_invalid'] });
    }
    const check = ZMobileMoneyCallback.safeParse(parsed);
    if (!check.success) throw badRequest({ body: ['billing.callback_body_invalid'] });
    const body = check.data;
    const facts = await this.app.db.execute<{ hospital_id: string; operator: MobileMoneyOperator }>(
      sql`select hospital_id, operator from mobile_money_requests where id = ${body.request_id}`,
    );
    const target = facts.rows[0];
    const secret =
      target && target.operator === input.operator
        ? await this.secretOf(this.app.db, target.hospital_id, input.operator)
        : null;
    if (
      !target ||
      !secret ||
      !verifyCallback(secret, input.timestamp, input.signature, input.rawBody, Date.now())
    ) {
      ctx.log.warn(
        {
          operator: input.operator,
          request: body.request_id,
          known: Boolean(target),
          secret: Boolean(secret),
        },
        'mobile-money callback refused',
      );
      throw refused();
    }
    const hospital = await this.app.db.execute<{ name: string; code: string }>(
      sql`select name, code from hospitals where id = ${target.hospital_id}`,
    );
    try {
      return await withNotifications(this.app, async (tx, notify) => {
        const moneyRequest = (await this.find(tx, body.request_id, true))!;
        if (moneyRequest.status !== 'pending') return { status: moneyRequest.status, duplicate: true };
        const owner = await tx.execute<{ requested_by: string }>(
          sql`select requested_by from mobile_money_requests where id = ${moneyRequest.id}`,
        );
        const cashier = owner.rows[0]!.requested_by;
        const work = systemContext({
          source: `mobile-money:${input.operator}`,
          log: ctx.log,
          requestId: ctx.requestId,
          onBehalfOf: cashier,
          rule: 'billing.mobile_money_callback',
          hospital: {
            id: target.hospital_id,
            name: hospital.rows[0]!.name,
            code: hospital.rows[0]!.code,
            roleCodes: [],
            groups: [],
            departmentIds: [],
          },
        });
        if (
          body.status === 'succeeded' &&
          (body.amount !== moneyRequest.amount || body.currency !== moneyRequest.currency)
        )
          throw badRequest({ amount: ['billing.callback_amount_mismatch'] });
        const inv = (await lockInvoice(tx, target.hospital_id, moneyRequest.invoice))!;
        let paymentId: string | null = null;
        let receipt: string | null = null;
        const failure = body.status === 'failed' ? (body.reason ?? 'failed') : null;
        if (body.status === 'succeeded') {
          // The cashier's open session: the one of the request, or the one she opened since.
          const session = await tx.execute<{ id: string }>(sql`select id from cash_sessions
            where hospital_id = ${target.hospital_id} and cashier_id = ${cashier} and status = 'open'`);
          if (session.rows[0]) {
            const done = await this.payments.insertPayment(tx, work, inv, {
              sessionId: session.rows[0].id,
              receivedBy: cashier,
              method: 'mobile_money',
              operator: moneyRequest.operator,
              phone: moneyRequest.phone,
              reference: body.transaction_id,
              currency: moneyRequest.currency,
              amount: moneyRequest.amount,
              rate: null,
              amountInvoice: moneyRequest.amount,
              note: null,
              isDeposit: false,
            });
            paymentId = done.paymentId;
            receipt = done.receipt.number;
          }
        }
        await tx.execute(sql`update mobile_money_requests set status = ${body.status},
          provider_reference = ${body.transaction_id}, payment_id = ${paymentId},
          failure_reason = ${failure}, completed_at = now() where id = ${moneyRequest.id}`);
        await this.app.audit.record(
          work,
          {
            action: body.status === 'succeeded' ? 'mobile_money.confirmed' : 'mobile_money.failed',
            resourceType: 'mobile_money_request',
            resourceId: moneyRequest.id,
            patientId: inv.patient_id,
            details: { transaction: body.transaction_id, payment: paymentId, receipt },
          },
          tx,
        );
        const params = {
          amount: `${minorToDecimal(moneyRequest.amount, moneyRequest.currency)} ${moneyRequest.currency}`,
          receipt: receipt ?? '',
        };
        await notify({
          hospitalId: target.hospital_id,
          recipients: [cashier],
          type: 'other',
          title: {
            key:
              body.status === 'failed'
                ? 'billing.mobile_money.failed_title'
                : paymentId
                  ? 'billing.mobile_money.confirmed_title'
                  : 'billing.mobile_money.unposted_title',
          },
          message: {
            key:
              body.status === 'failed'
                ? 'billing.mobile_money.failed_message'
                : paymentId
                  ? 'billing.mobile_money.confirmed_message'
                  : 'billing.mobile_money.unposted_message',
            params: { ...params, reference: body.transaction_id },
          },
          data: {
            action: `mobile_money_${body.status}`,
            invoice_id: moneyRequest.invoice,
            request_id: moneyRequest.id,
            payment_id: paymentId,
          },
        });
        return { status: body.status, duplicate: false };
      });
    } catch (err) {
      // The same transaction id on another request, or already recorded by hand: not recorded twice.
      if (isUniqueViolation(err)) throw conflict('billing.reference_taken');
      throw err;
    }
  }
}
