import type { TMobileMoneyRequest } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  bedDayAct,
  billingDepartment,
  memberOf,
  openCashSession,
  stayOfDays,
} from '../../../test/billing.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { type Actor, call, journeyHospital } from '../../../test/journey.js';
import { decryptSecret } from '../../lib/secrets.js';
import { signCallback } from './mobile-money.js';
import { storeOperatorSecret } from './mobile-money.service.js';

// Mobile money pushed to the phone and the operator's signed callback; the exchange-rate table (decision 0040).
const SECRET = 'mtn-callback-secret-0123456789abcdefghij';
let ctx: TestContext;
let hospitalId: string;
let urg: string;
let cashier: Actor;
let headDoctor: Actor;
let doctor: Actor;
let desk: Actor;
let stranger: Actor;
let strangerHead: Actor;

/** A draft invoice of a 2-day stay (bed-days at 15 000 F CFA). */
async function draftInvoice(): Promise<{ id: string; paid: number; currency: string }> {
  const stay = await stayOfDays(ctx, { desk, doctor }, urg, 2);
  const inv = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { hospitalization: stay.id });
  expect(inv.statusCode, inv.body).toBe(201);
  return inv.json();
}

const invoicePaid = async (id: string) =>
  (await call(ctx.app, cashier, 'GET', `/api/invoices/${id}/`)).json();

function callback(
  body: Record<string, unknown>,
  opts: { operator?: string; secret?: string; ageSeconds?: number; raw?: string } = {},
) {
  const payload = opts.raw ?? JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000) - (opts.ageSeconds ?? 0));
  return ctx.app.inject({
    method: 'POST',
    url: `/api/payments/mobile-money/callback/${opts.operator ?? 'mtn_momo'}/`,
    headers: {
      'content-type': 'application/json',
      'x-timestamp': timestamp,
      'x-signature': signCallback(opts.secret ?? SECRET, timestamp, payload),
    },
    payload,
  });
}

async function requestOnPhone(invoice: string, amount = 5_000): Promise<TMobileMoneyRequest> {
  const res = await call(ctx.app, cashier, 'POST', '/api/payments/mobile-money/', {
    invoice,
    operator: 'mtn_momo',
    phone: '+225 05 00 00 00 01',
    amount,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const paymentsWith = async (reference: string) =>
  (
    await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from payments where hospital_id = ${hospitalId} and reference = ${reference}`,
    )
  ).rows[0]!.n;

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: `MM${Math.floor(Math.random() * 1e5)}` });
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${h.hospital.id}`);
  hospitalId = h.hospital.id;
  urg = h.dep('URG').id;
  cashier = await memberOf(ctx, hospitalId, 'SECRETARY', [await billingDepartment(ctx, hospitalId)]);
  headDoctor = await memberOf(ctx, hospitalId, 'HEAD_DOCTOR', [urg]);
  doctor = await h.as('DOCTOR');
  desk = await h.as('SECRETARY');
  const other = await journeyHospital(ctx, { code: `MO${Math.floor(Math.random() * 1e5)}` });
  stranger = await memberOf(ctx, other.hospital.id, 'SECRETARY', [
    await billingDepartment(ctx, other.hospital.id),
  ]);
  strangerHead = await other.as('HEAD_DOCTOR');
  await bedDayAct(ctx, headDoctor);
  await storeOperatorSecret(ctx.database.db, ctx.config.secretsKey, hospitalId, 'mtn_momo', SECRET);
  await openCashSession(ctx, cashier);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`mobile money pushed to the phone (${TEST_DB_KIND})`, () => {
  it('keeps the secret encrypted', async () => {
    const res = await ctx.database.db.execute<{ secret_encrypted: string }>(
      sql`select secret_encrypted from mobile_money_secrets where hospital_id = ${hospitalId}`,
    );
    const stored = res.rows[0]!.secret_encrypted;
    expect(stored).not.toContain(SECRET);
    expect(decryptSecret(ctx.config.secretsKey!, stored)).toBe(SECRET);
    expect(decryptSecret('another-key-0123456789abcdefghijklmnop', stored)).toBeNull();
  });

  it('records one payment with its receipt on a signed confirmation, and notifies the cashier', async () => {
    const inv = await draftInvoice();
    const req = await requestOnPhone(inv.id, 7_500);
    expect(req.status).toBe('pending');
    expect(req.currency).toBe('XOF');
    const body = {
      request_id: req.id,
      transaction_id: 'MP260101.1200.A00001',
      status: 'succeeded',
      amount: 7_500,
      currency: 'XOF',
    };
    const first = await callback(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'succeeded', duplicate: false });
    // The same callback again (a provider's retry) changes nothing.
    const again = await callback(body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ status: 'succeeded', duplicate: true });
    expect(await paymentsWith('MP260101.1200.A00001')).toBe(1);
    const detail = await invoicePaid(inv.id);
    expect(detail.paid).toBe(inv.paid + 7_500);
    const stored = await ctx.database.db.execute<{ status: string; receipt: string | null; by: string }>(
      sql`select m.status, rc.number as receipt, p.received_by as by from mobile_money_requests m
        join payments p on p.id = m.payment_id join receipts rc on rc.payment_id = p.id where m.id = ${req.id}`,
    );
    expect(stored.rows[0]!.status).toBe('succeeded');
    expect(stored.rows[0]!.receipt).toMatch(/^REC-/);
    expect(stored.rows[0]!.by).toBe(cashier.id);
    const notes = await ctx.database.db.execute<{ title: string }>(
      sql`select title from notifications where recipient_id = ${cashier.id} and data->>'request_id' = ${req.id}`,
    );
    expect(notes.rows.map((n) => n.title)).toEqual(['Paiement mobile confirmé']);
  });

  it('records one payment when the same callback arrives twice at once', async () => {
    const inv = await draftInvoice();
    const req = await requestOnPhone(inv.id, 3_000);
    const body = {
      request_id: req.id,
      transaction_id: 'MP260101.1200.B00002',
      status: 'succeeded',
      amount: 3_000,
      currency: 'XOF',
    };
    const answers = await Promise.all([callback(body), callback(body)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().duplicate).sort()).toEqual([false, true]);
    expect(await paymentsWith('MP260101.1200.B00002')).toBe(1);
    expect((await invoicePaid(inv.id)).paid).toBe(inv.paid + 3_000);
  });

  it('refuses a wrong signature, a stale timestamp, another operator, an unknown request; 400 on a bad body', async () => {
    const inv = await draftInvoice();
    const req = await requestOnPhone(inv.id);
    const body = {
      request_id: req.id,
      transaction_id: 'MP260101.1200.C00003',
      status: 'succeeded',
      amount: 5_000,
      currency: 'XOF',
    };
    expect((await callback(body, { secret: 'not-the-secret-0123456789abcdefghijkl' })).statusCode).toBe(401);
    expect((await callback(body, { ageSeconds: 6 * 60 })).statusCode).toBe(401);
    expect((await callback(body, { operator: 'orange_money' })).statusCode).toBe(401);
    expect((await callback({ ...body, request_id: '01a21656-0000-7000-8000-000000000000' })).statusCode).toBe(
      401,
    );
    // A body changed after signing: the signature is over the raw bytes.
    const signed = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const tampered = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/mobile-money/callback/mtn_momo/',
      headers: {
        'content-type': 'application/json',
        'x-timestamp': timestamp,
        'x-signature': signCallback(SECRET, timestamp, signed),
      },
      payload: signed.replace('5000', '50000'),
    });
    expect(tampered.statusCode).toBe(401);
    expect((await callback({ ...body, amount: 'five' })).statusCode).toBe(400);
    expect((await callback({}, { raw: '{not json' })).statusCode).toBe(400);
    expect(await paymentsWith('MP260101.1200.C00003')).toBe(0);
    // The genuine one still goes through.
    expect((await callback(body)).json()).toEqual({ status: 'succeeded', duplicate: false });
  });

  it('marks a failed request without a payment', async () => {
    const inv = await draftInvoice();
    const req = await requestOnPhone(inv.id);
    const res = await callback({
      request_id: req.id,
      transaction_id: 'MP260101.1200.D00004',
      status: 'failed',
      amount: 5_000,
      currency: 'XOF',
      reason: 'insufficient_funds',
    });
    expect(res.json()).toEqual({ status: 'failed', duplicate: false });
    expect(await paymentsWith('MP260101.1200.D00004')).toBe(0);
    expect((await invoicePaid(inv.id)).paid).toBe(inv.paid);
  });

  it('accepts one of 10 parallel requests of the whole balance: capped by the balance less what is pending (issue 36)', async () => {
    const draft = await draftInvoice();
    const issued = await call(ctx.app, cashier, 'POST', `/api/invoices/${draft.id}/issue/`);
    expect(issued.statusCode, issued.body).toBe(200);
    const balance = issued.json().balance as number;
    expect(balance).toBeGreaterThan(0);
    const ask = (phone: string, amount: number) =>
      call(ctx.app, cashier, 'POST', '/api/payments/mobile-money/', {
        invoice: draft.id,
        operator: 'mtn_momo',
        phone,
        amount,
      });
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask('+225 05 00 00 00 09', balance)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    // Another phone: nothing is left once the pending request is counted.
    const other = await ask('+225 07 00 00 00 08', 1);
    expect(other.statusCode, other.body).toBe(409);
    expect(other.json().detail).toMatch(/attente|pending/);
    const pending = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from mobile_money_requests where invoice_id = ${draft.id} and status = 'pending'`,
    );
    expect(pending.rows[0]!.n).toBe(1);
    // Held by the database: a second pending request of the invoice to the same phone (however it is written).
    const first = answers.find((a) => a.statusCode === 201)!.json() as TMobileMoneyRequest;
    await expect(
      ctx.database.db.execute(sql`insert into mobile_money_requests (id, hospital_id, invoice_id, operator, phone,
        currency, amount, requested_by, cash_session_id)
        select gen_random_uuid(), hospital_id, invoice_id, operator, '+2250500000009', currency, 1, requested_by,
          cash_session_id from mobile_money_requests where id = ${first.id}`),
    ).rejects.toThrow();
    // A cash payment while a request is pending asks for confirmation, then is taken.
    const cash = { invoice: draft.id, method: 'cash', amount: 500 };
    const asked = await call(ctx.app, cashier, 'POST', '/api/payments/', cash);
    expect(asked.statusCode, asked.body).toBe(409);
    expect(asked.json()).toMatchObject({ code: 'mobile_money_pending' });
    const confirmed = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      ...cash,
      confirm_pending: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    // Decision 0040 stays: the operator's confirmation of money that left the phone is recorded in full.
    const done = await callback({
      request_id: first.id,
      transaction_id: 'MP260101.1200.C36001',
      status: 'succeeded',
      amount: balance,
      currency: 'XOF',
    });
    expect(done.json()).toEqual({ status: 'succeeded', duplicate: false });
    expect((await invoicePaid(draft.id)).paid).toBe(balance + 500);
    // Nothing pending: a new request is capped by the balance alone (here nothing is due).
    expect((await ask('+225 05 00 00 00 09', 1)).statusCode).toBe(409);
  });

  it('lets only billing staff of the hospital request a payment', async () => {
    const inv = await draftInvoice();
    const body = { invoice: inv.id, operator: 'mtn_momo', phone: '+225 05 00 00 00 01', amount: 1_000 };
    expect((await call(ctx.app, doctor, 'POST', '/api/payments/mobile-money/', body)).statusCode).toBe(403);
    expect((await call(ctx.app, desk, 'POST', '/api/payments/mobile-money/', body)).statusCode).toBe(403);
    expect((await call(ctx.app, stranger, 'POST', '/api/payments/mobile-money/', body)).statusCode).toBe(404);
  });
});

describe(`the exchange-rate table (${TEST_DB_KIND})`, () => {
  const rate = (actor: Actor, body: Record<string, unknown>) =>
    call(ctx.app, actor, 'POST', '/api/exchange-rates/', body);
  const today = () => new Date().toISOString().slice(0, 10);
  const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  it('prices a payment in euros at the rate of its day, rounded to the franc (XOF has no decimals)', async () => {
    expect((await rate(headDoctor, { base: 'EUR', rate: '650', valid_on: yesterday() })).statusCode).toBe(
      201,
    );
    const set = await rate(headDoctor, { base: 'EUR', rate: '655.957', valid_on: today() });
    expect(set.statusCode, set.body).toBe(201);
    expect(set.json()).toMatchObject({ base: 'EUR', quote: 'XOF', rate: '655.957' });
    const current = await call(ctx.app, cashier, 'GET', '/api/exchange-rates/current/');
    expect(current.json().rates.map((r: { rate: string }) => r.rate)).toEqual(['655.957']);
    const history = await call(ctx.app, cashier, 'GET', '/api/exchange-rates/?base=EUR');
    expect(history.json().results.map((r: { rate: string }) => r.rate)).toEqual(['655.957', '650']);

    const inv = await draftInvoice();
    // 10.00 € × 655.957 = 6 559.57 → 6 560 F CFA (half away from zero).
    const paid = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      currency: 'EUR',
      amount: 1_000,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().payment).toMatchObject({ rate: '655.957', amount_invoice_currency: 6_560 });
    // A rate typed by the cashier wins over the table.
    const typed = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      currency: 'EUR',
      amount: 1_000,
      rate: '656',
    });
    expect(typed.json().payment).toMatchObject({ rate: '656', amount_invoice_currency: 6_560 });
    // No rate in the table for dollars and none typed: refused.
    const usd = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      currency: 'USD',
      amount: 1_000,
    });
    expect(usd.statusCode).toBe(400);
  });

  it('refuses a typed rate of zero on a payment with 400 on rate (issue 36), not 500', async () => {
    const inv = await draftInvoice();
    for (const zero of ['0', '0.0', '0.00000000']) {
      const res = await call(ctx.app, cashier, 'POST', '/api/payments/', {
        invoice: inv.id,
        method: 'cash',
        currency: 'EUR',
        amount: 1_000,
        rate: zero,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json())).toEqual(['rate']);
    }
  });

  it('prices a payment in francs in a euro hospital to the cent (EUR has two decimals)', async () => {
    await ctx.database.db.execute(sql`update hospitals set currency = 'EUR' where id = ${hospitalId}`);
    try {
      expect(
        (await rate(headDoctor, { base: 'XOF', rate: '0.00152449', valid_on: today() })).statusCode,
      ).toBe(201);
      const inv = await draftInvoice();
      expect(inv.currency).toBe('EUR');
      // 10 000 F CFA × 0.00152449 = 15.2449 € → 15.24 €; 3 F CFA × 0.00152449 = 0.0045735 € → 0.00 €.
      const paid = await call(ctx.app, cashier, 'POST', '/api/payments/', {
        invoice: inv.id,
        method: 'cash',
        currency: 'XOF',
        amount: 10_000,
      });
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.json().payment.amount_invoice_currency).toBe(1_524);
      // Half a cent rounds away from zero: 5 F CFA at 0.001 → 0.005 € → 0.01 €.
      const half = await rate(headDoctor, { base: 'XOF', rate: '0.001', valid_on: today() });
      expect(half.statusCode).toBe(201);
      const small = await call(ctx.app, cashier, 'POST', '/api/payments/', {
        invoice: inv.id,
        method: 'cash',
        currency: 'XOF',
        amount: 5,
      });
      expect(small.json().payment).toMatchObject({ rate: '0.001', amount_invoice_currency: 1 });
    } finally {
      await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${hospitalId}`);
    }
  });

  it('lets only the management set a rate, and never shows another hospital its rates', async () => {
    const body = { base: 'USD', rate: '600', valid_on: today() };
    expect((await rate(cashier, body)).statusCode).toBe(403);
    expect((await rate(doctor, body)).statusCode).toBe(403);
    expect((await rate(headDoctor, { ...body, base: 'XOF' })).statusCode).toBe(400);
    expect((await rate(headDoctor, { ...body, rate: '0' })).statusCode).toBe(400);
    expect((await call(ctx.app, doctor, 'GET', '/api/exchange-rates/')).statusCode).toBe(403);
    const theirs = await call(ctx.app, strangerHead, 'GET', '/api/exchange-rates/');
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().count).toBe(0);
    expect((await call(ctx.app, stranger, 'GET', '/api/exchange-rates/current/')).json().rates).toEqual([]);
  });
});
