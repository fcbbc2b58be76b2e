import type {
  MobileMoneyOperator,
  TMobileMoneyRequest,
  TMobileMoneyRequestCreate,
} from '@greensen/shared/contracts/billing';
import { ZMobileMoneyCallback } from '@greensen/shared/contracts/billing';
import { minorToDecimal } from '@greensen/shared/domain/money';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital, systemContext } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound, unauthorized } from '../../lib/errors.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { requireBillingStaff } from './billing.access.js';
import { balanceOf, lockInvoice, pendingMobileMoney } from './billing.repository.js';
import type { MobileMoneyProvider } from './mobile-money.js';
import { verifyCallback } from './mobile-money.js';
import {
  completeMoneyRequest,
  findMoneyRequest,
  hospitalNameAndCode,
  insertMoneyRequest,
  moneyRequestCashier,
  moneyRequestTarget,
  operatorSecret,
  upsertOperatorSecret,
} from './mobile-money.repository.js';
import { openSessionOfCashier } from './payments.repository.js';
import type { PaymentsService } from './payments.service.js';

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
  await upsertOperatorSecret(db, hospitalId, operator, secretEncrypted);
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
        const requestId = await insertMoneyRequest(tx, {
          hospitalId: hospital.id,
          invoiceId: inv.id,
          operator: body.operator,
          phone: body.phone,
          currency: inv.currency,
          amount: body.amount,
          requestedBy: user.id,
          cashSessionId: session,
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'mobile_money.request',
            resourceType: 'mobile_money_request',
            resourceId: requestId,
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
        return { id: requestId };
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict('billing.mobile_money_pending_phone');
        throw err;
      });
    const moneyRequest = (await findMoneyRequest(this.app.db, id))!;
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

  /** The hospital's secret for the operator, decrypted; null when there is none or it does not decrypt. */
  private async secretOf(q: Queryable, hospitalId: string, operator: MobileMoneyOperator) {
    const key = this.app.config.secretsKey;
    if (!key) return null;
    const encrypted = await operatorSecret(q, hospitalId, operator);
    return encrypted !== null ? decryptSecret(key, encrypted) : null;
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
    const target = await moneyRequestTarget(this.app.db, body.request_id);
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
    const hospital = (await hospitalNameAndCode(this.app.db, target.hospital_id))!;
    try {
      return await withNotifications(this.app, async (tx, notify) => {
        const moneyRequest = (await findMoneyRequest(tx, body.request_id, true))!;
        if (moneyRequest.status !== 'pending') return { status: moneyRequest.status, duplicate: true };
        const cashier = await moneyRequestCashier(tx, moneyRequest.id);
        const work = systemContext({
          source: `mobile-money:${input.operator}`,
          log: ctx.log,
          requestId: ctx.requestId,
          onBehalfOf: cashier,
          rule: 'billing.mobile_money_callback',
          hospital: {
            id: target.hospital_id,
            name: hospital.name,
            code: hospital.code,
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
          const session = await openSessionOfCashier(tx, target.hospital_id, cashier);
          if (session) {
            const done = await this.payments.insertPayment(tx, work, inv, {
              sessionId: session,
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
        await completeMoneyRequest(tx, moneyRequest.id, {
          status: body.status,
          reference: body.transaction_id,
          paymentId,
          failure,
        });
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
