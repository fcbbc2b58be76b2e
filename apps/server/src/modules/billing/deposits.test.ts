import {
  type TInvoiceDetail,
  type TReceipt,
  type TStayDeposits,
  ZInvoiceAssembly,
} from '@greensen/shared/contracts/billing';
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

// Deposits on admission (caution, avance; issue 21, decision 0036).
let ctx: TestContext;
let hospitalId: string;
let urg: string;
let cashier: Actor;
let cashier2: Actor;
let doctor: Actor;
let desk: Actor;
let headDoctor: Actor;
let stranger: Actor;

const openSession = (actor: Actor) => openCashSession(ctx, actor, [{ currency: 'XOF', amount: 20_000 }]);

/** A stay admitted `days` days ago (bed-days priced 15 000 F CFA each). */
const stay = (days = 2) => stayOfDays(ctx, { desk, doctor }, urg, days);

const deposit = (actor: Actor, stayId: string, body: Record<string, unknown>) =>
  call(ctx.app, actor, 'POST', `/api/hospitalizations/${stayId}/deposits/`, body);

async function depositsOf(stayId: string, actor = cashier): Promise<TStayDeposits> {
  const res = await call(ctx.app, actor, 'GET', `/api/hospitalizations/${stayId}/deposits/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: `DE${Math.floor(Math.random() * 1e5)}` });
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${h.hospital.id}`);
  hospitalId = h.hospital.id;
  urg = h.dep('URG').id;
  const cai = await billingDepartment(ctx, hospitalId);
  cashier = await memberOf(ctx, hospitalId, 'SECRETARY', [cai]);
  cashier2 = await memberOf(ctx, hospitalId, 'SECRETARY', [cai]);
  headDoctor = await memberOf(ctx, hospitalId, 'HEAD_DOCTOR', [urg]);
  doctor = await h.as('DOCTOR');
  desk = await h.as('SECRETARY');
  const other = await journeyHospital(ctx, { code: `DO${Math.floor(Math.random() * 1e5)}` });
  stranger = await memberOf(ctx, other.hospital.id, 'SECRETARY', [
    await billingDepartment(ctx, other.hospital.id),
  ]);
  await bedDayAct(ctx, headDoctor);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`a deposit on admission (${TEST_DB_KIND})`, () => {
  it("is taken on the stay's draft invoice, shown on the stay and deducted from the balance", async () => {
    const s = await stay(2);
    expect((await depositsOf(s.id)).invoice).toBeNull();
    await openSession(cashier);
    const res = await deposit(cashier, s.id, { method: 'cash', amount: 50_000 });
    expect(res.statusCode, res.body).toBe(201);
    const receipt = res.json() as TReceipt;
    expect(receipt.number).toMatch(/^REC-/);
    expect(receipt.payment.is_deposit).toBe(true);
    expect(receipt.payment.amount_invoice_currency).toBe(50_000);

    const shown = await depositsOf(s.id);
    expect(shown.deposits.map((d) => d.amount)).toEqual([50_000]);
    expect(shown.total).toBe(50_000);
    expect(shown.invoice?.status).toBe('draft');
    const patientShare = shown.invoice!.patient_share;
    expect(patientShare).toBeGreaterThanOrEqual(2 * 15_000);
    expect(shown.invoice!.balance).toBe(patientShare - 50_000);

    // The cashier's assembly refreshes the same draft; issuing keeps the deposit in the balance.
    const refreshed = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', {
      hospitalization: s.id,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // The refresh answers the draft's summary (decision 0049): the deposit counted in `paid` and the balance.
    const summary = ZInvoiceAssembly.strict().parse(refreshed.json());
    expect(summary.id).toBe(shown.invoice!.id);
    expect([summary.paid, summary.balance]).toEqual([50_000, summary.patient_share - 50_000]);
    // The invoice read with its lines and payments: the bed-days and the deposit.
    const read = await call(ctx.app, cashier, 'GET', `/api/invoices/${summary.id}/`);
    expect(read.statusCode, read.body).toBe(200);
    const detail = read.json() as TInvoiceDetail;
    expect(detail.lines.length).toBe(summary.line_count);
    expect(detail.lines.every((l) => l.act.code === 'LIT-JOUR')).toBe(true);
    expect(detail.total).toBe(summary.total);
    expect(detail.payments.map((p) => [p.is_deposit, p.amount])).toEqual([[true, 50_000]]);
    const issued = await call(ctx.app, cashier, 'POST', `/api/invoices/${shown.invoice!.id}/issue/`);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().balance).toBe(issued.json().patient_share - 50_000);

    // Once issued, money on the stay is a payment on the invoice, not a deposit.
    const late = await deposit(cashier, s.id, { method: 'cash', amount: 1_000 });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.body).toMatch(/émise|issued/);

    // A refund of the deposit is listed with it and deducted from the total.
    const refund = await call(ctx.app, cashier, 'POST', `/api/payments/${receipt.payment.id}/refund/`, {
      amount: 5_000,
      reason: 'Trop perçu',
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const after = await depositsOf(s.id);
    expect(after.deposits.map((d) => d.amount)).toEqual([50_000, -5_000]);
    expect(after.total).toBe(45_000);

    const audit = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events
      where action = 'deposit.create' and resource_id = ${receipt.payment.id}`);
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });

  it('needs the cashier’s open session and a billing membership; another hospital’s stay is not found', async () => {
    const s = await stay(1);
    expect((await deposit(cashier2, s.id, { method: 'cash', amount: 1_000 })).statusCode).toBe(409);
    expect((await deposit(doctor, s.id, { method: 'cash', amount: 1_000 })).statusCode).toBe(403);
    expect((await deposit(desk, s.id, { method: 'cash', amount: 1_000 })).statusCode).toBe(403);
    expect((await call(ctx.app, doctor, 'GET', `/api/hospitalizations/${s.id}/deposits/`)).statusCode).toBe(
      403,
    );
    await openSession(stranger);
    expect((await deposit(stranger, s.id, { method: 'cash', amount: 1_000 })).statusCode).toBe(404);
    expect((await call(ctx.app, stranger, 'GET', `/api/hospitalizations/${s.id}/deposits/`)).statusCode).toBe(
      404,
    );
    expect(
      (await deposit(cashier, s.id, { method: 'mobile_money', amount: 1_000, operator: 'mtn_momo' }))
        .statusCode,
    ).toBe(400);
    const none = await depositsOf(s.id);
    expect(none.deposits).toEqual([]);
  });

  it('the database refuses a deposit flagged on a refund', async () => {
    await expect(
      ctx.database.db.execute(sql`insert into payments (hospital_id, invoice_id, cash_session_id, kind, method,
        currency, amount, amount_invoice, refunded_payment_id, reason, is_deposit, received_by)
        select hospital_id, invoice_id, cash_session_id, 'refund', method, currency, -1, -1, id, 'x', true,
          received_by from payments where is_deposit limit 1`),
    ).rejects.toThrow();
  });
});

describe(`deposits under concurrency (${TEST_DB_KIND})`, () => {
  it('two cashiers taking a deposit on a stay without an invoice at once: one draft, both deposits counted', async () => {
    const s = await stay(1);
    await openSession(cashier);
    await openSession(cashier2);
    const [r1, r2] = await Promise.all([
      deposit(cashier, s.id, { method: 'cash', amount: 20_000 }),
      deposit(cashier2, s.id, { method: 'cash', amount: 30_000 }),
    ]);
    expect([r1.statusCode, r2.statusCode], `${r1.body} ${r2.body}`).toEqual([201, 201]);
    const invoices = await ctx.database.db.execute<{ id: string; paid: string }>(
      sql`select id, paid from invoices where hospitalization_id = ${s.id}`,
    );
    expect(invoices.rows.length).toBe(1);
    expect(Number(invoices.rows[0]!.paid)).toBe(50_000);
    expect((await depositsOf(s.id)).total).toBe(50_000);
  });

  it('the same mobile-money reference at once on two stays: one 201, one 409', async () => {
    const [a, b] = [await stay(1), await stay(1)];
    await openSession(cashier);
    await openSession(cashier2);
    const body = {
      method: 'mobile_money',
      amount: 10_000,
      operator: 'mtn_momo',
      phone: '+225 07 00 00 00',
      reference: `MP${Date.now()}`,
    };
    const [r1, r2] = await Promise.all([deposit(cashier, a.id, body), deposit(cashier2, b.id, body)]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([201, 409]);
    const n = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from payments where reference = ${body.reference}`,
    );
    expect(Number(n.rows[0]!.n)).toBe(1);
  });
});
