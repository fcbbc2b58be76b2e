import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  consultationFor,
  examHospital,
  notificationsOf,
  type OrderJson,
  orderExams,
  request,
} from '../../../test/exams.js';
import { type Actor, createPatient } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof examHospital>>;
let secretary: Actor;
let queueManager: Actor;
let admin: Actor;
let wardNurse: Actor;
let doctor: Actor;
let otherDoctor: Actor;
let head: Actor;
let midwife: Actor;
let technician: Actor;
let biologist: Actor;
let foreignDoctor: Actor;
let foreignTechnician: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await examHospital(ctx);
  secretary = await h.as('SECRETARY');
  queueManager = await h.as('QUEUE_MANAGER');
  admin = await h.as('ADMIN');
  wardNurse = await h.as('NURSE', 'URG');
  // The requesting doctor reads English: the validation notification must be in English.
  doctor = await h.as('DOCTOR', 'URG', 'en');
  otherDoctor = await h.as('DOCTOR', 'MED');
  head = await h.as('HEAD_DOCTOR', 'MED');
  midwife = await h.as('SAGE_FEMME', 'MAT');
  technician = await h.as('NURSE', 'LAB');
  biologist = await h.as('DOCTOR', 'LAB');
  const foreign = await examHospital(ctx);
  foreignDoctor = await foreign.as('DOCTOR', 'URG');
  foreignTechnician = await foreign.as('NURSE', 'LAB');
});
afterAll(() => ctx.close());

const act = (actor: Actor, order: { id: string }, action: string, body?: unknown) =>
  request(ctx, actor, 'POST', `/api/exams/${order.id}/${action}/`, body);
const enter = (
  actor: Actor,
  order: { id: string },
  results: Record<string, unknown>,
  version: number,
  report?: string,
) =>
  request(ctx, actor, 'PUT', `/api/exams/${order.id}/results/`, {
    results,
    version,
    ...(report !== undefined ? { report } : {}),
  });
const read = async (actor: Actor, order: { id: string }) =>
  (await request(ctx, actor, 'GET', `/api/exams/${order.id}/`)).json() as OrderJson;

async function directOrder(exam: string, over: Record<string, unknown> = {}, patientOver = {}) {
  const patient = await createPatient(ctx.app, secretary, patientOver);
  const [order] = await orderExams(ctx, doctor, { patient: patient.id, exam, ...over });
  return { patient, order: order! };
}

async function startedOrder(exam: string, patientOver = {}, over: Record<string, unknown> = {}) {
  const { order, patient } = await directOrder(exam, over, patientOver);
  const started = await act(technician, order, 'start', { version: order.version });
  expect(started.statusCode, started.body).toBe(200);
  return { order: started.json() as OrderJson, patient };
}

const NORMAL_NFS = { hb: 13.5, hct: 41, rbc: 4.6, mcv: 88, wbc: 6.2, neut: 3.4, lymph: 2.1, plt: 250 };

describe('the issue’s check: order from a consultation, results, validation, notification, alerts', () => {
  it('runs the whole exam journey', async () => {
    const { patient, admission, consultation } = await consultationFor(ctx, h, {
      secretary,
      queueManager,
      doctor,
    });

    // The doctor orders two exams at once from the consultation.
    const orders = await orderExams(ctx, doctor, {
      patient: patient.id,
      consultation: consultation.id,
      exams: ['NFS', 'tdr-palu'],
      urgency: 'urgent',
      clinical_info: 'Fièvre depuis 3 jours',
    });
    expect(orders).toHaveLength(2);
    const [nfs, malaria] = orders as [OrderJson, OrderJson];
    expect(nfs).toMatchObject({
      status: 'requested',
      urgency: 'urgent',
      consultation: consultation.id,
      admission: admission.id,
      clinical_info: 'Fièvre depuis 3 jours',
      exam: { code: 'NFS', kind: 'lab' },
      department: { id: h.dep('LAB').id, kind: 'laboratory' },
      requested_by: { id: doctor.id },
      version: 1,
    });
    expect(nfs.order_number).toMatch(new RegExp(`^${h.hospital.code}-EX-\\d{6}$`));
    expect(Number(malaria.order_number.slice(-6))).toBe(Number(nfs.order_number.slice(-6)) + 1);
    // The requester may cancel; the laboratory sees start (and cancel while requested).
    expect(nfs.actions).toEqual(['cancel']);
    expect((await read(technician, nfs)).actions).toEqual(['start', 'cancel']);

    // The laboratory technician starts both and enters the results, one abnormal.
    for (const o of orders) expect((await act(technician, o, 'start', { version: 1 })).statusCode).toBe(200);
    const nfsDone = await enter(technician, nfs, NORMAL_NFS, 2);
    expect(nfsDone.statusCode, nfsDone.body).toBe(200);
    expect(nfsDone.json()).toMatchObject({
      status: 'completed',
      abnormal: false,
      resulted_by: { id: technician.id },
    });
    const malariaDone = await enter(technician, malaria, { result: 'positive_pf' }, 2);
    expect(malariaDone.statusCode, malariaDone.body).toBe(200);
    expect(malariaDone.json()).toMatchObject({
      status: 'completed',
      abnormal: true,
      results: { result: { value: 'positive_pf', flag: 'abnormal' } },
      version: 3,
    });

    // The technician may not validate (nurse); the biologist validates both.
    expect((await act(technician, malaria, 'validate')).statusCode).toBe(403);
    for (const o of orders) {
      const validated = await act(biologist, o, 'validate', { version: 3 });
      expect(validated.statusCode, validated.body).toBe(200);
      expect(validated.json()).toMatchObject({ status: 'validated', validated_by: { id: biologist.id } });
    }

    // The requesting doctor is notified, in English, with what the client needs.
    const notes = (await notificationsOf(ctx, doctor.id)).filter((n) => n.data.action === 'exam_validated');
    expect(notes).toHaveLength(2);
    const malariaNote = notes.find((n) => n.data.exam === malaria.id)!;
    expect(malariaNote).toMatchObject({
      notification_type: 'consultation',
      initiated_by: biologist.id,
      data: {
        action: 'exam_validated',
        exam: malaria.id,
        patient: patient.id,
        consultation: consultation.id,
        abnormal: true,
        urgent: true,
      },
    });
    expect(malariaNote.title).toBe('Urgent abnormal result: Malaria rapid diagnostic test (RDT)');
    expect(malariaNote.message).toContain('validated by');
    expect(notes.find((n) => n.data.exam === nfs.id)).toMatchObject({
      title: 'Result validated: Full blood count (FBC)',
      data: { abnormal: false, urgent: true },
    });

    // The dashboard alert lists the urgent abnormal result until the doctor acknowledges it.
    const alerts = await request(ctx, doctor, 'GET', '/api/exams/alerts/');
    expect(alerts.statusCode).toBe(200);
    expect(alerts.json()).toMatchObject({ count: 1, urgent_count: 1, results: [{ id: malaria.id }] });
    expect(alerts.json().results[0].actions).toEqual(['acknowledge']);
    expect((await act(biologist, malaria, 'acknowledge')).statusCode).toBe(403);
    const ack = await act(doctor, malaria, 'acknowledge');
    expect(ack.statusCode).toBe(200);
    expect(ack.json().acknowledged_at).not.toBeNull();
    expect((await act(doctor, malaria, 'acknowledge')).statusCode).toBe(200);
    expect((await request(ctx, doctor, 'GET', '/api/exams/alerts/')).json()).toMatchObject({
      count: 0,
      urgent_count: 0,
    });

    // The consultation's orders, with their flags, for the consultation screen.
    const list = await request(ctx, doctor, 'GET', `/api/exams/?consultation=${consultation.id}`);
    expect(list.json().count).toBe(2);
    const line = list
      .json()
      .results.find((o: OrderJson) => o.id === malaria.id)
      .result_lines.find((l: { key: string }) => l.key === 'result');
    expect(line).toMatchObject({
      value: 'positive_pf',
      flag: 'abnormal',
      value_label_en: 'Positive P. falciparum',
    });
  });

  it('refuses to order from a consultation of another patient, of another doctor, or once closed', async () => {
    const { patient, consultation } = await consultationFor(ctx, h, { secretary, queueManager, doctor });
    const other = await createPatient(ctx.app, secretary);
    const wrongPatient = await request(ctx, doctor, 'POST', '/api/exams/', {
      patient: other.id,
      consultation: consultation.id,
      exam: 'CRP',
    });
    expect(wrongPatient.statusCode).toBe(400);
    expect(wrongPatient.json()).toHaveProperty('consultation');
    const notMine = await request(ctx, otherDoctor, 'POST', '/api/exams/', {
      patient: patient.id,
      consultation: consultation.id,
      exam: 'CRP',
    });
    expect(notMine.statusCode).toBe(403);
    // A head doctor may edit any consultation, so may order from it.
    expect(
      (
        await request(ctx, head, 'POST', '/api/exams/', {
          patient: patient.id,
          consultation: consultation.id,
          exam: 'CRP',
        })
      ).statusCode,
    ).toBe(201);
    await ctx.database.db.execute(
      sql`update consultations set status = 'completed', completed_at = now() where id = ${consultation.id}`,
    );
    const closed = await request(ctx, doctor, 'POST', '/api/exams/', {
      patient: patient.id,
      consultation: consultation.id,
      exam: 'CRP',
    });
    expect(closed.statusCode).toBe(409);
  });

  it('refuses unknown exams, duplicates, both or neither of exam/exams, and unknown patients', async () => {
    const patient = await createPatient(ctx.app, secretary);
    const post = (body: Record<string, unknown>) => request(ctx, doctor, 'POST', '/api/exams/', body);
    const unknown = await post({ patient: patient.id, exams: ['NFS', 'NOPE'] });
    expect(unknown.statusCode).toBe(400);
    // Which exam is unknown, by its position: the request's own text is never echoed back.
    expect(unknown.json().exams).toEqual(["L'examen n° 2 n'est pas dans le catalogue."]);
    expect((await post({ patient: patient.id, exams: ['NFS', 'nfs'] })).statusCode).toBe(400);
    expect((await post({ patient: patient.id })).statusCode).toBe(400);
    expect((await post({ patient: patient.id, exam: 'NFS', exams: ['CRP'] })).statusCode).toBe(400);
    expect((await post({ patient: patient.id, exam: 'NFS', urgency: 'stat' })).json()).toHaveProperty(
      'urgency',
    );
    const foreignPatient = await post({ patient: '0190a1b2-0000-7000-8000-000000000000', exam: 'NFS' });
    expect(foreignPatient.statusCode).toBe(400);
    expect(foreignPatient.json()).toHaveProperty('patient');
    // Nothing was created by the refused requests.
    const list = await request(ctx, doctor, 'GET', `/api/exams/?patient=${patient.id}`);
    expect(list.json().count).toBe(0);
  });

  it('orders by catalogue id as well as code, and sends imaging to the imaging department', async () => {
    const catalogue = await request(ctx, doctor, 'GET', '/api/exams/catalogue/?search=thorax&kind=imaging');
    const chest = catalogue.json().results[0];
    expect(chest.code).toBe('RX-THORAX');
    const { order } = await directOrder(chest.id);
    expect(order).toMatchObject({
      exam: { code: 'RX-THORAX' },
      department: { id: h.dep('IMG').id },
      consultation: null,
    });
  });
});

describe('the status machine', () => {
  it('answers 409 to illegal moves', async () => {
    const { order } = await directOrder('CRP');
    expect((await act(biologist, order, 'validate')).statusCode).toBe(409);
    expect((await enter(technician, order, { crp: 3 }, 1)).statusCode).toBe(409);
    expect((await act(doctor, order, 'acknowledge')).statusCode).toBe(409);
    expect((await act(technician, order, 'start')).statusCode).toBe(200);
    const again = await act(technician, order, 'start');
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain('en cours');
    expect((await enter(technician, order, { crp: 3 }, 2)).statusCode).toBe(200);
    expect((await act(doctor, order, 'cancel', { reason: 'Plus utile' })).statusCode).toBe(409);
    expect((await act(biologist, order, 'validate')).statusCode).toBe(200);
    expect((await enter(technician, order, { crp: 4 }, 4)).statusCode).toBe(409);
    expect((await act(biologist, order, 'validate')).statusCode).toBe(409);
  });

  it('lets results be corrected until validation, and refuses a stale version', async () => {
    const { order } = await startedOrder('CRP');
    expect((await enter(technician, order, { crp: 3 }, order.version)).statusCode).toBe(200);
    const stale = await enter(technician, order, { crp: 30 }, order.version);
    expect(stale.statusCode).toBe(409);
    const corrected = await enter(technician, order, { crp: 30 }, order.version + 1);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json()).toMatchObject({ abnormal: true, results: { crp: { value: 30, flag: 'high' } } });
    expect((await act(biologist, order, 'validate', { version: order.version + 1 })).statusCode).toBe(409);
  });

  it('cancels with a reason: the requester or a head doctor until the results, the lab while requested', async () => {
    const { order } = await directOrder('UREE');
    expect((await act(doctor, order, 'cancel', {})).statusCode).toBe(400);
    expect((await act(doctor, order, 'cancel', { reason: 'x' })).json()).toHaveProperty('reason');
    expect((await act(otherDoctor, order, 'cancel', { reason: 'Pas le mien' })).statusCode).toBe(403);
    expect((await act(wardNurse, order, 'cancel', { reason: 'Pas le mien' })).statusCode).toBe(403);
    const byLab = await act(technician, order, 'cancel', { reason: 'Échantillon hémolysé' });
    expect(byLab.statusCode).toBe(200);
    expect(byLab.json()).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Échantillon hémolysé',
      cancelled_by: { id: technician.id },
      actions: [],
    });

    const { order: running } = await startedOrder('UREE');
    expect((await act(technician, running, 'cancel', { reason: 'Trop tard' })).statusCode).toBe(403);
    expect((await act(head, running, 'cancel', { reason: 'Doublon' })).statusCode).toBe(200);
    const { order: mine } = await startedOrder('UREE');
    expect((await act(doctor, mine, 'cancel', { reason: 'Patient sorti' })).statusCode).toBe(200);
  });
});

describe('result entry', () => {
  it('refuses unknown keys, non-numbers, implausible numbers, unknown choices and missing values (400)', async () => {
    const { order } = await startedOrder('NFS');
    const bad = await enter(
      technician,
      order,
      { ...NORMAL_NFS, hb: 'abc', plt: 99999, flag: 'low' },
      order.version,
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['results.flag', 'results.hb', 'results.plt']);
    expect(bad.json()['results.hb']).toEqual(['Un nombre est attendu.']);
    // The bound as French writes it (issue 37: "2 000", with a narrow no-break space).
    expect(bad.json()['results.plt'][0]).toMatch(/1 et 2\s000/);
    const { hb: _hb, ...withoutHb } = NORMAL_NFS;
    const missing = await enter(technician, order, withoutHb, order.version);
    expect(missing.json()).toEqual({ 'results.hb': ['Valeur requise.'] });
    // A value object (a flag sent by the client) is not a value.
    const flagged = await enter(
      technician,
      order,
      { ...NORMAL_NFS, hb: { value: 13, flag: null } },
      order.version,
    );
    expect(flagged.statusCode).toBe(400);
    // Nothing was saved.
    expect(await read(technician, order)).toMatchObject({ status: 'in_progress', results: null });

    const { order: malaria } = await startedOrder('TDR-PALU');
    const choice = await request(ctx, technician, 'PUT', `/api/exams/${malaria.id}/results/`, {
      results: { result: 'maybe' },
      version: malaria.version,
    });
    expect(choice.statusCode).toBe(400);
    expect(choice.json()).toHaveProperty(['results.result']);
  });

  it('requires the report of an imaging study and keeps it', async () => {
    const { order } = await directOrder('TDM-CRANE');
    const radiologist = await h.as('DOCTOR', 'IMG');
    expect((await act(radiologist, order, 'start')).statusCode).toBe(200);
    const empty = await enter(radiologist, order, {}, 2, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('report');
    const done = await enter(radiologist, order, {}, 2, 'Pas d’hémorragie intracrânienne.');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      report: 'Pas d’hémorragie intracrânienne.',
      has_report: true,
      abnormal: false,
    });
    // The laboratory does not report imaging studies.
    expect((await act(biologist, order, 'validate')).statusCode).toBe(403);
    expect((await act(radiologist, order, 'validate')).statusCode).toBe(200);
  });

  it('flags against the range of the patient’s sex and age at sampling', async () => {
    const man = await startedOrder('NFS', { sex: 'M', birth_date: '1980-01-01' });
    const woman = await startedOrder('NFS', { sex: 'F', birth_date: '1980-01-01' });
    const child = await startedOrder('NFS', {
      sex: 'F',
      birth_date: `${new Date().getUTCFullYear() - 7}-01-01`,
    });
    const values = { ...NORMAL_NFS, hb: 12.5 };
    const m = (await enter(technician, man.order, values, man.order.version)).json() as OrderJson;
    const f = (await enter(technician, woman.order, values, woman.order.version)).json() as OrderJson;
    const c = (
      await enter(technician, child.order, { ...values, hb: 11 }, child.order.version)
    ).json() as OrderJson;
    expect(m.results!.hb).toEqual({ value: 12.5, flag: 'low' });
    expect(m.abnormal).toBe(true);
    expect(m.result_lines.find((l) => l.key === 'hb')).toMatchObject({ reference: '13 – 17', flag: 'low' });
    expect(f.results!.hb).toEqual({ value: 12.5, flag: null });
    expect(f.abnormal).toBe(false);
    expect(c.results!.hb).toEqual({ value: 11, flag: 'low' });
    expect(c.result_lines.find((l) => l.key === 'hb')!.reference).toBe('11.5 – 15.5');
    expect(c.reference_age).toBeGreaterThanOrEqual(6);
    // Creatinine ranges differ by sex.
    const crea = await startedOrder('CREA', { sex: 'F', birth_date: '1975-05-05' });
    const flagged = (await enter(technician, crea.order, { creatinine: 95 }, crea.order.version)).json();
    expect(flagged.results.creatinine).toEqual({ value: 95, flag: 'high' });
  });
});

describe('who may do what', () => {
  it('refuses midwives and secretaries on every exam route', async () => {
    const { order, patient } = await directOrder('CRP');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/exams/catalogue/'],
      ['GET', '/api/exams/'],
      ['GET', '/api/exams/alerts/'],
      ['POST', '/api/exams/', { patient: patient.id, exam: 'NFS' }],
      ['GET', `/api/exams/${order.id}/`],
      ['POST', `/api/exams/${order.id}/start/`, {}],
      ['PUT', `/api/exams/${order.id}/results/`, { results: {}, version: 1 }],
      ['POST', `/api/exams/${order.id}/validate/`, {}],
      ['POST', `/api/exams/${order.id}/cancel/`, { reason: 'Refus' }],
      ['POST', `/api/exams/${order.id}/acknowledge/`, {}],
    ];
    for (const actor of [midwife, secretary]) {
      for (const [method, url, body] of calls) {
        const res = await request(ctx, actor, method as 'GET', url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    }
    expect(await read(doctor, order)).toMatchObject({ status: 'requested', version: 1 });
  });

  it('lets other roles with the module read, but only doctors and head doctors order', async () => {
    const { order, patient } = await directOrder('CRP');
    for (const actor of [queueManager, admin, wardNurse, technician]) {
      expect((await request(ctx, actor, 'GET', `/api/exams/${order.id}/`)).statusCode).toBe(200);
      expect((await request(ctx, actor, 'GET', '/api/exams/')).statusCode).toBe(200);
      const res = await request(ctx, actor, 'POST', '/api/exams/', { patient: patient.id, exam: 'NFS' });
      expect(res.statusCode).toBe(403);
    }
    expect(
      (await request(ctx, head, 'POST', '/api/exams/', { patient: patient.id, exam: 'NFS' })).statusCode,
    ).toBe(201);
  });

  it('keeps result entry to the performing department and validation to its doctors', async () => {
    const { order } = await directOrder('CRP');
    expect((await act(wardNurse, order, 'start')).statusCode).toBe(403);
    expect((await act(doctor, order, 'start')).statusCode).toBe(403);
    expect((await act(technician, order, 'start')).statusCode).toBe(200);
    expect((await enter(wardNurse, order, { crp: 2 }, 2)).statusCode).toBe(403);
    expect((await enter(otherDoctor, order, { crp: 2 }, 2)).statusCode).toBe(403);
    expect((await enter(biologist, order, { crp: 2 }, 2)).statusCode).toBe(200);
    expect((await act(doctor, order, 'validate')).statusCode).toBe(403);
    expect((await act(otherDoctor, order, 'validate')).statusCode).toBe(403);
    expect((await act(head, order, 'validate')).statusCode).toBe(200);
    // The validator who asked for it himself gets no notification of his own validation.
    expect((await notificationsOf(ctx, head.id)).length).toBe(0);
  });

  it('answers 404 for another hospital’s order, as for a missing one', async () => {
    const { order } = await directOrder('CRP');
    expect((await request(ctx, foreignDoctor, 'GET', `/api/exams/${order.id}/`)).statusCode).toBe(404);
    expect((await act(foreignTechnician, order, 'start')).statusCode).toBe(404);
    expect((await act(foreignDoctor, order, 'cancel', { reason: 'Intrusion' })).statusCode).toBe(404);
    const missing = await request(ctx, doctor, 'GET', '/api/exams/0190a1b2-0000-7000-8000-000000000000/');
    expect(missing.statusCode).toBe(404);
    expect(
      (await request(ctx, foreignDoctor, 'GET', `/api/exams/?patient=${order.patient.id}`)).json().count,
    ).toBe(0);
    expect(await read(doctor, order)).toMatchObject({ status: 'requested' });
  });

  it('writes one audit row per read of an order, and one per change', async () => {
    const { order } = await directOrder('CRP');
    await read(technician, order);
    await act(technician, order, 'start');
    const rows = await ctx.database.db.execute<{ action: string; patient_id: string }>(
      sql`select action, patient_id from audit_events where resource_id = ${order.id} order by id`,
    );
    expect(rows.rows.map((r) => r.action)).toEqual(['exam.order', 'exam.read', 'exam.start']);
    expect(rows.rows.every((r) => r.patient_id === order.patient.id)).toBe(true);
  });
});
