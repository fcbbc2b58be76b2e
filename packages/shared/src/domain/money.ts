/**
 * Money rules shared by the server and the web app (issue 21, docs/decisions/0027-billing-roles.md "Money").
 *
 * - Every amount is an integer number of **minor units** of its currency: the ISO 4217 exponent says how many
 *   minor units make a major one (XOF, XAF, GNF have none: 1 500 F CFA is `1500`; EUR, USD have two: 12.50 € is
 *   `1250`). Never a floating-point amount: conversions and splits compute with `bigint`.
 * - A payment in another currency than the invoice's records the rate of the day (units of the invoice's currency
 *   for **one major unit** of the payment's, a decimal string such as `"655.957"`) and both amounts; the amount
 *   in the invoice's currency is rounded **half away from zero** to the invoice currency's minor unit.
 * - A line's payer share is the coverage rate of its total **rounded down** to the minor unit (the payer is never
 *   claimed a fraction it did not cover), then capped by what remains of the payer's ceiling; the patient's share is
 *   the rest, so that the two shares always add up to the line's total.
 */

/** ISO 4217 exponents of the currencies our hospitals use; any other code has the standard 2. */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  XOF: 0,
  XAF: 0,
  GNF: 0,
  RWF: 0,
  BIF: 0,
  KMF: 0,
  DJF: 0,
  UGX: 0,
  JPY: 0,
  EUR: 2,
  USD: 2,
  GHS: 2,
  NGN: 2,
  CDF: 2,
  GBP: 2,
  KES: 2,
  TZS: 2,
  ZAR: 2,
  MAD: 2,
  CHF: 2,
  TND: 3,
  LYD: 3,
};

/** The ISO 4217 exponent of a currency (2 when unknown). */
export function currencyExponent(currency: string): number {
  return CURRENCY_EXPONENTS[currency.toUpperCase()] ?? 2;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Rounds `num / den` (den > 0) half away from zero. */
function divRoundHalfAway(num: bigint, den: bigint): bigint {
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (den * 2n);
  return neg ? -q : q;
}

/** A rate of the day: a positive decimal with at most 8 decimals (`"655.957"`, `"0.0015"`). */
export const RATE_PATTERN = /^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,8})?$/;

function parseRate(rate: string): { num: bigint; den: bigint } {
  if (!RATE_PATTERN.test(rate)) throw new RangeError(`invalid rate: ${rate}`);
  const [int, frac = ''] = rate.split('.');
  const num = BigInt(`${int}${frac}`);
  if (num <= 0n) throw new RangeError(`invalid rate: ${rate}`);
  return { num, den: pow10(frac.length) };
}

/**
 * Converts `amount` minor units of `from` into minor units of `to` at `rate` (units of `to` for one major unit of
 * `from`), rounded half away from zero. Same currency: the amount itself, whatever the rate.
 */
export function convertMinor(amount: number, from: string, rate: string, to: string): number {
  if (!Number.isSafeInteger(amount)) throw new RangeError('amount must be an integer number of minor units');
  if (from.toUpperCase() === to.toUpperCase()) return amount;
  const { num, den } = parseRate(rate);
  const value = BigInt(amount) * num * pow10(currencyExponent(to));
  const divisor = den * pow10(currencyExponent(from));
  return Number(divRoundHalfAway(value, divisor));
}

/** A percentage of an amount in minor units, rounded half away from zero (line discounts given as a percent). */
export function percentOf(amount: number, percent: number): number {
  if (!Number.isSafeInteger(amount) || !Number.isInteger(percent)) throw new RangeError('integers only');
  return Number(divRoundHalfAway(BigInt(amount) * BigInt(percent), 100n));
}

/** `quantity × unit price` in minor units. */
export function lineGross(unitPrice: number, quantity: number): number {
  const gross = BigInt(unitPrice) * BigInt(quantity);
  if (gross > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount too large');
  return Number(gross);
}

export interface ShareSplit {
  payer: number;
  patient: number;
}

/**
 * Splits a line's total (after discount) between the payer and the patient: `ratePercent` (0–100) of the total,
 * rounded down, capped by `ceilingLeft` (what remains of the payer's ceiling for the line's category on this
 * invoice; null when there is none). No payer: `ratePercent` 0.
 */
export function splitShare(total: number, ratePercent: number, ceilingLeft: number | null): ShareSplit {
  if (!Number.isSafeInteger(total) || total < 0) throw new RangeError('total must be a non-negative integer');
  if (!Number.isInteger(ratePercent) || ratePercent < 0 || ratePercent > 100)
    throw new RangeError('rate 0–100');
  let payer = Number((BigInt(total) * BigInt(ratePercent)) / 100n);
  if (ceilingLeft !== null) payer = Math.min(payer, Math.max(0, ceilingLeft));
  return { payer, patient: total - payer };
}

/** Parses what a user typed ("1 500", "12,50", "12.5") into minor units; null when it is not an amount of `currency`. */
export function parseMoney(text: string, currency: string): number | null {
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  const exp = currencyExponent(currency);
  const m = /^(-)?([0-9]{1,15})(?:\.([0-9]*))?$/.exec(cleaned);
  if (!m) return null;
  const frac = m[3] ?? '';
  if (frac.length > exp) return null;
  const minor = BigInt(`${m[2]}${frac.padEnd(exp, '0')}`);
  const value = Number(m[1] ? -minor : minor);
  return Number.isSafeInteger(value) ? value : null;
}

/** The major-unit decimal string of an amount (`1250`, EUR → `"12.50"`; `1500`, XOF → `"1500"`). */
export function minorToDecimal(amount: number, currency: string): string {
  const exp = currencyExponent(currency);
  const neg = amount < 0;
  const digits = String(Math.abs(amount)).padStart(exp + 1, '0');
  const text = exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
  return neg ? `-${text}` : text;
}

/** Formats an amount for people: `formatMoney(1500, 'XOF', 'fr')` → "1 500 F CFA", `(1250, 'EUR', 'en')` → "€12.50". */
export function formatMoney(amount: number, currency: string, language: 'fr' | 'en'): string {
  const exp = currencyExponent(currency);
  const format = new Intl.NumberFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: exp,
    maximumFractionDigits: exp,
  });
  // Through the decimal string, so that no amount is ever divided as a float.
  return format.format(minorToDecimal(amount, currency) as unknown as number);
}

/**
 * Where an invoice stands for the cashier (issue 37): its status, or, once issued, "settled" when the patient owes
 * nothing more and "partially_paid" when something was paid and something is left. Credit notes keep their status.
 */
export type InvoiceStanding = 'draft' | 'issued' | 'cancelled' | 'settled' | 'partially_paid';
export function invoiceStanding(inv: {
  status: 'draft' | 'issued' | 'cancelled';
  kind: 'invoice' | 'credit_note';
  paid: number;
  balance: number;
}): InvoiceStanding {
  if (inv.status !== 'issued' || inv.kind !== 'invoice') return inv.status;
  if (inv.balance <= 0) return 'settled';
  return inv.paid > 0 ? 'partially_paid' : 'issued';
}

/**
 * The change due on a cash payment (issue 37, decision 0079): what the patient handed over less the amount taken,
 * both in minor units of the payment's currency; null when nothing was handed over or it does not cover the amount
 * (the payment is refused). The server stores its own figure; the cash desk shows this one as the cashier types.
 */
export function changeDue(amount: number, tendered: number | null | undefined): number | null {
  if (tendered === null || tendered === undefined || tendered < amount) return null;
  return tendered - amount;
}
