/**
 * The stay as a whole (issue 37): its orders, wherever written, are the stay's; its discharge closes everything
 * at once (the visit, the patient's record, the pharmacy's worklist, the nurses' handoffs).
 */
import type { TPrescriptionLineInput } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, insertTestIcd10, startedConsultation } from '../../../test/consultations.js';
import { examHospital } from '../../../test/exams.js';
import type { Actor } from '../../../test/journey.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof examHospital>>;
let admin: Actor;
let desk: Actor;
let queue: Actor;
let doctor: Actor;
let nurse: Actor;
let nurse2: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  await insertTestIcd10(ctx.database.db);
  h = await examHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
  nurse2 = await h.as('NURSE', 'URG');
}, 90_000);
afterAll(() => ctx.close());

async function paracetamol(): Promise<string> {
  const res = await call(ctx.app, doctor, 'GET', '/api/medications/?atc=N02BE01&page_size=5');
  expect(res.statusCode, res.body).toBe(200);
  const med = res.json().results[0] as { presentations: { id: string; form: string; paediatric: boolean }[] };
  return med.presentations.find((p) => p.form === 'tablet' && !p.paediatric)!.id;
}

const line = (presentation: string): TPrescriptionLineInput => ({
  presentation,
  dose: 1,
  dose_unit: 'comprimé',
  route: 'oral',
  frequency: { kind: 'times_per_day', times: 3 },
  duration_days: 5,
});

let wardSerial = 0;
/**
 * A patient seen in consultation (a medicine and an exam ordered there), then admitted from that visit into a bed,
 * with a care plan, a care order and a handoff written by the day nurse.
 */
async function stayFromConsultation() {
  const c = await startedConsultation(
    ctx.app,
    { desk, assigner: queue, doctor },
    h.dep('URG').id,
    'emergency',
  );
  const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines: [line(await paracetamol())],
  });
  expect(rx.statusCode, rx.body).toBe(201);
  const sign = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
    version: rx.json().version,
  });
  expect(sign.statusCode, sign.body).toBe(200);
  const exam = await call(ctx.app, doctor, 'POST', '/api/exams/', {
    patient: c.patient,
    consultation: c.id,
    exam: 'CRP',
  });
  expect(exam.statusCode, exam.body).toBe(201);
  const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: c.admission,
    department: h.dep('URG').id,
    reason: 'Pneumopathie',
    provisional_icd_code: 'B50.9',
  });
  expect(stay.statusCode, stay.body).toBe(201);
  wardSerial += 1;
  const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep('URG').id,
    name: `UHCD ${wardSerial}`,
    code: `SC-${wardSerial}`,
  });
  expect(ward.statusCode, ward.body).toBe(201);
  const room = await call(ctx.app, admin, 'POST', `/api/wards/${ward.json().id}/rooms/`, {
    name: `${wardSerial}`,
    beds: ['A'],
  });
  const bed = room.json().room_list[0].beds[0].id as string;
  const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.json().id}/bed/`, { bed });
  expect(placed.statusCode, placed.body).toBe(201);
  const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { hospitalization: stay.json().id });
  expect(plan.statusCode, plan.body).toBe(201);
  const care = await call(ctx.app, nurse, 'POST', `/api/care/plans/${plan.json().id}/orders/`, {
    kind: 'dressing',
    title: 'Pansement du cathéter',
    schedule: { kind: 'once' },
  });
  expect(care.statusCode, care.body).toBe(201);
  const handoff = await call(ctx.app, nurse, 'POST', '/api/care/handoffs/', {
    plan: plan.json().id,
    situation: 'Patient stable.',
  });
  expect(handoff.statusCode, handoff.body).toBe(201);
  return {
    ...c,
    stay: stay.json().id as string,
    rx: rx.json().id as string,
    plan: plan.json().id as string,
    handoff: handoff.json().id as string,
  };
}

const discharge = (stay: string, body: Record<string, unknown>) =>
  call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay}/discharge/`, {
    mode: 'home',
    summary: 'Évolution favorable.',
    ...body,
  });

describe('the orders of a stay', () => {
  it('lists the consultation’s medicine and exam and the stay’s care order, as the MAR does', async () => {
    const s = await stayFromConsultation();
    const detail = await call(ctx.app, doctor, 'GET', `/api/hospitalizations/${s.stay}/`);
    expect(detail.statusCode, detail.body).toBe(200);
    const orders = detail.json().orders as { kind: string; ref: string; label: string }[];
    expect(orders.map((o) => o.kind).sort()).toEqual(['care', 'exam', 'medication']);
    expect(orders.find((o) => o.kind === 'medication')).toMatchObject({ ref: s.rx });
    expect(orders.find((o) => o.kind === 'care')).toMatchObject({ label: 'Pansement du cathéter' });

    // The stay page's prescriptions: the consultation's prescription is the stay's.
    const listed = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/prescriptions/?hospitalization=${s.stay}&status=all`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().results.map((r: { id: string }) => r.id)).toEqual([s.rx]);

    // The MAR of the stay's plan finds the same prescription.
    const from = new Date(Date.now() - 4 * 3_600_000).toISOString();
    const to = new Date(Date.now() + 20 * 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${s.plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    expect(mar.json().lines.map((l: { prescription: string }) => l.prescription)).toEqual([s.rx]);
  });
});

describe('the discharge', () => {
  it('requires a discharge diagnosis', async () => {
    const s = await stayFromConsultation();
    const res = await discharge(s.stay, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().diagnoses).toEqual(['Indiquez au moins un diagnostic de sortie.']);
  });

  it('closes the visit, the record’s badge, the pharmacy’s worklist and the handoffs at once', async () => {
    const s = await stayFromConsultation();
    const before = await call(ctx.app, desk, 'GET', `/api/admissions/${s.admission}/`);
    expect(before.json()).toMatchObject({ status: 'hospitalized', discharged_at: null });
    const toTake = async () =>
      (await call(ctx.app, nurse2, 'GET', '/api/care/handoffs/?box=to_acknowledge&page_size=100'))
        .json()
        .results.map((r: { handoff: { id: string } }) => r.handoff.id);
    expect(await toTake()).toContain(s.handoff);

    const out = await discharge(s.stay, { diagnoses: ['B50.9'] });
    expect(out.statusCode, out.body).toBe(200);
    const endedAt = out.json().ended_at as string;

    // The visit: no longer hospitalized, its doctor kept, the date the patient left.
    const visit = await call(ctx.app, desk, 'GET', `/api/admissions/${s.admission}/`);
    expect(visit.json()).toMatchObject({
      status: 'completed',
      discharged_at: endedAt,
      doctor: { id: doctor.id },
    });
    expect(visit.json().closed_at).not.toBeNull();

    // The patient's record.
    const record = await call(ctx.app, desk, 'GET', `/api/patients/${s.patient}/`);
    const item = record.json().admissions.find((a: { id: string }) => a.id === s.admission);
    expect(item).toMatchObject({ status: 'completed', discharged_at: endedAt });

    // The pharmacy's worklist: the patient left, and when.
    const worklist = await call(
      ctx.app,
      admin,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    expect(worklist.statusCode, worklist.body).toBe(200);
    const rx = worklist.json().results.find((r: { id: string }) => r.id === s.rx);
    expect(rx).toMatchObject({ patient_left: true, patient_left_at: endedAt });

    // The incoming nurse has nothing to take over for a patient who left.
    expect(await toTake()).not.toContain(s.handoff);

    // One transaction: the visit and the stay were closed together.
    const rows = await ctx.database.db.execute<{ a: string; s: string }>(
      sql`select a.status::text as a, s.status::text as s from admissions a join hospitalizations s
        on s.admission_id = a.id where s.id = ${s.stay}`,
    );
    expect(rows.rows[0]).toEqual({ a: 'completed', s: 'discharged' });
  });
});
