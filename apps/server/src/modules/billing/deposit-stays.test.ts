import type { TDepositStay, TReceipt } from '@greensen/shared/contracts/billing';
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

// The cash desk's deposits (issue 37, decision 0088): a pure cashier finds the open stay without reading the stay,
// takes the deposit, and its receipt reads as a deposit's.
let ctx: TestContext;
let hospitalId: string;
let urg: string;
let cashier: Actor;
let doctor: Actor;
let desk: Actor;
let stranger: Actor;

const stay = () => stayOfDays(ctx, { desk, doctor }, urg, 1);

interface Page {
  count: number;
  next: string | null;
  results: TDepositStay[];
}

async function stays(actor: Actor, query: Record<string, string>): Promise<Page> {
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
  const h = await journeyHospital(ctx, { code: `DS${Math.floor(Math.random() * 1e5)}` });
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${h.hospital.id}`);
  hospitalId = h.hospital.id;
  urg = h.dep('URG').id;
  cashier = await memberOf(ctx, hospitalId, 'CASHIER', [await billingDepartment(ctx, hospitalId)]);
  doctor = await h.as('DOCTOR');
  await bedDayAct(ctx, await memberOf(ctx, hospitalId, 'HEAD_DOCTOR', [urg]));
  desk = await h.as('SECRETARY');
  const other = await journeyHospital(ctx, { code: `DT${Math.floor(Math.random() * 1e5)}` });
  stranger = await memberOf(ctx, other.hospital.id, 'CASHIER', [
    await billingDepartment(ctx, other.hospital.id),
  ]);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`the cash desk's open stays (${TEST_DB_KIND})`, () => {
  it('a cashier finds an open stay by name or record number, without reading the stay itself; audited', async () => {
    const s = await stay();
    const p = await patientOf(s.patient);
    // The stay page stays the clinicians': the cashier may not read it.
    expect((await call(ctx.app, cashier, 'GET', `/api/hospitalizations/${s.id}/`)).statusCode).toBe(403);

    const byName = await stays(cashier, { search: p.last_name.toUpperCase() });
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
    expect((await stays(cashier, { search: p.record_number })).results.map((r) => r.id)).toEqual([s.id]);
    expect((await stays(cashier, { search: 'zzz-nobody-zzz' })).results).toEqual([]);

    const audit = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events
      where action = 'deposit.stays' and hospital_id = ${hospitalId} and resource_type = 'hospitalization'`);
    expect(Number(audit.rows[0]!.n)).toBeGreaterThanOrEqual(3);
  });

  it('lists only the open stays of this hospital, paginated; refuses a clinician', async () => {
    const open = await stay();
    const closed = await stay();
    await ctx.database.db.execute(
      sql`update hospitalizations set status = 'discharged', ended_at = now(), discharge_mode = 'home'
        where id = ${closed.id}`,
    );
    const all = await stays(cashier, { page_size: '100' });
    const ids = all.results.map((r) => r.id);
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(closed.id);
    expect(all.results.every((r) => r.status === 'pending_bed' || r.status === 'admitted')).toBe(true);

    const first = await stays(cashier, { page_size: '1' });
    expect(first.results).toHaveLength(1);
    expect(first.count).toBe(all.count);
    expect(first.next).toContain('page=2');
    const second = await stays(cashier, { page_size: '1', page: '2' });
    expect(second.results[0]!.id).not.toBe(first.results[0]!.id);

    // Another hospital's cashier sees none of these stays.
    const theirs = await stays(stranger, { page_size: '100' });
    expect(theirs.results.filter((r) => ids.includes(r.id))).toEqual([]);
    expect((await call(ctx.app, doctor, 'GET', '/api/deposits/stays/')).statusCode).toBe(403);
  });

  it("a deposit's receipt names its stay; a payment's receipt has none", async () => {
    const s = await stay();
    await openCashSession(ctx, cashier, [{ currency: 'XOF', amount: 20_000 }]);
    const res = await call(ctx.app, cashier, 'POST', `/api/hospitalizations/${s.id}/deposits/`, {
      method: 'cash',
      amount: 900_000,
    });
    expect(res.statusCode, res.body).toBe(201);
    const taken = res.json() as TReceipt;
    const found = (await stays(cashier, { search: (await patientOf(s.patient)).record_number })).results[0]!;
    const expected = {
      id: s.id,
      department: found.department,
      requested_at: found.requested_at,
      admitted_at: found.admitted_at,
    };
    expect(taken.stay).toEqual(expected);
    // More deposited than used so far: a credit in the patient's favour (a negative balance).
    expect(taken.invoice.balance).toBeLessThan(0);
    const read = await call(ctx.app, cashier, 'GET', `/api/receipts/${taken.id}/`);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as TReceipt).stay).toEqual(expected);

    // Another stay's invoice issued and paid: a payment's receipt is an invoice's, without a stay.
    const other = await stay();
    const draft = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', {
      hospitalization: other.id,
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const invoice = draft.json().id as string;
    const issued = await call(ctx.app, cashier, 'POST', `/api/invoices/${invoice}/issue/`);
    expect(issued.statusCode, issued.body).toBe(200);
    const paid = await call(ctx.app, cashier, 'POST', '/api/payments/', {
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
