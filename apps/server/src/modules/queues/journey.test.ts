import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, admit, call, createPatient, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let secretary: Actor;
let queueManager: Actor;
let nurse: Actor;
let doctor: Actor;
let doctor2: Actor;
let head: Actor;
let foreign: Actor;
let sats: Awaited<ReturnType<typeof journeyHospital>>;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx, { triageScale: 'FRENCH' });
  secretary = await h.as('SECRETARY');
  queueManager = await h.as('QUEUE_MANAGER');
  nurse = await h.as('NURSE');
  doctor = await h.as('DOCTOR');
  doctor2 = await h.as('DOCTOR', 'MED');
  head = await h.as('HEAD_DOCTOR', 'MED');
  sats = await journeyHospital(ctx, { triageScale: 'SATS' });
  foreign = await sats.as('QUEUE_MANAGER');
});
afterAll(() => ctx.close());

async function newVisit(department = 'URG') {
  const p = await createPatient(ctx.app, secretary);
  return admit(ctx.app, secretary, p.id, h.dep(department).id);
}
const triage = (admission: string, vitals: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call(ctx.app, nurse, 'POST', '/api/triage/', { admission, vitals, chief_complaint: 'Douleur', ...extra });
const assign = (actor: Actor, admission: string, doctorId: string) =>
  call(ctx.app, actor, 'POST', '/api/assign-patient/', { admission, doctor: doctorId });
const notificationsOf = async (userId: string) =>
  (
    await ctx.database.db.execute<{
      notification_type: string;
      data: Record<string, unknown>;
      title: string;
    }>(
      sql`select notification_type, data, title from notifications where recipient_id = ${userId} order by created_at, id`,
    )
  ).rows;

describe('reference lists', () => {
  it('lists the hospital’s departments with their kind and its practitioners only', async () => {
    const deps = await call(ctx.app, secretary, 'GET', '/api/departments/');
    expect(
      deps
        .json()
        .results.map((d: { code: string; kind: string }) => `${d.code}:${d.kind}`)
        .sort(),
    ).toEqual(['MAT:maternity', 'MED:clinical', 'URG:emergency']);
    const docs = await call(ctx.app, secretary, 'GET', '/api/doctors/');
    const ids = docs.json().results.map((d: { id: string }) => d.id);
    expect(ids.sort()).toEqual([doctor.id, doctor2.id, head.id].sort());
    expect(docs.json().results.find((d: { id: string }) => d.id === head.id).title_prefix).toBe('Dr.');
  });
});

describe('admissions', () => {
  it('admits with status waiting and a daily queue number', async () => {
    const a = await newVisit();
    const b = await newVisit('MED');
    expect(a.status).toBe('waiting');
    expect(b.queue_number).toBe(a.queue_number + 1);
    const again = await call(ctx.app, secretary, 'POST', '/api/admissions/', {
      patient: (a.patient as { id: string }).id,
      department: h.dep('URG').id,
      admission_type: 'emergency',
      reason: 'x',
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a visit type the department does not receive, at registration and on a change', async () => {
    const p = await createPatient(ctx.app, secretary);
    const outpatientAtEr = await call(ctx.app, secretary, 'POST', '/api/admissions/', {
      patient: p.id,
      department: h.dep('URG').id,
      admission_type: 'outpatient',
      reason: 'Renouvellement',
    });
    expect(outpatientAtEr.statusCode).toBe(400);
    expect(outpatientAtEr.json().admission_type).toEqual([
      'Ce type de visite ne correspond pas au service : les urgences ne reçoivent que des urgences, une visite de maternité va en maternité.',
    ]);
    const maternityAtMed = await call(ctx.app, secretary, 'POST', '/api/admissions/', {
      patient: p.id,
      department: h.dep('MED').id,
      admission_type: 'maternity',
      reason: 'Grossesse',
    });
    expect(maternityAtMed.statusCode).toBe(400);
    const a = await admit(ctx.app, secretary, p.id, h.dep('MED').id, 'outpatient');
    const moved = await call(ctx.app, secretary, 'PATCH', `/api/admissions/${a.id}/`, {
      department: h.dep('URG').id,
    });
    expect(moved.statusCode).toBe(400);
    const both = await call(ctx.app, secretary, 'PATCH', `/api/admissions/${a.id}/`, {
      department: h.dep('URG').id,
      admission_type: 'emergency',
    });
    expect(both.statusCode, both.body).toBe(200);
  });

  it('follows the status machine; illegal moves are 409; cancel needs a reason', async () => {
    const a = await newVisit();
    const complete = await call(ctx.app, doctor, 'POST', `/api/admissions/${a.id}/status/`, {
      status: 'completed',
    });
    expect(complete.statusCode).toBe(409);
    expect((await call(ctx.app, secretary, 'POST', `/api/admissions/${a.id}/cancel/`, {})).statusCode).toBe(
      400,
    );
    const cancelled = await call(ctx.app, secretary, 'POST', `/api/admissions/${a.id}/cancel/`, {
      reason: 'Parti',
    });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Parti' });
    expect((await assign(queueManager, a.id, doctor.id)).statusCode).toBe(409);
    expect(
      (await call(ctx.app, secretary, 'POST', `/api/admissions/${a.id}/cancel/`, { reason: 'Encore' }))
        .statusCode,
    ).toBe(409);
  });

  it('filters by status, department, doctor and patient search', async () => {
    const p = await createPatient(ctx.app, secretary, { first_name: 'Filtré', last_name: 'Ngalula' });
    const a = await admit(ctx.app, secretary, p.id, h.dep('MAT').id, 'maternity');
    const list = async (qs: string) =>
      (await call(ctx.app, secretary, 'GET', `/api/admissions/?${qs}`))
        .json()
        .results.map((r: { id: string }) => r.id);
    expect(await list(`department=${h.dep('MAT').id}&admission_type=maternity`)).toEqual([a.id]);
    expect(await list('search=ngalula')).toEqual([a.id]);
    expect(await list('status=cancelled')).not.toContain(a.id);
    await assign(queueManager, a.id, doctor2.id);
    expect(await list(`doctor=${doctor2.id}`)).toContain(a.id);
    expect(await list(`doctor=${doctor.id}`)).not.toContain(a.id);
  });
});

describe('triage', () => {
  it('refuses vitals out of physiological bounds with field errors', async () => {
    const a = await newVisit();
    const res = await triage(a.id, {
      temperature: 52,
      heart_rate: 400,
      spo2: 100,
      systolic_bp: 80,
      diastolic_bp: 90,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual([
      'vitals.diastolic_bp',
      'vitals.heart_rate',
      'vitals.temperature',
    ]);
  });

  it('suggests the level, keeps the override with its reason, and sets the visit level (FRENCH)', async () => {
    const a = await newVisit();
    const res = await triage(a.id, { spo2: 88, heart_rate: 120 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      scale: 'FRENCH',
      suggested_level: '2',
      level: '2',
      target_minutes: 20,
    });
    const noReason = await triage(a.id, { spo2: 88 }, { level: '1' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().override_reason).toBeTruthy();
    const bad = await triage(a.id, { spo2: 88 }, { level: 'red', override_reason: 'x' });
    expect(bad.json().level).toBeTruthy();
    const over = await triage(a.id, { spo2: 88 }, { level: '1', override_reason: 'Détresse respiratoire' });
    expect(over.json()).toMatchObject({ suggested_level: '2', level: '1', overridden: true });
    const adm = await call(ctx.app, nurse, 'GET', `/api/admissions/${a.id}/`);
    expect(adm.json().triage).toMatchObject({ level: '1', rank: 1, target_minutes: 0 });
  });

  it('computes TEWS and a colour on a SATS hospital', async () => {
    const sec = await sats.as('SECRETARY');
    const n = await sats.as('NURSE');
    const p = await createPatient(ctx.app, sec);
    const a = await admit(ctx.app, sec, p.id, sats.dep('URG').id);
    const res = await call(ctx.app, n, 'POST', '/api/triage/', {
      admission: a.id,
      chief_complaint: 'Dyspnée',
      vitals: {
        respiratory_rate: 32,
        heart_rate: 135,
        systolic_bp: 95,
        temperature: 37,
        avpu: 'A',
        mobility: 'walking',
        trauma: false,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ scale: 'SATS', tews: 7, level: 'red', target_minutes: 0 });
    // A hospital's scale only: a FRENCH level is refused there.
    const wrong = await call(ctx.app, n, 'POST', '/api/triage/', {
      admission: a.id,
      chief_complaint: 'x',
      vitals: {},
      level: '3A',
      override_reason: 'x',
    });
    expect(wrong.statusCode).toBe(400);
  });

  it('orders the waiting room: not yet triaged first, then by level, then arrival; flags exceeded targets', async () => {
    const first = await newVisit('MAT');
    const second = await newVisit('MAT');
    const third = await newVisit('MAT');
    await triage(third.id, { pain: 9 }); // level 2
    await triage(first.id, {}); // level 5
    // The first arrival waited 30 minutes: beyond level 2's 20, within level 5's 240.
    await ctx.database.db.execute(
      sql`update admissions set admitted_at = now() - interval '30 minutes' where id in (${first.id}, ${third.id})`,
    );
    const room = await call(ctx.app, nurse, 'GET', `/api/triage/?department=${h.dep('MAT').id}`);
    const rows = room.json().results as {
      admission_id: string;
      target_exceeded: boolean;
      waited_minutes: number;
    }[];
    const order = rows
      .map((r) => r.admission_id)
      .filter((id) => [first.id, second.id, third.id].includes(id));
    // The second arrival, not triaged yet, comes first: nobody knows yet how urgent she is.
    expect(order).toEqual([second.id, third.id, first.id]);
    expect(rows.find((r) => r.admission_id === second.id)!.waited_minutes).toBeGreaterThanOrEqual(0);
    // The admission's reason comes along: the triage form starts from it.
    expect(rows.find((r) => r.admission_id === second.id)).toMatchObject({ reason: 'Fièvre' });
    expect(rows.find((r) => r.admission_id === third.id)!.target_exceeded).toBe(true);
    expect(rows.find((r) => r.admission_id === first.id)!.target_exceeded).toBe(false);
    expect(rows.find((r) => r.admission_id === first.id)!.waited_minutes).toBeGreaterThanOrEqual(30);
  });
});

describe('assignment, queues and consultations', () => {
  it('assigns, notifies the doctor, re-targets with notifications to both, and orders the queues', async () => {
    const low = await newVisit();
    const high = await newVisit();
    await triage(low.id, {}); // 5
    await triage(high.id, { systolic_bp: 65 }); // 1
    const base1 = (await notificationsOf(doctor.id)).length;
    const base2 = (await notificationsOf(doctor2.id)).length;
    const res = await assign(queueManager, low.id, doctor.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().execution).toMatchObject({ status: 'assigned', admission_status: 'assigned' });
    const got = (await notificationsOf(doctor.id)).slice(base1);
    expect(got.map((n) => n.notification_type)).toEqual(['execution_assigned', 'consultation']);
    expect(got[1]!.data).toMatchObject({ action: 'patient_assigned', admission_id: low.id });

    await assign(secretary, high.id, doctor2.id);
    const moved = await assign(head, high.id, doctor.id);
    expect(moved.json().reassigned_from.id).toBe(doctor2.id);
    expect((await notificationsOf(doctor2.id)).slice(base2).map((n) => n.notification_type)).toEqual([
      'execution_assigned',
      'consultation',
      'execution_reassigned',
    ]);
    expect((await notificationsOf(doctor.id)).slice(base1 + 2).map((n) => n.notification_type)).toEqual([
      'execution_reassigned',
      'consultation',
    ]);

    const queue = await call(ctx.app, doctor, 'GET', `/api/doctors/${doctor.id}/execution-queue/`);
    const ids = queue.json().results.map((e: { admission_id: string }) => e.admission_id);
    expect(ids.indexOf(high.id)).toBeLessThan(ids.indexOf(low.id));
    const dq = await call(ctx.app, secretary, 'GET', `/api/departments/${h.dep('URG').id}/execution-queue/`);
    const entries = dq.json().results as { admission_id: string; status: string }[];
    expect(entries.find((e) => e.admission_id === high.id)!.status).toBe('assigned');
    expect(entries.some((e) => e.status === 'unassigned')).toBe(true);
    expect((await assign(nurse, low.id, doctor.id)).statusCode).toBe(403);
  });

  it('starts the consultation: assigned doctor or head doctor only, once; the workload follows', async () => {
    const a = await newVisit();
    const b = await newVisit();
    await assign(queueManager, a.id, doctor.id);
    await assign(queueManager, b.id, doctor.id);
    const before = (await call(ctx.app, doctor, 'GET', `/api/doctors/${doctor.id}/workload/`)).json();

    const start = (actor: Actor, id: string) =>
      call(ctx.app, actor, 'POST', `/api/admissions/${id}/start-consultation/`);
    expect((await start(secretary, a.id)).statusCode).toBe(403);
    expect((await start(doctor2, a.id)).statusCode).toBe(403);
    const ok = await start(doctor, a.id);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ status: 'in_progress', admission: a.id, doctor: { id: doctor.id } });
    expect((await start(doctor, a.id)).statusCode).toBe(409);
    expect((await call(ctx.app, doctor, 'GET', `/api/admissions/${a.id}/`)).json().status).toBe(
      'in_consultation',
    );
    expect((await assign(queueManager, a.id, doctor2.id)).statusCode).toBe(409);
    expect((await start(head, b.id)).statusCode).toBe(201);

    const mid = (await call(ctx.app, doctor, 'GET', `/api/doctors/${doctor.id}/workload/`)).json();
    expect(mid.waiting).toBe(before.waiting - 2);
    expect(mid.in_progress).toBe(before.in_progress + 1);
    await ctx.database.db.execute(
      sql`update executions set started_at = now() - interval '12 minutes' where admission_id = ${a.id}`,
    );
    const done = await call(ctx.app, doctor, 'POST', `/api/admissions/${a.id}/status/`, {
      status: 'completed',
    });
    expect(done.json().status).toBe('completed');
    const after = (await call(ctx.app, doctor, 'GET', `/api/doctors/${doctor.id}/workload/`)).json();
    expect(after).toMatchObject({
      in_progress: before.in_progress,
      completed_today: before.completed_today + 1,
    });
    expect(after.average_consultation_minutes).toBeCloseTo(12, 0);
    const completed = await call(
      ctx.app,
      doctor,
      'GET',
      `/api/doctors/${doctor.id}/execution-queue/?status=completed`,
    );
    expect(completed.json().results.map((e: { admission_id: string }) => e.admission_id)).toContain(a.id);
  });

  it('answers 404 for another hospital’s objects, exactly like missing ones', async () => {
    const a = await newVisit();
    const missing = '0190d5a4-0000-7000-8000-000000000000';
    for (const url of [
      `/api/admissions/${a.id}/`,
      `/api/doctors/${doctor.id}/workload/`,
      `/api/doctors/${doctor.id}/execution-queue/`,
      `/api/departments/${h.dep('URG').id}/execution-queue/`,
    ]) {
      const res = await call(ctx.app, foreign, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(
        (await call(ctx.app, foreign, 'GET', url.replace(/[0-9a-f-]{36}/, missing))).json(),
      );
    }
    expect((await assign(foreign, a.id, doctor.id)).statusCode).toBe(404);
  });
});

describe('assignable practitioners for a visit', () => {
  it('lists the practitioners of the visit’s department first, then the others by load', async () => {
    const midwife = await h.as('SAGE_FEMME', 'MAT');
    const urgent = await newVisit('URG');
    const clinical = await newVisit('MED');
    const list = async (admission: string) =>
      (
        await call(
          ctx.app,
          secretary,
          'GET',
          `/api/doctors/?ordering=load&admission=${admission}&page_size=100`,
        )
      )
        .json()
        .results.map((d: { id: string }) => d.id) as string[];
    const forUrgent = await list(urgent.id);
    expect(forUrgent[0]).toBe(doctor.id);
    expect(forUrgent).toContain(midwife.id);
    const forClinical = await list(clinical.id);
    expect(forClinical.slice(0, 2).sort()).toEqual([doctor2.id, head.id].sort());
    // another hospital's visit changes nothing and reveals nothing
    const other = await call(ctx.app, foreign, 'GET', `/api/doctors/?admission=${urgent.id}`);
    expect(other.statusCode).toBe(200);
    expect(other.json().results.map((d: { id: string }) => d.id)).not.toContain(doctor.id);
  });
});
