import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MobileMoneyOperator } from '@greensen/shared/contracts/billing';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Mobile-money providers (issue 21, decisions 0027 and 0040). A provider pushes a payment request to the payer's
 * phone and later calls `POST /api/payments/mobile-money/callback/{operator}/` with the outcome, signed.
 */
export interface MobileMoneyPaymentRequest {
  /** Our request's id: sent to the provider as its external id and idempotency key, and echoed in its callback. */
  requestId: string;
  operator: MobileMoneyOperator;
  phone: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
  /** What the payer's phone shows (the invoice number or the hospital). */
  description: string;
}

export interface MobileMoneyProvider {
  /**
   * Pushes the request to the phone. A retry with the same `requestId` must never charge twice (the provider's
   * idempotency key). The outcome always arrives by the signed callback.
   */
  requestPayment(request: MobileMoneyPaymentRequest): Promise<{ status: 'pending' }>;
}

/**
 * The default provider: no operator can be reached from here, so a request is only recorded — the pending
 * `mobile_money_requests` row is the outbox a connector for a real operator reads and sends (decision 0040).
 */
export class OutboxMobileMoneyProvider implements MobileMoneyProvider {
  constructor(private readonly log: FastifyBaseLogger) {}

  async requestPayment(request: MobileMoneyPaymentRequest): Promise<{ status: 'pending' }> {
    // The request id and operator only: never the phone number or an amount in the logs.
    this.log.info({ request: request.requestId, operator: request.operator }, 'mobile-money request queued');
    return { status: 'pending' };
  }
}

/** A callback's timestamp may differ from our clock by 5 minutes at most: older ones are replays. */
export const CALLBACK_WINDOW_SECONDS = 300;

/** `hex(HMAC-SHA256(secret, timestamp + "." + rawBody))`: what the operator sends in `X-Signature`. */
export function signCallback(secret: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Whether a callback is authentic and fresh: `signature` (hex, an optional `sha256=` prefix) is the HMAC of
 * `timestamp + "." + rawBody` with the secret, compared in constant time, and `timestamp` (Unix seconds) is within
 * the window of `nowMs`.
 */
export function verifyCallback(
  secret: string,
  timestamp: string | undefined,
  signature: string | undefined,
  rawBody: Buffer,
  nowMs: number,
): boolean {
  if (!timestamp || !/^[0-9]{1,12}$/.test(timestamp) || !signature) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > CALLBACK_WINDOW_SECONDS) return false;
  const given = signature.replace(/^sha256=/, '');
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = Buffer.from(signCallback(secret, timestamp, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(given.toLowerCase(), 'hex'));
}
