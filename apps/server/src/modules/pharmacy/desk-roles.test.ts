/**
 * Issue 37, decision 0070: the PHARMACIST and CASHIER role codes. The pharmacist of a pharmacy dispenses, reads the
 * prescriptions (urgent first in the worklist) and the patients' identity and allergies; the cashier of the cash
 * desk works the invoices and her cash session. Everything else is refused by the server, each to the other's
 * desk too; a cashier who is not a member of a billing department is refused by the object rule.
 */
import type { TMedication, TPrescription } from '@greensen/shared/contracts/pharmacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, startedConsultation } from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { departments } from '../../db/schema/index.js';
import { ensureMedicationReference } from './medication-reference.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let pharmacist: Actor;
let cashier: Actor;
let strayCashier: Actor;
let pharmacy: string;
let paracetamol: string;
const desk = {} as { desk: Actor; assigner: Actor; doctor: Actor };

async function member(role: string, departmentId: string): Promise<Actor> {
  const user = await makeUser(ctx.database.db, { role, hospitals: [{ id: h.hospital.id, departmentId }] });
  return { id: user.id, headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), h.hospital.id) };
}

async function signedFor(department: string, type: string, doctor: Actor): Promise<TPrescription> {
  const c = await startedConsultation(ctx.app, { ...desk, doctor }, department, type);
  const made = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines: [
      {
        presentation: paracetamol,
        dose: 1,
        dose_unit: 'comprimé',
        route: 'oral',
        frequency: { kind: 'times_per_day', times: 2 },
        duration_days: 2,
      },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
  const res = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${made.json().id}/sign/`, {
    version: made.json().version,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Each call answers 403 (a role or module refusal). */
async function expectRefused(actor: Actor, calls: readonly (readonly ['GET' | 'POST', string])[]) {
  for (const [method, url] of calls) {
    const res = await call(ctx.app, actor, method, url, method === 'POST' ? {} : undefined);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
  }
}

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  h = await journeyHospital(ctx, { code: `DR${Math.floor(Math.random() * 1e6)}` });
  desk.desk = await h.as('SECRETARY');
  desk.assigner = await h.as('QUEUE_MANAGER');
  desk.doctor = await h.as('DOCTOR');
  const [pha, cai] = await ctx.database.db
    .insert(departments)
    .values([
      { hospitalId: h.hospital.id, code: 'PHA', name: 'Pharmacie', kind: 'pharmacy' },
      { hospitalId: h.hospital.id, code: 'CAI', name: 'Caisse', kind: 'billing' },
    ])
    .returning({ id: departments.id });
  pharmacy = pha!.id;
  pharmacist = await member('PHARMACIST', pharmacy);
  cashier = await member('CASHIER', cai!.id);
  // A cashier whose membership names a clinical department: not billing staff.
  strayCashier = await member('CASHIER', h.dep('MED').id);
  const found = await call(ctx.app, desk.doctor, 'GET', '/api/medications/?atc=N02BE01&page_size=5');
  expect(found.statusCode, found.body).toBe(200);
  paracetamol = (found.json().results[0] as TMedication).presentations.find(
    (p) => p.form === 'tablet' && !p.paediatric,
  )!.id;
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the pharmacist (decision 0070)', () => {
  it('receives stock and dispenses as a member of the pharmacy', async () => {
    const receipt = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/receipts/', {
      pharmacy,
      supplier: 'CAMEMO',
      delivery_note: `BL-${TEST_DB_KIND}-${Math.random().toString(36).slice(2, 8)}`,
      lines: [
        {
          presentation: paracetamol,
          lot_number: 'PARA-DR',
          expiry_date: new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10),
          quantity: 100,
          unit_cost: 50,
        },
      ],
    });
    expect(receipt.statusCode, receipt.body).toBe(201);
    const rx = await signedFor(h.dep('URG').id, 'emergency', desk.doctor);
    const read = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().can.dispense).toBe(true);
    const res = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: rx.lines[0]!.id, quantity: rx.lines[0]!.quantity }],
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('sees the urgent prescriptions first in the dispensing queue, then first come, first served', async () => {
    const medDoctor = await h.as('DOCTOR', 'MED');
    const outpatient = await signedFor(h.dep('MED').id, 'outpatient', medDoctor);
    const urgent = await signedFor(h.dep('URG').id, 'emergency', desk.doctor);
    const res = await call(
      ctx.app,
      pharmacist,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().results as { id: string }[]).map((r) => r.id);
    expect(ids.indexOf(urgent.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(outpatient.id));
  });

  it('marks the urgent prescriptions of the dispensing queue, and only them (issue 37)', async () => {
    const medDoctor = await h.as('DOCTOR', 'MED');
    const outpatient = await signedFor(h.dep('MED').id, 'outpatient', medDoctor);
    const urgent = await signedFor(h.dep('URG').id, 'emergency', desk.doctor);
    const res = await call(
      ctx.app,
      pharmacist,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().results as { id: string; urgent: boolean }[];
    expect(rows.find((r) => r.id === urgent.id)?.urgent).toBe(true);
    expect(rows.find((r) => r.id === outpatient.id)?.urgent).toBe(false);
  });

  it("reads a patient's identity and allergies", async () => {
    const rx = await signedFor(h.dep('URG').id, 'emergency', desk.doctor);
    const res = await call(ctx.app, pharmacist, 'GET', `/api/patients/${rx.patient.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('allergies');
  });

  it('is refused everything else: registration, visits, consultations, queues, the cash desk', async () => {
    await expectRefused(pharmacist, [
      ['POST', '/api/patients/'],
      ['GET', '/api/admissions/'],
      ['GET', '/api/consultations/'],
      ['GET', '/api/triage/'],
      ['GET', '/api/hospitalizations/'],
      ['GET', `/api/doctors/${desk.doctor.id}/execution-queue/`],
      ['GET', '/api/invoices/'],
      ['GET', '/api/cash-sessions/'],
      ['GET', '/api/stats/'],
    ] as const);
  });

  it('has its own home in the dashboard index, not a doctor dashboard', async () => {
    const res = await call(ctx.app, pharmacist, 'GET', '/api/dashboard/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role_group).toBe('pharmacist');
    expect(res.json().dashboards.map((d: { kind: string }) => d.kind)).toEqual(['pharmacist']);
  });
});

describe('the cashier (decision 0070)', () => {
  it('opens her cash session and reads the invoices as a member of the cash desk', async () => {
    const opened = await call(ctx.app, cashier, 'POST', '/api/cash-sessions/', {
      floats: [{ currency: 'XOF', amount: 10_000 }],
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const invoices = await call(ctx.app, cashier, 'GET', '/api/invoices/');
    expect(invoices.statusCode, invoices.body).toBe(200);
    const patients = await call(ctx.app, cashier, 'GET', '/api/patients/');
    expect(patients.statusCode, patients.body).toBe(200);
  });

  it('is refused the cash desk without a billing membership (object rule)', async () => {
    const res = await call(ctx.app, strayCashier, 'GET', '/api/invoices/');
    expect(res.statusCode, res.body).toBe(403);
  });

  it('is refused everything else: prescriptions, stock, visits, consultations, registration', async () => {
    await expectRefused(cashier, [
      ['GET', '/api/prescriptions/'],
      ['GET', '/api/pharmacy/stock/'],
      ['POST', '/api/patients/'],
      ['GET', '/api/admissions/'],
      ['GET', '/api/consultations/'],
      ['GET', '/api/care/shift/'],
      ['GET', `/api/departments/${h.dep('URG').id}/execution-queue/`],
    ] as const);
  });

  it('has its own home in the dashboard index', async () => {
    const res = await call(ctx.app, cashier, 'GET', '/api/dashboard/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().dashboards.map((d: { kind: string }) => d.kind)).toEqual(['cashier']);
  });
});
