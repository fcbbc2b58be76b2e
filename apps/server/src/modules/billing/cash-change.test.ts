import type { TInvoiceDetail, TReceipt } from '@greensen/shared/contracts/billing';
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

// The amount tendered and the change due at the cash desk (issue 37, decision 0079).
let ctx: TestContext;
let urg: string;
let cashier: Actor;
let doctor: Actor;
let desk: Actor;

/** An issued invoice of a two-day stay (2 × 15 000 F CFA of bed-days, private payer). */
async function issuedInvoice(): Promise<TInvoiceDetail> {
  const s = await stayOfDays(ctx, { desk, doctor }, urg, 2);
  const assembled = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', {
    hospitalization: s.id,
  });
  expect(assembled.statusCode, assembled.body).toBe(201);
  const issued = await call(ctx.app, cashier, 'POST', `/api/invoices/${assembled.json().id}/issue/`);
  expect(issued.statusCode, issued.body).toBe(200);
  const invoice = issued.json() as TInvoiceDetail;
  expect(invoice.balance).toBeGreaterThanOrEqual(30_000);
  return invoice;
}

const pay = (body: Record<string, unknown>, actor = cashier) =>
  call(ctx.app, actor, 'POST', '/api/payments/', body);

async function paidOf(invoiceId: string) {
  const res = await call(ctx.app, cashier, 'GET', `/api/invoices/${invoiceId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as TInvoiceDetail).paid;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: `CC${Math.floor(Math.random() * 1e5)}` });
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${h.hospital.id}`);
  urg = h.dep('URG').id;
  const cai = await billingDepartment(ctx, h.hospital.id);
  cashier = await memberOf(ctx, h.hospital.id, 'SECRETARY', [cai]);
  doctor = await h.as('DOCTOR');
  desk = await h.as('SECRETARY');
  await bedDayAct(ctx, await memberOf(ctx, h.hospital.id, 'HEAD_DOCTOR', [urg]));
  await openCashSession(ctx, cashier, [{ currency: 'XOF', amount: 20_000 }]);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`the amount tendered and the change due (${TEST_DB_KIND})`, () => {
  it('a cash payment keeps what was handed over and the change the server computed, on its receipt', async () => {
    const inv = await issuedInvoice();
    const res = await pay({ invoice: inv.id, method: 'cash', amount: 12_500, amount_tendered: 20_000 });
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json() as TReceipt;
    expect([receipt.payment.amount, receipt.payment.amount_tendered, receipt.payment.change_due]).toEqual([
      12_500, 20_000, 7_500,
    ]);
    // Stored on the payment, as the server computed it.
    const row = await ctx.database.db.execute<{ amount_tendered: string; change_due: string }>(
      sql`select amount_tendered, change_due from payments where id = ${receipt.payment.id}`,
    );
    expect([Number(row.rows[0]!.amount_tendered), Number(row.rows[0]!.change_due)]).toEqual([20_000, 7_500]);
    // The printable receipt carries both lines.
    const printed = await call(ctx.app, cashier, 'GET', `/api/receipts/${receipt.id}/`);
    expect(printed.statusCode, printed.body).toBe(200);
    expect((printed.json() as TReceipt).payment).toMatchObject({
      amount_tendered: 20_000,
      change_due: 7_500,
    });
    // The drawer counts the amount taken, not what was handed over.
    expect(await paidOf(inv.id)).toBe(12_500);
    const report = await call(
      ctx.app,
      cashier,
      'GET',
      `/api/cash-sessions/${receipt.payment.cash_session}/report/`,
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(
      report.json().cash.find((c: { currency: string }) => c.currency === 'XOF').received,
    ).toBeGreaterThanOrEqual(12_500);

    // The exact amount handed over: no change. No amount handed over: neither figure.
    const exact = await pay({ invoice: inv.id, method: 'cash', amount: 1_000, amount_tendered: 1_000 });
    expect(exact.statusCode, exact.body).toBe(201);
    expect((exact.json() as TReceipt).payment).toMatchObject({ amount_tendered: 1_000, change_due: 0 });
    const plain = await pay({ invoice: inv.id, method: 'cash', amount: 1_000 });
    expect(plain.statusCode, plain.body).toBe(201);
    expect((plain.json() as TReceipt).payment).toMatchObject({ amount_tendered: null, change_due: null });
  });

  it('refuses an amount tendered below the amount, in French and English, and records nothing', async () => {
    const inv = await issuedInvoice();
    const short = await pay({ invoice: inv.id, method: 'cash', amount: 5_000, amount_tendered: 4_999 });
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json().amount_tendered).toEqual([
      'Le montant reçu est inférieur au montant à encaisser : il doit le couvrir.',
    ]);
    const en = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/',
      headers: { ...cashier.headers, 'accept-language': 'en' },
      payload: { invoice: inv.id, method: 'cash', amount: 5_000, amount_tendered: 4_999 },
    });
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json().amount_tendered).toEqual([
      'The amount tendered is less than the amount to take: it must cover it.',
    ]);
    expect(await paidOf(inv.id)).toBe(0);
  });

  it('refuses an amount tendered with another method than cash (decision 0079)', async () => {
    const inv = await issuedInvoice();
    const card = await pay({
      invoice: inv.id,
      method: 'card',
      amount: 5_000,
      amount_tendered: 10_000,
      reference: 'TPE-0001',
    });
    expect(card.statusCode, card.body).toBe(400);
    expect(card.json().amount_tendered).toEqual([
      'Le montant reçu et la monnaie rendue ne concernent que les paiements en espèces.',
    ]);
    const momo = await pay({
      invoice: inv.id,
      method: 'mobile_money',
      operator: 'orange_money',
      phone: '+225 07 00 00 00 01',
      reference: `OM${Math.floor(Math.random() * 1e9)}`,
      amount: 5_000,
      amount_tendered: 10_000,
    });
    expect(momo.statusCode, momo.body).toBe(400);
    expect(Object.keys(momo.json())).toEqual(['amount_tendered']);
    expect(await paidOf(inv.id)).toBe(0);
  });

  it('a cash deposit keeps what was handed over and the change, on its receipt; refuses what does not cover it', async () => {
    const s = await stayOfDays(ctx, { desk, doctor }, urg, 1);
    const url = `/api/hospitalizations/${s.id}/deposits/`;
    const deposit = (body: Record<string, unknown>, language = 'fr') =>
      ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...cashier.headers, 'accept-language': language },
        payload: body,
      });
    // Short, in French and English; with a card; nothing recorded.
    const short = await deposit({ method: 'cash', amount: 35_000, amount_tendered: 30_000 });
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json().amount_tendered).toEqual([
      'Le montant reçu est inférieur au montant à encaisser : il doit le couvrir.',
    ]);
    const en = await deposit({ method: 'cash', amount: 35_000, amount_tendered: 30_000 }, 'en');
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json().amount_tendered).toEqual([
      'The amount tendered is less than the amount to take: it must cover it.',
    ]);
    const card = await deposit({
      method: 'card',
      amount: 35_000,
      amount_tendered: 50_000,
      reference: 'TPE-0042',
    });
    expect(card.statusCode, card.body).toBe(400);
    expect(Object.keys(card.json())).toEqual(['amount_tendered']);
    const none = await call(ctx.app, cashier, 'GET', url);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().deposits).toEqual([]);

    const res = await deposit({ method: 'cash', amount: 35_000, amount_tendered: 50_000 });
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json() as TReceipt;
    expect(receipt.payment).toMatchObject({
      is_deposit: true,
      amount: 35_000,
      amount_tendered: 50_000,
      change_due: 15_000,
    });
    // The printable receipt of the deposit carries both lines; the deposit counts the amount taken.
    const printed = await call(ctx.app, cashier, 'GET', `/api/receipts/${receipt.id}/`);
    expect(printed.statusCode, printed.body).toBe(200);
    expect((printed.json() as TReceipt).payment).toMatchObject({
      is_deposit: true,
      amount_tendered: 50_000,
      change_due: 15_000,
    });
    const shown = await call(ctx.app, cashier, 'GET', url);
    expect(shown.json().total).toBe(35_000);
    expect(await paidOf(receipt.invoice.id)).toBe(35_000);
  });

  it('the database keeps the change consistent with what was handed over', async () => {
    const inv = await issuedInvoice();
    const res = await pay({ invoice: inv.id, method: 'cash', amount: 2_000, amount_tendered: 5_000 });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as TReceipt).payment.id;
    await expect(
      ctx.database.db.execute(sql`update payments set change_due = 2000 where id = ${id}`),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(
        sql`update payments set amount_tendered = 1000, change_due = -1000 where id = ${id}`,
      ),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(sql`update payments set change_due = null where id = ${id}`),
    ).rejects.toThrow();
  });
});
