import { randomUUID } from 'node:crypto';
import type { TCareExecution, TDoseRecord, TMar } from '@greensen/shared/contracts/care';
import { shouldPlaySound } from '@greensen/shared/domain/notifications';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { insertTestIcd10, startedConsultation } from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { type Actor, admit, call, createPatient, journeyHospital } from '../../../test/journey.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';
import { materializeDue } from './orders.service.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let desk: Actor;
let queue: Actor;
let doctor: Actor;
let nurse: Actor;
let nurse2: Actor;
let charge: Actor;
let medNurse: Actor;
let other: Awaited<ReturnType<typeof journeyHospital>>;
let otherNurse: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
  nurse2 = await h.as('NURSE', 'URG');
  medNurse = await h.as('NURSE', 'MED');
  charge = await h.as('NURSE', 'URG');
  await ctx.database.db.execute(
    sql`update memberships set role_code = 'CHARGE_NURSE' where user_id = ${charge.id}`,
  );
  other = await journeyHospital(ctx, { code: `OT${Math.floor(Math.random() * 1e6)}` });
  otherNurse = await other.as('NURSE', 'URG');
}, 90_000);
afterAll(() => ctx.close());

let wardSerial = 0;
/** A stay of a new patient in a bed of a new emergency ward, with its care plan opened by the nurse. */
async function planInBed(patientOver: Record<string, unknown> = {}) {
  wardSerial += 1;
  const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep('URG').id,
    name: `UHCD ${wardSerial}`,
    code: `UH-${wardSerial}`,
  });
  expect(ward.statusCode, ward.body).toBe(201);
  const room = await call(ctx.app, admin, 'POST', `/api/wards/${ward.json().id}/rooms/`, {
    name: `${wardSerial}`,
    beds: ['A'],
  });
  const bed = room.json().room_list[0].beds[0].id as string;
  const patient = await createPatient(ctx.app, desk, patientOver);
  const visit = await admit(ctx.app, desk, patient.id, h.dep('URG').id);
  const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: visit.id,
    department: h.dep('URG').id,
    reason: 'Pneumopathie',
  });
  expect(stay.statusCode, stay.body).toBe(201);
  const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.json().id}/bed/`, { bed });
  expect(placed.statusCode, placed.body).toBe(201);
  const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { hospitalization: stay.json().id });
  expect(plan.statusCode, plan.body).toBe(201);
  return { plan: plan.json().id as string, stay: stay.json().id as string, patient: patient.id };
}

async function order(plan: string, body: Record<string, unknown>, by = nurse) {
  const res = await call(ctx.app, by, 'POST', `/api/care/plans/${plan}/orders/`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; end_at: string | null };
}

async function executionsOf(plan: string, query = 'status=all') {
  const from = new Date(Date.now() - 30 * 3_600_000).toISOString();
  const to = new Date(Date.now() + 72 * 3_600_000).toISOString();
  const res = await call(
    ctx.app,
    nurse,
    'GET',
    `/api/care/plans/${plan}/executions/?${query}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&page_size=100`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results as TCareExecution[];
}

async function notificationsOf(user: string) {
  const res = await ctx.database.db.execute<{ notification_type: string; data: Record<string, unknown> }>(
    sql`select notification_type, data from notifications where recipient_id = ${user} order by created_at`,
  );
  return res.rows;
}

describe('plans and orders', () => {
  it('opens one plan per stay (the second call returns it, 200)', async () => {
    const { plan, stay } = await planInBed();
    const again = await call(ctx.app, nurse2, 'POST', '/api/care/plans/', { hospitalization: stay });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(plan);
    const read = await call(ctx.app, nurse, 'GET', `/api/care/plans/${plan}/`);
    expect(read.json()).toMatchObject({
      status: 'active',
      place: { bed: { label: 'A' } },
      can: { order: true },
    });
  });

  it('materialises executions once: on creation and by the job, never twice for a slot', async () => {
    const { plan } = await planInBed();
    await order(plan, {
      kind: 'vitals',
      title: 'Constantes',
      signs: ['temperature', 'heart_rate'],
      schedule: { kind: 'every_hours', hours: 6 },
      days: 3,
    });
    const first = await executionsOf(plan);
    // Start now, every 6 hours, 48 hours ahead: 8 slots (start included).
    expect(first).toHaveLength(8);
    const now = new Date();
    const [a, b] = await Promise.all([
      materializeDue(ctx.database.db, new Date(now.getTime() + 24 * 3_600_000)),
      materializeDue(ctx.database.db, new Date(now.getTime() + 24 * 3_600_000)),
    ]);
    const after = await ctx.database.db.execute<{ n: number; d: number }>(
      sql`select count(*)::int as n, count(distinct slot_at)::int as d from care_executions where plan_id = ${plan}`,
    );
    // 72 hours of the 3 days: 12 slots, made once in total whatever ran twice.
    expect(Number(after.rows[0]!.n)).toBe(12);
    expect(Number(after.rows[0]!.d)).toBe(12);
    expect(a + b).toBeGreaterThanOrEqual(4);
    await expect(
      ctx.database.db.execute(sql`insert into care_executions (id, hospital_id, plan_id, order_id, patient_id, slot_at,
        scheduled_at) select gen_random_uuid(), hospital_id, plan_id, order_id, patient_id, slot_at, scheduled_at
        from care_executions where plan_id = ${plan} limit 1`),
    ).rejects.toThrow();
  });

  it('flags a late execution; done records who did it and when', async () => {
    const { plan } = await planInBed();
    await order(plan, {
      kind: 'dressing',
      title: 'Pansement',
      schedule: { kind: 'once' },
      start_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    });
    const [ex] = await executionsOf(plan);
    expect(ex).toMatchObject({ status: 'scheduled', late: true });
    const doneAt = new Date(Date.now() - 10 * 60_000).toISOString();
    const res = await call(ctx.app, nurse2, 'POST', `/api/care/executions/${ex!.id}/record/`, {
      outcome: 'done',
      done_at: doneAt,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'done',
      done_by: { id: nurse2.id },
      done_at: doneAt,
      late: true,
    });
    const again = await call(ctx.app, nurse, 'POST', `/api/care/executions/${ex!.id}/record/`, {
      outcome: 'not_done',
      reason: 'patient_refused',
    });
    expect(again.statusCode).toBe(409);
  });

  it('stopping an order cancels its future executions', async () => {
    const { plan } = await planInBed();
    const o = await order(plan, {
      kind: 'positioning',
      title: 'Retournement',
      schedule: { kind: 'every_hours', hours: 3 },
    });
    const stop = await call(ctx.app, doctor, 'POST', `/api/care/orders/${o.id}/stop/`, {
      reason: 'Patient mobile',
    });
    expect(stop.json()).toMatchObject({ status: 'stopped', stop_reason: 'Patient mobile' });
    const left = (await executionsOf(plan)).filter((e) => e.status === 'scheduled');
    expect(left.every((e) => new Date(e.scheduled_at).getTime() <= Date.now())).toBe(true);
  });
});

describe('assignment and its notifications', () => {
  it('lists the nurses a task of a department may be given to, and no one else', async () => {
    const res = await call(ctx.app, doctor, 'GET', `/api/care/nurses/?department=${h.dep('URG').id}`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().results as { id: string; role_code: string }[]).map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining([nurse.id, nurse2.id, charge.id]));
    expect(ids).not.toContain(medNurse.id);
    expect(ids).not.toContain(doctor.id);
    expect(ids).not.toContain(otherNurse.id);
    expect(res.json().count).toBe(ids.length);
    const roles = Object.fromEntries(
      (res.json().results as { id: string; role_code: string }[]).map((n) => [n.id, n.role_code]),
    );
    expect(roles[charge.id]).toBe('CHARGE_NURSE');
    // Another hospital's department: nobody. A secretary: refused.
    const foreign = await call(ctx.app, doctor, 'GET', `/api/care/nurses/?department=${other.dep('URG').id}`);
    expect(foreign.json().results).toEqual([]);
    const refused = await call(ctx.app, desk, 'GET', `/api/care/nurses/?department=${h.dep('URG').id}`);
    expect(refused.statusCode).toBe(403);
  });

  it('assigned (with sound), reassigned to both (with sound), scheduled (no sound); data.action is the type', async () => {
    const { plan } = await planInBed();
    await order(plan, { kind: 'iv_line', title: 'Changer la perfusion', schedule: { kind: 'once' } });
    const [ex] = await executionsOf(plan);
    const assign = await call(ctx.app, doctor, 'POST', `/api/care/executions/${ex!.id}/assign/`, {
      nurse: nurse.id,
    });
    expect(assign.statusCode, assign.body).toBe(200);
    expect(assign.json()).toMatchObject({ execution: { assignee: { id: nurse.id } }, reassigned_from: null });
    const reassign = await call(ctx.app, charge, 'POST', `/api/care/executions/${ex!.id}/assign/`, {
      nurse: nurse2.id,
    });
    expect(reassign.json()).toMatchObject({ reassigned_from: { id: nurse.id } });
    const later = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const moved = await call(ctx.app, doctor, 'POST', `/api/care/executions/${ex!.id}/schedule/`, {
      scheduled_at: later,
    });
    expect(moved.json()).toMatchObject({ scheduled_at: later, assignee: { id: nurse2.id } });

    const first = (await notificationsOf(nurse.id)).filter((n) => n.data.execution_id === ex!.id);
    expect(first.map((n) => n.notification_type)).toEqual(['execution_assigned', 'execution_reassigned']);
    const second = (await notificationsOf(nurse2.id)).filter((n) => n.data.execution_id === ex!.id);
    expect(second.map((n) => n.notification_type)).toEqual(['execution_reassigned', 'execution_scheduled']);
    for (const n of [...first, ...second]) expect(n.data.action).toBe(n.notification_type);
    expect(second.map((n) => shouldPlaySound(n))).toEqual([true, false]);
    // A nurse of another department cannot be assigned.
    const wrong = await call(ctx.app, doctor, 'POST', `/api/care/executions/${ex!.id}/assign/`, {
      nurse: medNurse.id,
    });
    expect(wrong.statusCode).toBe(400);
  });
});

describe('vitals rounds and NEWS2', () => {
  it('records a ward round in one request; a NEWS2 of 7+ notifies the doctor in charge at once', async () => {
    const a = await planInBed();
    const b = await planInBed();
    const res = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', {
      entries: [
        {
          hospitalization: a.stay,
          vitals: {
            temperature: 36.8,
            heart_rate: 78,
            respiratory_rate: 16,
            systolic_bp: 128,
            spo2: 97,
            avpu: 'A',
          },
        },
        {
          hospitalization: b.stay,
          vitals: {
            temperature: 39.4,
            heart_rate: 128,
            respiratory_rate: 26,
            systolic_bp: 95,
            diastolic_bp: 60,
            spo2: 91,
            on_oxygen: true,
            avpu: 'A',
          },
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const [ok, bad] = res.json().results;
    expect(ok.news2).toMatchObject({ score: 0, escalation: 'none' });
    expect(ok.escalated_to).toEqual([]);
    expect(bad.news2).toMatchObject({ escalation: 'emergency', risk: 'high' });
    expect(bad.news2.score).toBeGreaterThanOrEqual(7);
    expect(bad.escalated_to.map((p: { id: string }) => p.id)).toEqual([doctor.id]);
    const alerts = (await notificationsOf(doctor.id)).filter((n) => n.data.action === 'news2_alert');
    expect(alerts.map((n) => n.data.plan_id)).toEqual([b.plan]);
    expect(alerts[0]!.notification_type).toBe('hospitalization');
  });

  it('refuses the whole round when one set is out of the triage bounds', async () => {
    const a = await planInBed();
    const res = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', {
      entries: [{ hospitalization: a.stay, vitals: { temperature: 52 } }],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? res.json())).toEqual(
      expect.arrayContaining([expect.stringContaining('temperature')]),
    );
  });

  it('uses SpO2 scale 2 for a hypercapnic patient, no NEWS2 for a child; the chart has the series', async () => {
    const a = await planInBed();
    await call(ctx.app, doctor, 'PATCH', `/api/care/plans/${a.plan}/`, { hypercapnic: true });
    const set = await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/vitals/`, {
      vitals: { spo2: 89, respiratory_rate: 18, weight: 71.5 },
    });
    expect(set.json().news2).toMatchObject({ spo2_scale: 2, score: 0 });
    const child = await planInBed({ birth_date: '2019-03-01' });
    const kid = await call(ctx.app, nurse, 'POST', `/api/care/plans/${child.plan}/vitals/`, {
      vitals: { heart_rate: 150, temperature: 39.5 },
    });
    expect(kid.json().news2).toBeNull();
    await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/fluids/`, {
      direction: 'intake',
      kind: 'iv',
      volume_ml: 1000,
    });
    await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/fluids/`, {
      direction: 'output',
      kind: 'urine',
      volume_ml: 600,
    });
    const chart = await call(ctx.app, nurse, 'GET', `/api/care/plans/${a.plan}/chart/?days=3`);
    expect(chart.statusCode, chart.body).toBe(200);
    expect(chart.json().points).toHaveLength(1);
    expect(chart.json().days[0]).toMatchObject({
      intake_ml: 1000,
      output_ml: 600,
      balance_ml: 400,
      weight: 71.5,
    });
  });

  it('keeps an optional height in cm with a set (not in NEWS2), within the app’s bounds; the chart and the series show it', async () => {
    const a = await planInBed();
    const set = await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/vitals/`, {
      vitals: { weight: 64, height: 168.5 },
    });
    expect(set.statusCode, set.body).toBe(201);
    expect(set.json()).toMatchObject({ weight: 64, height: 168.5 });
    // Height alone is a set; NEWS2 does not read it: no sign of its own, no score.
    const alone = await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/vitals/`, {
      vitals: { height: 169 },
    });
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json().news2).toBeNull();
    const tall = await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/vitals/`, {
      vitals: { height: 300 },
    });
    expect(tall.statusCode).toBe(400);
    const list = await call(ctx.app, nurse, 'GET', `/api/care/plans/${a.plan}/vitals/`);
    expect(list.json().results.map((v: { height: number | null }) => v.height)).toEqual([169, 168.5]);
    const chart = await call(ctx.app, nurse, 'GET', `/api/care/plans/${a.plan}/chart/?days=1`);
    expect(chart.json().points.map((p: { height: number | null }) => p.height)).toEqual(
      expect.arrayContaining([168.5, 169]),
    );
  });
});

describe('records queued offline (issue 40)', () => {
  const calm = {
    temperature: 36.9,
    heart_rate: 80,
    respiratory_rate: 16,
    systolic_bp: 125,
    spo2: 97,
    avpu: 'A',
  };

  it('two identical rounds sent at once keep each set once, at its real time (concurrent, both engines)', async () => {
    const a = await planInBed();
    const b = await planInBed();
    const takenAt = new Date(Date.now() - 40 * 60_000).toISOString();
    const body = {
      recorded_at: takenAt,
      entries: [
        { hospitalization: a.stay, vitals: calm, idempotency_key: randomUUID() },
        { hospitalization: b.stay, vitals: { ...calm, respiratory_rate: 26 }, idempotency_key: randomUUID() },
      ],
    };
    const both = await Promise.all([1, 2].map(() => call(ctx.app, nurse, 'POST', '/api/care/rounds/', body)));
    for (const r of both) expect(r.statusCode, `${TEST_DB_KIND} ${r.body}`).toBe(201);
    const ids = both.map((r) => (r.json().results as { id: string }[]).map((v) => v.id));
    expect(ids[1], TEST_DB_KIND).toEqual(ids[0]);
    const rows = await ctx.database.db.execute<{ recorded_at: Date | string; created_at: Date | string }>(
      sql`select recorded_at, created_at from care_vitals where plan_id in (${a.plan}, ${b.plan})`,
    );
    expect(rows.rows).toHaveLength(2);
    for (const r of rows.rows) {
      expect(new Date(r.recorded_at).toISOString()).toBe(takenAt);
      // When the server received it is kept beside the clinical time.
      expect(new Date(r.created_at).getTime()).toBeGreaterThan(new Date(takenAt).getTime() + 30 * 60_000);
    }
    // Sent a third time later: answered with the same sets, nothing added.
    const later = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', body);
    expect(later.statusCode).toBe(201);
    expect(later.json().results.map((v: { id: string }) => v.id)).toEqual(ids[0]);
    // A key reused for another patient is refused.
    const reused = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', {
      entries: [{ hospitalization: b.stay, vitals: calm, idempotency_key: body.entries[0]!.idempotency_key }],
    });
    expect(reused.statusCode).toBe(409);
  });

  it('refuses a clinical time in the future or older than 24 hours; a patient discharged meanwhile is a 409', async () => {
    const a = await planInBed();
    for (const at of [Date.now() + 5 * 60_000, Date.now() - 25 * 3_600_000]) {
      const res = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', {
        recorded_at: new Date(at).toISOString(),
        entries: [{ hospitalization: a.stay, vitals: calm, idempotency_key: randomUUID() }],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json())).toContain('recorded_at');
    }
    const one = await call(ctx.app, nurse, 'POST', `/api/care/plans/${a.plan}/vitals/`, {
      vitals: calm,
      recorded_at: new Date(Date.now() - 23 * 3_600_000).toISOString(),
      idempotency_key: randomUUID(),
    });
    expect(one.statusCode, one.body).toBe(201);
    const out = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${a.stay}/discharge/`, {
      mode: 'home',
      diagnoses: ['B50.9'],
      summary: 'Évolution favorable.',
    });
    expect(out.statusCode, out.body).toBe(200);
    const closed = await call(ctx.app, nurse, 'POST', '/api/care/rounds/', {
      entries: [{ hospitalization: a.stay, vitals: calm, idempotency_key: randomUUID() }],
    });
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json().detail).toBeTruthy();
  });

  it('a task record sent twice at once is kept once; a task given to someone else meanwhile is refused', async () => {
    const { plan } = await planInBed();
    await order(plan, {
      kind: 'dressing',
      title: 'Pansement',
      schedule: { kind: 'every_hours', hours: 4 },
      start_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    });
    const [first, second] = (await executionsOf(plan)).filter((e) => e.status === 'scheduled');
    const doneAt = new Date(Date.now() - 50 * 60_000).toISOString();
    const body = { outcome: 'done', done_at: doneAt, idempotency_key: randomUUID(), expected_assignee: null };
    const both = await Promise.all(
      [1, 2].map(() => call(ctx.app, nurse, 'POST', `/api/care/executions/${first!.id}/record/`, body)),
    );
    expect(
      both.map((r) => r.statusCode),
      TEST_DB_KIND,
    ).toEqual([200, 200]);
    expect(both[1]!.json()).toMatchObject({ status: 'done', done_at: doneAt, done_by: { id: nurse.id } });
    const other = await call(ctx.app, nurse, 'POST', `/api/care/executions/${first!.id}/record/`, {
      ...body,
      idempotency_key: randomUUID(),
    });
    expect(other.statusCode).toBe(409);
    // The charge nurse gives the next one to a colleague while the nurse is offline.
    const given = await call(ctx.app, charge, 'POST', `/api/care/executions/${second!.id}/assign/`, {
      nurse: nurse2.id,
    });
    expect(given.statusCode, given.body).toBe(200);
    const refused = await call(ctx.app, nurse, 'POST', `/api/care/executions/${second!.id}/record/`, {
      outcome: 'done',
      idempotency_key: randomUUID(),
      expected_assignee: null,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/autre infirmier/);
  });
});

describe('medication administration record', () => {
  async function signedOnVisit() {
    const c = await startedConsultation(ctx.app, { desk, assigner: queue, doctor }, h.dep('URG').id);
    // Multivitamins: hourly doses stay under every dose limit (issue 34 checks paracetamol's 4 g a day).
    const meds = await call(ctx.app, doctor, 'GET', '/api/medications/?atc=A11BA&page_size=5');
    const pres = meds.json().results[0].presentations.find((p: { form: string }) => p.form === 'tablet').id;
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      weight_kg: 70,
      lines: [
        {
          presentation: pres,
          dose: 1,
          dose_unit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'every_hours', hours: 1 },
          duration_days: 2,
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    // Signed two hours ago, so that doses are overdue.
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
      version: rx.json().version,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    await ctx.database.db.execute(
      sql`update prescriptions set signed_at = now() - interval '3 hours' where id = ${rx.json().id}`,
    );
    const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { admission: c.admission });
    expect(plan.statusCode, plan.body).toBe(201);
    const from = new Date(Date.now() - 4 * 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${plan.json().id}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    const line = (mar.json() as TMar).lines[0]!;
    return { plan: plan.json().id as string, line };
  }

  it('a repeated submit returns the first record; another key for the same dose is a 409 (concurrent, both engines)', async () => {
    const { line } = await signedOnVisit();
    const overdue = line.doses.filter((d) => d.status === 'overdue');
    expect(overdue.length).toBeGreaterThanOrEqual(2);
    const key = randomUUID();
    const body = {
      outcome: 'given',
      prescription_line: line.id,
      scheduled_at: overdue[0]!.scheduled_at,
      idempotency_key: key,
      dose: 1,
      dose_unit: 'comprimé',
      route: 'oral',
    };
    const same = await Promise.all(
      [1, 2, 3].map(() => call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', body)),
    );
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    const ids = new Set(same.map((r) => (r.json() as TDoseRecord).id));
    expect(ids.size).toBe(1);
    expect(same[0]!.json()).toMatchObject({ outcome: 'given', late: true, recorded_by: { id: nurse.id } });

    const other = { ...body, scheduled_at: overdue[1]!.scheduled_at };
    const race = await Promise.all([
      call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
        ...other,
        idempotency_key: randomUUID(),
      }),
      call(ctx.app, nurse2, 'POST', '/api/care/mar/administrations/', {
        outcome: 'not_given',
        prescription_line: line.id,
        scheduled_at: other.scheduled_at,
        idempotency_key: randomUUID(),
        reason: 'refused',
      }),
    ]);
    expect(race.map((r) => r.statusCode).sort(), TEST_DB_KIND).toEqual([201, 409]);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from medication_administrations where prescription_line_id = ${line.id}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(2);
    // A time that is not a dose of the line is refused; a key reused for another dose is a 409.
    const wrongTime = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      ...body,
      idempotency_key: randomUUID(),
      scheduled_at: new Date(new Date(overdue[0]!.scheduled_at).getTime() + 60_000 * 17).toISOString(),
    });
    expect(wrongTime.statusCode).toBe(400);
    const reused = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      ...body,
      scheduled_at: overdue[2]?.scheduled_at ?? line.doses.at(-1)!.scheduled_at,
    });
    expect(reused.statusCode).toBe(409);
  });

  it("lists overdue doses and late executions in the nurse's tasks; others' tasks are refused", async () => {
    const { plan } = await signedOnVisit();
    await order(plan, {
      kind: 'specimen',
      title: 'Hémocultures',
      priority: 'urgent',
      schedule: { kind: 'once' },
      start_at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const res = await call(ctx.app, nurse, 'GET', `/api/nurses/${nurse.id}/tasks/?page_size=100`);
    expect(res.statusCode, res.body).toBe(200);
    const tasks = res.json();
    const mine = tasks.results.filter(
      (t: { type: string; plan?: string; execution?: { plan: string } }) =>
        (t.type === 'dose' ? t.plan : t.execution?.plan) === plan,
    );
    expect(mine.some((t: { type: string; late: boolean }) => t.type === 'execution' && t.late)).toBe(true);
    expect(
      mine.some(
        (t: { type: string; dose?: { status: string } }) => t.type === 'dose' && t.dose?.status === 'overdue',
      ),
    ).toBe(true);
    const times = tasks.results.map((t: { scheduled_at: string }) => t.scheduled_at);
    expect([...times].sort()).toEqual(times);
    expect(tasks.overdue).toBeGreaterThan(0);
    // Small pages follow the whole list (doses and executions interleaved), with the same count and overdue.
    const pages: unknown[] = [];
    for (let page = 1; (page - 1) * 3 < tasks.results.length; page += 1) {
      const res = await call(
        ctx.app,
        nurse,
        'GET',
        `/api/nurses/${nurse.id}/tasks/?page_size=3&page=${page}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ count: tasks.count, overdue: tasks.overdue });
      pages.push(...res.json().results);
    }
    expect(pages.slice(0, tasks.results.length)).toEqual(tasks.results);
    // The care list counts the overdue doses with the late execution.
    const list = await call(ctx.app, nurse, 'GET', '/api/care/patients/?kind=emergency&page_size=100');
    expect(list.statusCode, list.body).toBe(200);
    const row = list.json().results.find((r: { plan: string | null }) => r.plan === plan);
    expect(row.overdue).toBeGreaterThanOrEqual(3);
    expect(tasks.shift.label).toMatch(/^\d\d:\d\d$/);
    // The charge nurse sees her tasks; a nurse of another department does not.
    expect((await call(ctx.app, charge, 'GET', `/api/nurses/${nurse.id}/tasks/`)).statusCode).toBe(200);
    expect((await call(ctx.app, medNurse, 'GET', `/api/nurses/${nurse.id}/tasks/`)).statusCode).toBe(403);
    expect((await call(ctx.app, nurse, 'GET', `/api/nurses/${otherNurse.id}/tasks/`)).statusCode).toBe(404);
  });
});

describe('the hospital clock', () => {
  it('kept per instance, it follows a change of the shift times at once', async () => {
    const before = await call(ctx.app, nurse, 'GET', `/api/nurses/${nurse.id}/tasks/`);
    expect(before.statusCode, before.body).toBe(200);
    expect(ctx.app.clockCache.size).toBeGreaterThan(0);
    const times = ['06:00', '14:00', '22:00'];
    const changed = await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', { shift_times: times });
    expect(changed.statusCode, changed.body).toBe(200);
    try {
      const shift = await call(ctx.app, nurse, 'GET', '/api/care/shift/');
      expect(shift.json().shift_times).toEqual(times);
      const after = await call(ctx.app, nurse, 'GET', `/api/nurses/${nurse.id}/tasks/`);
      expect(after.json().shift.label).toMatch(/^(06|14|22):00$/);
    } finally {
      await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', { shift_times: ['07:00', '19:00'] });
    }
  });
});

describe('handoffs', () => {
  it('pre-fills the shift changes, is written once, acknowledged by someone else', async () => {
    const { plan } = await planInBed();
    await order(plan, { kind: 'feeding', title: 'Alimentation mixée', schedule: { kind: 'once' } });
    await call(ctx.app, nurse, 'POST', `/api/care/plans/${plan}/vitals/`, {
      vitals: {
        respiratory_rate: 27,
        heart_rate: 125,
        temperature: 39.3,
        spo2: 93,
        systolic_bp: 105,
        avpu: 'A',
      },
    });
    const draft = await call(ctx.app, nurse, 'GET', `/api/care/plans/${plan}/handoff-draft/`);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().changes.map((c: { kind: string }) => c.kind)).toEqual(
      expect.arrayContaining(['new_order', 'news2']),
    );
    expect(draft.json().existing).toBeNull();
    const written = await call(ctx.app, nurse, 'POST', '/api/care/handoffs/', {
      plan,
      situation: draft.json().situation,
      background: draft.json().background,
      assessment: draft.json().assessment,
      recommendation: 'Contrôle des constantes à 1 h.',
    });
    expect(written.statusCode, written.body).toBe(201);
    const id = written.json().id as string;
    expect(
      (await call(ctx.app, nurse, 'POST', '/api/care/handoffs/', { plan, situation: 'Deux fois' }))
        .statusCode,
    ).toBe(409);
    const toAck = await call(ctx.app, nurse2, 'GET', '/api/care/handoffs/?box=to_acknowledge&page_size=100');
    expect(toAck.json().results.map((r: { handoff: { id: string } }) => r.handoff.id)).toContain(id);
    const mineToAck = await call(
      ctx.app,
      nurse,
      'GET',
      '/api/care/handoffs/?box=to_acknowledge&page_size=100',
    );
    expect(mineToAck.json().results.map((r: { handoff: { id: string } }) => r.handoff.id)).not.toContain(id);
    const unack = await call(ctx.app, charge, 'GET', '/api/care/handoffs/?box=unacknowledged&page_size=100');
    expect(unack.json().results.map((r: { handoff: { id: string } }) => r.handoff.id)).toContain(id);

    expect((await call(ctx.app, nurse, 'POST', `/api/care/handoffs/${id}/acknowledge/`, {})).statusCode).toBe(
      403,
    );
    const ack = await call(ctx.app, nurse2, 'POST', `/api/care/handoffs/${id}/acknowledge/`, { note: 'Vu' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toMatchObject({ acknowledged_by: { id: nurse2.id }, acknowledge_note: 'Vu' });
    expect(
      (await call(ctx.app, charge, 'POST', `/api/care/handoffs/${id}/acknowledge/`, {})).statusCode,
    ).toBe(409);
    await expect(
      ctx.database.db.execute(sql`update care_handoffs set acknowledged_by = author_id where id = ${id}`),
    ).rejects.toThrow();
  });
});

describe('tenancy and departments', () => {
  it('a nurse of another department is refused (403); another hospital sees nothing (404)', async () => {
    const { plan, stay } = await planInBed();
    expect((await call(ctx.app, medNurse, 'GET', `/api/care/plans/${plan}/`)).statusCode).toBe(403);
    expect(
      (await call(ctx.app, medNurse, 'POST', '/api/care/plans/', { hospitalization: stay })).statusCode,
    ).toBe(403);
    expect((await call(ctx.app, otherNurse, 'GET', `/api/care/plans/${plan}/`)).statusCode).toBe(404);
    expect(
      (await call(ctx.app, otherNurse, 'POST', '/api/care/plans/', { hospitalization: stay })).statusCode,
    ).toBe(404);
    // `/care/{stay id}` (issue 37): the stay's id finds the stay's care file, within the hospital only.
    const byStay = await call(ctx.app, nurse, 'GET', `/api/care/plans/${stay}/`);
    expect(byStay.statusCode, byStay.body).toBe(200);
    expect(byStay.json().id).toBe(plan);
    expect((await call(ctx.app, otherNurse, 'GET', `/api/care/plans/${stay}/`)).statusCode).toBe(404);
    const list = await call(ctx.app, medNurse, 'GET', '/api/care/patients/?page_size=100');
    expect(list.json().results.map((r: { plan: string | null }) => r.plan)).not.toContain(plan);
    const mine = await call(ctx.app, nurse, 'GET', '/api/care/patients/?page_size=100');
    expect(mine.json().results.map((r: { plan: string | null }) => r.plan)).toContain(plan);
  });
});
