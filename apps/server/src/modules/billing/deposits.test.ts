import {
  type TDepositStay,
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
/** A `CASHIER` of the billing department (decision 0070): no access to the stay itself. */
let pureCashier: Actor;
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

interface Page {
  count: number;
  next: string | null;
  results: TDepositStay[];
}

async function openStays(actor: Actor, query: Record<string, string>): Promise<Page> {
  const res = await call(ctx.app, actor, 'GET', `/api/deposits/stays/?${new URLSearchParams(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function patientOf(patientId: string) {
  const res = await ctx.database.db.execute<{ first_name: string; last_name: string; record_number: string }>(
    sql`select first_name, last_name, record_number from patients where id = ${patientId}`,
  );
  return res.rows[0]!;
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
  pureCashier = await memberOf(ctx, hospitalId, 'CASHIER', [cai]);
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

// The cash desk's deposits (issue 37, decision 0088): a pure cashier finds the open stay without reading the stay,
// takes the deposit, and its receipt reads as a deposit's.
describe(`the cash desk's open stays (${TEST_DB_KIND})`, () => {
  it('a cashier finds an open stay by name or record number, without reading the stay itself; audited', async () => {
    const s = await stay(1);
    const p = await patientOf(s.patient);
    // The stay page stays the clinicians': the cashier may not read it.
    expect((await call(ctx.app, pureCashier, 'GET', `/api/hospitalizations/${s.id}/`)).statusCode).toBe(403);

    const byName = await openStays(pureCashier, { search: p.last_name.toUpperCase() });
    expect(byName.results.map((r) => r.id)).toContain(s.id);
    const found = byName.results.find((r) => r.id === s.id)!;
    expect(found.patient).toEqual({
      id: s.patient,
      record_number: p.record_number,
      full_name: expect.stringContaining(p.last_name),
    });
    expect(found.department).toBeTruthy();
    expect(found.status).toBe('pending_bed');
    // Nothing clinical in the item: no reason, doctor, diagnosis or bed.
    expect(Object.keys(found).sort()).toEqual([
      'admitted_at',
      'department',
      'id',
      'patient',
      'requested_at',
      'status',
    ]);
    expect((await openStays(pureCashier, { search: p.record_number })).results.map((r) => r.id)).toEqual([
      s.id,
    ]);
    expect((await openStays(pureCashier, { search: 'zzz-nobody-zzz' })).results).toEqual([]);

    const audit = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events
      where action = 'deposit.stays' and hospital_id = ${hospitalId} and resource_type = 'hospitalization'`);
    expect(Number(audit.rows[0]!.n)).toBeGreaterThanOrEqual(3);
  });

  it('lists only the open stays of this hospital, paginated; refuses a clinician', async () => {
    const open = await stay(1);
    const closed = await stay(1);
    await ctx.database.db.execute(
      sql`update hospitalizations set status = 'discharged', ended_at = now(), discharge_mode = 'home'
        where id = ${closed.id}`,
    );
    const all = await openStays(pureCashier, { page_size: '100' });
    const ids = all.results.map((r) => r.id);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(closed.id);
    expect(all.results.every((r) => r.status === 'pending_bed' || r.status === 'admitted')).toBe(true);

    const first = await openStays(pureCashier, { page_size: '1' });
    expect(first.results).toHaveLength(1);
    expect(first.count).toBe(all.count);
    expect(first.next).toContain('page=2');
    const second = await openStays(pureCashier, { page_size: '1', page: '2' });
    expect(second.results[0]!.id).not.toBe(first.results[0]!.id);

    // Another hospital's pureCashier sees none of these stays.
    const theirs = await openStays(stranger, { page_size: '100' });
    expect(theirs.results.filter((r) => ids.includes(r.id))).toEqual([]);
    expect((await call(ctx.app, doctor, 'GET', '/api/deposits/stays/')).statusCode).toBe(403);
  });

  it("a deposit's receipt and its refund's name the stay; a payment's receipt has none", async () => {
    const s = await stay(1);
    await openSession(pureCashier);
    const res = await call(ctx.app, pureCashier, 'POST', `/api/hospitalizations/${s.id}/deposits/`, {
      method: 'cash',
      amount: 900_000,
    });
    expect(res.statusCode, res.body).toBe(201);
    const taken = res.json() as TReceipt;
    const found = (await openStays(pureCashier, { search: (await patientOf(s.patient)).record_number }))
      .results[0]!;
    const expected = {
      id: s.id,
      department: found.department,
      requested_at: found.requested_at,
      admitted_at: found.admitted_at,
    };
    expect(taken.stay).toEqual(expected);
    // More deposited than used so far: a credit in the patient's favour (a negative balance).
    expect(taken.invoice.balance).toBeLessThan(0);
    const read = await call(ctx.app, pureCashier, 'GET', `/api/receipts/${taken.id}/`);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as TReceipt).stay).toEqual(expected);

    // Part of the deposit given back: the refund's receipt names the same stay (it read « Facture — »).
    const refund = await call(ctx.app, pureCashier, 'POST', `/api/payments/${taken.payment.id}/refund/`, {
      amount: 100_000,
      reason: 'Sortie anticipée',
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const refunded = refund.json() as TReceipt;
    expect(refunded.payment.kind).toBe('refund');
    expect(refunded.payment.is_deposit).toBe(false);
    expect(refunded.stay).toEqual(expected);
    const reread = await call(ctx.app, pureCashier, 'GET', `/api/receipts/${refunded.id}/`);
    expect((reread.json() as TReceipt).stay).toEqual(expected);

    // Another stay's invoice issued and paid: a payment's receipt is an invoice's, without a stay.
    const other = await stay(1);
    const draft = await call(ctx.app, pureCashier, 'POST', '/api/invoices/assemble/', {
      hospitalization: other.id,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const invoice = draft.json().id as string;
    const issued = await call(ctx.app, pureCashier, 'POST', `/api/invoices/${invoice}/issue/`);
    expect(issued.statusCode, issued.body).toBe(200);
    const paid = await call(ctx.app, pureCashier, 'POST', '/api/payments/', {
      invoice,
      method: 'cash',
      amount: 1_000,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const payment = paid.json() as TReceipt;
    expect(payment.payment.is_deposit).toBe(false);
    expect(payment.stay).toBeNull();
  });
});
