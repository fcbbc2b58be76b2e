/**
 * The consultation record: draft saves with the optimistic version, completion (requirements, the visit's
 * move per outcome, confirmed allergies), cancellation, addenda, coded and uncoded diagnoses, and the
 * patient's previous diagnoses.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  auditOf,
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { type Actor, admit, createPatient, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let secretary: Actor;
let queueManager: Actor;
let doctor: Actor;
let colleague: Actor;
let medDoctor: Actor;
let head: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx);
  secretary = await h.as('SECRETARY');
  queueManager = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  colleague = await h.as('DOCTOR', 'URG');
  medDoctor = await h.as('DOCTOR', 'MED');
  head = await h.as('HEAD_DOCTOR', 'MED');
});
afterAll(() => ctx.close());

const start = (patient: Record<string, unknown> = {}) =>
  startedConsultation(
    ctx.app,
    { desk: secretary, assigner: queueManager, doctor },
    h.dep('URG').id,
    'emergency',
    patient,
  );
const url = (id: string, rest = '') => `/api/consultations/${id}/${rest}`;
const statusOf = async (table: 'admissions' | 'executions', column: 'id' | 'admission_id', value: string) =>
  (
    await ctx.database.db.execute<{ status: string }>(
      sql`select status::text from ${sql.identifier(table)} where ${sql.identifier(column)} = ${value} order by created_at desc limit 1`,
    )
  ).rows[0]?.status;

describe('draft saves', () => {
  it('saves any subset of the sections and bumps the version; an older version is a 409 with the current one', async () => {
    const { id } = await start();
    const first = await call(ctx.app, doctor, 'PATCH', url(id), {
      version: 1,
      history: 'Fièvre depuis 3 jours, frissons.',
      vitals: { temperature: 39.2, heart_rate: 112, systolic_bp: 120, diastolic_bp: 70 },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      version: 2,
      history: 'Fièvre depuis 3 jours, frissons.',
      vitals: { temperature: 39.2, heart_rate: 112, systolic_bp: 120, diastolic_bp: 70 },
      examination: null,
    });
    const second = await call(ctx.app, doctor, 'PATCH', url(id), {
      version: 2,
      examination: 'Splénomégalie',
    });
    expect(second.json()).toMatchObject({
      version: 3,
      history: 'Fièvre depuis 3 jours, frissons.',
      examination: 'Splénomégalie',
    });
    // A second tab still on version 2: refused, nothing written, the current version returned.
    const stale = await call(ctx.app, doctor, 'PATCH', url(id), { version: 2, examination: 'Autre' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_version', version: 3 });
    expect(stale.json().detail).toContain('3');
    const now = await call(ctx.app, doctor, 'GET', url(id));
    expect(now.json()).toMatchObject({ version: 3, examination: 'Splénomégalie' });
    // The version is required.
    expect((await call(ctx.app, doctor, 'PATCH', url(id), { plan: 'x' })).json()).toHaveProperty('version');
  });

  it("carries the visit's triage — level, vitals, nurse, time — to the doctor", async () => {
    const nurse = await h.as('NURSE', 'URG');
    const patient = await createPatient(ctx.app, secretary);
    const admission = await admit(ctx.app, secretary, patient.id, h.dep('URG').id, 'emergency');
    const triaged = await call(ctx.app, nurse, 'POST', '/api/triage/', {
      admission: admission.id,
      chief_complaint: 'Palpitations',
      vitals: { temperature: 38.6, heart_rate: 135 },
      level: '2',
    });
    expect(triaged.statusCode, triaged.body).toBe(201);
    expect(
      (
        await call(ctx.app, queueManager, 'POST', '/api/assign-patient/', {
          admission: admission.id,
          doctor: doctor.id,
        })
      ).statusCode,
    ).toBe(200);
    const started = await call(
      ctx.app,
      doctor,
      'POST',
      `/api/admissions/${admission.id}/start-consultation/`,
    );
    expect(started.statusCode, started.body).toBe(201);
    const record = await call(ctx.app, doctor, 'GET', url(started.json().id));
    expect(record.json().triage).toMatchObject({
      id: triaged.json().id,
      scale: 'FRENCH',
      level: '2',
      vitals: { temperature: 38.6, heart_rate: 135 },
      recorded_by: { id: nurse.id },
      recorded_at: expect.any(String),
    });
    // The consultation's own vitals stay the doctor's: empty until taken over or recorded.
    expect(record.json().vitals).toBeNull();
    // A consultation without triage says so.
    const { id } = await start();
    expect((await call(ctx.app, doctor, 'GET', url(id))).json().triage).toBeNull();
  });

  it('validates the vitals with triage’s bounds (400 per field)', async () => {
    const { id } = await start();
    const res = await call(ctx.app, doctor, 'PATCH', url(id), {
      version: 1,
      vitals: { heart_rate: 400, temperature: 20, systolic_bp: 90, diastolic_bp: 95 },
      outcome: 'elsewhere',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual([
      'outcome',
      'vitals.diastolic_bp',
      'vitals.heart_rate',
      'vitals.temperature',
    ]);
    expect((await call(ctx.app, doctor, 'GET', url(id))).json().version).toBe(1);
  });

  it('refuses a follow-up date the database cannot hold (400, not 500)', async () => {
    const { id } = await start();
    const res = await call(ctx.app, doctor, 'PATCH', url(id), { version: 1, follow_up_date: '0000-01-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json().follow_up_date).toHaveLength(1);
    const list = await call(ctx.app, doctor, 'GET', '/api/consultations/?date=0000-01-01');
    expect(list.statusCode).toBe(400);
  });

  it('clears a section with null or blank text and keeps the others', async () => {
    const { id } = await start();
    await call(ctx.app, doctor, 'PATCH', url(id), { version: 1, plan: 'Paracétamol', conclusion: 'x' });
    const res = await call(ctx.app, doctor, 'PATCH', url(id), { version: 2, plan: '  ', conclusion: null });
    expect(res.json()).toMatchObject({ plan: null, conclusion: null, version: 3 });
  });
});

describe('completion', () => {
  it('requires a primary diagnosis and an outcome, and a follow-up date for a follow-up', async () => {
    const { id } = await start();
    const empty = await call(ctx.app, doctor, 'POST', url(id, 'complete/'), {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json()).sort()).toEqual(['diagnoses', 'outcome']);
    await call(ctx.app, doctor, 'PATCH', url(id), { version: 1, outcome: 'follow_up' });
    await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), { icd_code: 'B54', rank: 'secondary' });
    const noPrimary = await call(ctx.app, doctor, 'POST', url(id, 'complete/'));
    expect(Object.keys(noPrimary.json()).sort()).toEqual(['diagnoses', 'follow_up_date']);
    await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), {
      free_text: 'Syndrome fébrile',
      rank: 'primary',
    });
    await call(ctx.app, doctor, 'PATCH', url(id), { version: 2, follow_up_date: '2020-01-01' });
    const past = await call(ctx.app, doctor, 'POST', url(id, 'complete/'));
    expect(past.json()).toEqual({ follow_up_date: [expect.stringContaining('passée')] });
    await call(ctx.app, doctor, 'PATCH', url(id), { version: 3, follow_up_date: '2099-01-01' });
    const stale = await call(ctx.app, doctor, 'POST', url(id, 'complete/'), { version: 3 });
    expect(stale.statusCode).toBe(409);
    const done = await call(ctx.app, doctor, 'POST', url(id, 'complete/'), { version: 4 });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: 'completed',
      access: 'read',
      may_add_addendum: true,
      outcome: 'follow_up',
      follow_up_date: '2099-01-01',
      completed_by: { id: doctor.id },
      primary_diagnosis: { icd_code: null, label: 'Syndrome fébrile', coded: false },
    });
    expect(done.json().completed_at).toBeTruthy();
    expect((await auditOf(ctx.database.db, id)).map((r) => r.action)).toContain('consultation.complete');
  });

  const outcomes: [string, string][] = [
    ['discharge', 'completed'],
    ['follow_up', 'completed'],
    ['deceased', 'completed'],
    ['hospitalize', 'hospitalized'],
    ['refer', 'transferred'],
  ];
  it.each(outcomes)(
    'outcome %s moves the visit to %s and completes the execution',
    async (outcome, status) => {
      const { id, admission } = await start();
      await completedConsultation(
        ctx.app,
        doctor,
        id,
        outcome,
        outcome === 'follow_up' ? { follow_up_date: '2099-06-01' } : {},
      );
      expect(await statusOf('admissions', 'id', admission)).toBe(status);
      expect(await statusOf('executions', 'admission_id', admission)).toBe('completed');
      const visit = await call(ctx.app, doctor, 'GET', `/api/admissions/${admission}/`);
      // The visit keeps its doctor once it is over (issue 37: a closed visit read "Médecin : Non affecté").
      expect(visit.json()).toMatchObject({ status, doctor: { id: doctor.id } });
      expect(visit.json().closed_at).toBeTruthy();
    },
  );

  it('makes the confirmed allergies the patient’s list; unconfirmed ones leave it alone', async () => {
    const confirmed = await start({ allergies: ['Pénicilline'] });
    await completedConsultation(ctx.app, doctor, confirmed.id, 'discharge', {
      allergies: ['Pénicilline', 'Sulfamides'],
      allergies_confirmed: true,
    });
    const p1 = await call(ctx.app, secretary, 'GET', `/api/patients/${confirmed.patient}/`);
    expect(p1.json().allergies).toEqual(['Pénicilline', 'Sulfamides']);

    const unconfirmed = await start({ allergies: ['Aspirine'] });
    await completedConsultation(ctx.app, doctor, unconfirmed.id, 'discharge', { allergies: [] });
    const p2 = await call(ctx.app, secretary, 'GET', `/api/patients/${unconfirmed.patient}/`);
    expect(p2.json().allergies).toEqual(['Aspirine']);

    // "No known allergy" confirmed with a patient nobody had asked: the record now says it was asked.
    const asked = await start();
    const before = await call(ctx.app, secretary, 'GET', `/api/patients/${asked.patient}/`);
    expect(before.json()).toMatchObject({ allergies: [], allergies_recorded: false });
    await completedConsultation(ctx.app, doctor, asked.id, 'discharge', {
      allergies: [],
      allergies_confirmed: true,
    });
    const p3 = await call(ctx.app, secretary, 'GET', `/api/patients/${asked.patient}/`);
    expect(p3.json()).toMatchObject({ allergies: [], allergies_recorded: true });
  });

  it('refuses every change once completed, except addenda by those responsible', async () => {
    const { id } = await start();
    const done = await completedConsultation(ctx.app, doctor, id);
    const diagnosis = done.diagnoses[0].id;
    for (const [method, path, body] of [
      ['PATCH', url(id), { version: done.version, plan: 'x' }],
      ['POST', url(id, 'complete/'), {}],
      ['POST', url(id, 'cancel/'), { reason: 'Erreur de dossier' }],
      ['POST', url(id, 'diagnoses/'), { icd_code: 'I10' }],
      ['PATCH', url(id, `diagnoses/${diagnosis}/`), { certainty: 'suspected' }],
      ['DELETE', url(id, `diagnoses/${diagnosis}/`), undefined],
    ] as const) {
      const res = await call(ctx.app, doctor, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(409);
    }
    const add = await call(ctx.app, doctor, 'POST', url(id, 'addenda/'), {
      text: 'Résultat de la goutte épaisse : positive.',
    });
    expect(add.statusCode, add.body).toBe(201);
    expect(add.json()).toMatchObject({
      author: { id: doctor.id },
      text: 'Résultat de la goutte épaisse : positive.',
    });
    expect((await call(ctx.app, head, 'POST', url(id, 'addenda/'), { text: 'Vu.' })).statusCode).toBe(201);
    const refused = await call(ctx.app, colleague, 'POST', url(id, 'addenda/'), { text: 'x' });
    expect(refused.statusCode).toBe(403);
    expect((await call(ctx.app, doctor, 'POST', url(id, 'addenda/'), { text: ' ' })).statusCode).toBe(400);
    const record = await call(ctx.app, colleague, 'GET', url(id));
    expect(record.json().addenda.map((x: { text: string }) => x.text)).toEqual([
      'Résultat de la goutte épaisse : positive.',
      'Vu.',
    ]);
  });

  it('takes addenda on completed consultations only', async () => {
    const { id } = await start();
    const res = await call(ctx.app, doctor, 'POST', url(id, 'addenda/'), { text: 'Trop tôt' });
    expect(res.statusCode).toBe(409);
  });
});

describe('cancellation', () => {
  it('keeps the consultation as cancelled and puts the visit and the execution back to assigned', async () => {
    const { id, admission } = await start();
    expect((await call(ctx.app, doctor, 'POST', url(id, 'cancel/'), { reason: 'x' })).statusCode).toBe(400);
    expect(
      (await call(ctx.app, colleague, 'POST', url(id, 'cancel/'), { reason: 'Démarrée par erreur' }))
        .statusCode,
    ).toBe(403);
    const res = await call(ctx.app, doctor, 'POST', url(id, 'cancel/'), { reason: 'Démarrée par erreur' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Démarrée par erreur',
      access: 'read',
    });
    expect(await statusOf('admissions', 'id', admission)).toBe('assigned');
    expect(await statusOf('executions', 'admission_id', admission)).toBe('assigned');
    expect((await call(ctx.app, doctor, 'PATCH', url(id), { version: 2, plan: 'x' })).statusCode).toBe(409);
    // The doctor can start it again: a new consultation.
    const again = await call(ctx.app, doctor, 'POST', `/api/admissions/${admission}/start-consultation/`);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().id).not.toBe(id);
  });
});

describe('diagnoses', () => {
  it('records coded diagnoses (label in the author’s language) and uncoded ones; one primary at a time', async () => {
    const { id, patient } = await start();
    const coded = await call(
      ctx.app,
      doctor,
      'POST',
      url(id, 'diagnoses/'),
      { icd_code: 'b509', rank: 'primary', certainty: 'suspected', notes: 'TDR positif' },
      { 'accept-language': 'en' },
    );
    expect(coded.statusCode, coded.body).toBe(201);
    expect(coded.json()).toMatchObject({
      icd_code: 'B50.9',
      label: 'Plasmodium falciparum malaria, unspecified',
      coded: true,
      rank: 'primary',
      certainty: 'suspected',
      notes: 'TDR positif',
      created_by: { id: doctor.id },
    });
    const typhoid = await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), { icd_code: 'A01.0' });
    expect(typhoid.json()).toMatchObject({
      label: 'Fièvre typhoïde',
      rank: 'secondary',
      certainty: 'confirmed',
    });
    const free = await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), {
      free_text: 'Anémie clinique',
      rank: 'secondary',
    });
    expect(free.json()).toMatchObject({ icd_code: null, label: 'Anémie clinique', coded: false });

    // Errors: an unknown code, a chapter, both or neither, the same code twice.
    const unknown = await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), { icd_code: 'Z99.9' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().icd_code).toHaveLength(1);
    expect((await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), { icd_code: 'I' })).statusCode).toBe(
      400,
    );
    const both = await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), {
      icd_code: 'I10',
      free_text: 'HTA',
    });
    expect(both.json()).toHaveProperty('free_text');
    expect((await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), {})).json()).toHaveProperty(
      'icd_code',
    );
    expect(
      (await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), { icd_code: 'B50.9' })).statusCode,
    ).toBe(409);

    // A second primary demotes the first.
    const second = await call(ctx.app, doctor, 'POST', url(id, 'diagnoses/'), {
      icd_code: 'J18.9',
      rank: 'primary',
    });
    expect(second.statusCode).toBe(201);
    const list = async () =>
      (await call(ctx.app, doctor, 'GET', url(id, 'diagnoses/'))).json().results as {
        id: string;
        icd_code: string | null;
        rank: string;
      }[];
    let rows = await list();
    expect(rows.map((r) => `${r.icd_code ?? 'free'}:${r.rank}`)).toEqual([
      'J18.9:primary',
      'B50.9:secondary',
      'A01.0:secondary',
      'free:secondary',
    ]);
    // Making one primary again demotes the other; a removed one disappears but is kept.
    const promoted = await call(ctx.app, doctor, 'PATCH', url(id, `diagnoses/${coded.json().id}/`), {
      rank: 'primary',
      certainty: 'confirmed',
    });
    expect(promoted.json()).toMatchObject({ rank: 'primary', certainty: 'confirmed' });
    const removed = await call(ctx.app, doctor, 'DELETE', url(id, `diagnoses/${typhoid.json().id}/`));
    expect(removed.statusCode).toBe(204);
    expect(
      (await call(ctx.app, doctor, 'DELETE', url(id, `diagnoses/${typhoid.json().id}/`))).statusCode,
    ).toBe(404);
    rows = await list();
    expect(rows.map((r) => `${r.icd_code ?? 'free'}:${r.rank}`)).toEqual([
      'B50.9:primary',
      'free:secondary',
      'J18.9:secondary',
    ]);
    const kept = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from consultation_diagnoses where consultation_id = ${id} and removed_at is not null`,
    );
    expect(Number(kept.rows[0]!.n)).toBe(1);

    // Colleagues read them and may not change them; the detail carries them primary first.
    expect((await call(ctx.app, colleague, 'GET', url(id, 'diagnoses/'))).json().count).toBe(3);
    expect(
      (await call(ctx.app, colleague, 'POST', url(id, 'diagnoses/'), { icd_code: 'I10' })).statusCode,
    ).toBe(403);
    expect((await call(ctx.app, medDoctor, 'GET', url(id, 'diagnoses/'))).statusCode).toBe(403);
    const detail = await call(ctx.app, doctor, 'GET', url(id));
    expect(detail.json().primary_diagnosis).toMatchObject({ icd_code: 'B50.9' });
    expect(detail.json().diagnoses).toHaveLength(3);

    // The patient's previous diagnoses, for those who may read the consultation.
    const previous = await call(ctx.app, colleague, 'GET', `/api/patients/${patient}/diagnoses/`);
    expect(previous.statusCode, previous.body).toBe(200);
    expect(previous.json().count).toBe(3);
    expect(previous.json().results[0].consultation).toMatchObject({ id, doctor: { id: doctor.id } });
    const excluded = await call(
      ctx.app,
      doctor,
      'GET',
      `/api/patients/${patient}/diagnoses/?exclude_consultation=${id}`,
    );
    expect(excluded.json().count).toBe(0);
    const outsider = await call(ctx.app, medDoctor, 'GET', `/api/patients/${patient}/diagnoses/`);
    expect(outsider.json()).toMatchObject({ count: 0, results: [] });
    expect((await call(ctx.app, secretary, 'GET', `/api/patients/${patient}/diagnoses/`)).statusCode).toBe(
      403,
    );
  });

  it('are 404 for another consultation’s diagnosis', async () => {
    const one = await start();
    const two = await start();
    const dx = await call(ctx.app, doctor, 'POST', url(one.id, 'diagnoses/'), { icd_code: 'I10' });
    const res = await call(ctx.app, doctor, 'PATCH', url(two.id, `diagnoses/${dx.json().id}/`), {
      rank: 'primary',
    });
    expect(res.statusCode).toBe(404);
  });
});
