import type { TInvoiceVisit } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { billingDepartment, memberOf } from '../../../test/billing.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { type Actor, admit, call, createPatient, journeyHospital } from '../../../test/journey.js';

// « Facturer une visite » at the cash desk (issue 37, decision 0088): the pure cashier lists a patient's visits
// through the billing module's own read, without the admissions list (closed to her, decision 0070).
let ctx: TestContext;
let hospitalId: string;
let urg: string;
/** A `CASHIER` of the billing department (decision 0070): no access to the admissions list. */
let pureCashier: Actor;
let desk: Actor;
let doctor: Actor;
let nurse: Actor;
let stranger: Actor;

interface Page {
  count: number;
  next: string | null;
  results: TInvoiceVisit[];
}

const visitsOf = (actor: Actor, query: Record<string, string>) =>
  call(ctx.app, actor, 'GET', `/api/invoices/visits/?${new URLSearchParams(query)}`);

async function listed(actor: Actor, query: Record<string, string>): Promise<Page> {
  const res = await visitsOf(actor, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A patient with `n` visits, the later ones admitted later, all but the last closed; their ids, newest first. */
async function patientWithVisits(n: number): Promise<{ patient: string; visits: string[] }> {
  const patient = await createPatient(ctx.app, desk);
  const visits: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await admit(ctx.app, desk, patient.id, urg);
    await ctx.database.db.execute(
      sql`update admissions set admitted_at = now() - make_interval(days => ${n - i}),
        status = case when ${i < n - 1} then 'completed'::admission_status else status end,
        closed_at = case when ${i < n - 1} then now() else null end where id = ${a.id}`,
    );
    visits.unshift(a.id);
  }
  return { patient: patient.id, visits };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: `BV${Math.floor(Math.random() * 1e5)}` });
  hospitalId = h.hospital.id;
  urg = h.dep('URG').id;
  const cai = await billingDepartment(ctx, hospitalId);
  pureCashier = await memberOf(ctx, hospitalId, 'CASHIER', [cai]);
  desk = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR');
  nurse = await h.as('NURSE');
  const other = await journeyHospital(ctx, { code: `BW${Math.floor(Math.random() * 1e5)}` });
  stranger = await memberOf(ctx, other.hospital.id, 'SECRETARY', [
    await billingDepartment(ctx, other.hospital.id),
  ]);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`the visits to invoice (${TEST_DB_KIND})`, () => {
  it('a pure cashier lists a patient’s visits, newest first, with their live invoice and nothing clinical; audited', async () => {
    const { patient, visits } = await patientWithVisits(2);
    // The admissions list stays closed to her (decision 0070): the reason this read exists.
    expect((await call(ctx.app, pureCashier, 'GET', `/api/admissions/?patient=${patient}`)).statusCode).toBe(
      403,
    );

    const before = await listed(pureCashier, { patient });
    expect(before.count).toBe(2);
    expect(before.results.map((v) => v.id)).toEqual(visits);
    const first = before.results[0]!;
    expect(Object.keys(first).sort()).toEqual(['admitted_at', 'department', 'id', 'invoice', 'status']);
    expect(first.department).toBeTruthy();
    expect(first.status).toBe('waiting');
    expect(first.invoice).toBeNull();

    // She prepares the newest visit's invoice: the list shows its draft; the other visit has none.
    const assembled = await call(ctx.app, pureCashier, 'POST', '/api/invoices/assemble/', {
      admission: visits[0],
    });
    expect(assembled.statusCode, assembled.body).toBe(201);
    const after = await listed(pureCashier, { patient });
    expect(after.results.map((v) => v.invoice)).toEqual([{ id: assembled.json().id, status: 'draft' }, null]);

    const audit = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events
      where action = 'invoice.visits' and hospital_id = ${hospitalId} and patient_id = ${patient}`);
    expect(Number(audit.rows[0]!.n)).toBe(2);
  });

  it('pages the visits', async () => {
    const { patient, visits } = await patientWithVisits(3);
    const p1 = await listed(pureCashier, { patient, page: '1', page_size: '2' });
    expect([p1.count, p1.results.map((v) => v.id)]).toEqual([3, visits.slice(0, 2)]);
    expect(p1.next).toBeTruthy();
    const p2 = await listed(pureCashier, { patient, page: '2', page_size: '2' });
    expect([p2.count, p2.results.map((v) => v.id), p2.next]).toEqual([3, visits.slice(2), null]);
  });

  it('another hospital’s patient lists nothing; clinicians outside the billing department are refused', async () => {
    const { patient } = await patientWithVisits(1);
    expect(await listed(stranger, { patient })).toMatchObject({ count: 0, results: [] });
    for (const actor of [doctor, nurse, desk]) {
      expect((await visitsOf(actor, { patient })).statusCode).toBe(403);
    }
    expect((await visitsOf(pureCashier, {})).statusCode).toBe(400);
    expect((await visitsOf(pureCashier, { patient: 'not-a-uuid' })).statusCode).toBe(400);
  });
});
