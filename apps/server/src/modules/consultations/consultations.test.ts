/**
 * The consultation-access rule over HTTP, for each role of the demo (docs/consultation-access.md), the list
 * scopes (only readable rows come back) and direct creation. Record changes: consultation-record.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  auditOf,
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, createPatient, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let other: Awaited<ReturnType<typeof journeyHospital>>;
const a = {} as Record<
  | 'secretary'
  | 'queueManager'
  | 'nurse'
  | 'doctor'
  | 'colleague'
  | 'medDoctor'
  | 'head'
  | 'midwife'
  | 'urgMidwife'
  | 'admin'
  | 'foreign',
  Actor
>;

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx);
  other = await journeyHospital(ctx);
  a.secretary = await h.as('SECRETARY');
  a.queueManager = await h.as('QUEUE_MANAGER');
  a.nurse = await h.as('NURSE', 'URG');
  a.doctor = await h.as('DOCTOR', 'URG');
  a.colleague = await h.as('DOCTOR', 'URG');
  a.medDoctor = await h.as('DOCTOR', 'MED');
  a.head = await h.as('HEAD_DOCTOR', 'MED');
  a.midwife = await h.as('SAGE_FEMME', 'MAT');
  a.urgMidwife = await h.as('SAGE_FEMME', 'URG');
  a.admin = await h.as('ADMIN');
  a.foreign = await other.as('HEAD_DOCTOR', 'URG');
});
afterAll(() => ctx.close());

const start = (department: string, type = 'emergency', doctor: Actor = a.doctor) =>
  startedConsultation(
    ctx.app,
    { desk: a.secretary, assigner: a.queueManager, doctor },
    h.dep(department).id,
    type,
  );

type Expected = 'edit' | 'read' | 403;

/** GET gives the expected access (or 403); a draft save succeeds only for `edit`. */
async function expectAccess(actor: Actor, id: string, expected: Expected) {
  const got = await call(ctx.app, actor, 'GET', `/api/consultations/${id}/`);
  if (expected === 403) {
    expect(got.statusCode, got.body).toBe(403);
    expect(got.json().detail).toBeTruthy();
  } else {
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().access).toBe(expected);
  }
  const version = got.statusCode === 200 ? got.json().version : 1;
  const save = await call(ctx.app, actor, 'PATCH', `/api/consultations/${id}/`, { version, plan: 'Repos' });
  expect(save.statusCode, save.body).toBe(expected === 'edit' ? 200 : 403);
}

describe('consultation-access, in progress (emergency visit in Urgences, by its doctor)', () => {
  let id: string;
  beforeAll(async () => {
    id = (await start('URG')).id;
  });
  const cases: [keyof typeof a, Expected][] = [
    ['doctor', 'edit'],
    ['head', 'edit'],
    ['colleague', 'read'],
    ['urgMidwife', 'read'],
    ['medDoctor', 403],
    ['midwife', 403],
    ['nurse', 403],
    ['queueManager', 403],
    ['admin', 403],
    ['secretary', 403],
  ];
  it.each(cases)('%s → %s', async (who, expected) => {
    await expectAccess(a[who], id, expected);
  });

  it('audits the reading and each refusal', async () => {
    const audit = await auditOf(ctx.database.db, id);
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'consultation.read', outcome: 'success', user_id: a.doctor.id }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: 'consultation.access_denied',
        outcome: 'denied',
        user_id: a.medDoctor.id,
      }),
    );
  });

  it('is a 404 from another hospital, exactly like an unknown id', async () => {
    expect((await call(ctx.app, a.foreign, 'GET', `/api/consultations/${id}/`)).statusCode).toBe(404);
    expect(
      (await call(ctx.app, a.foreign, 'PATCH', `/api/consultations/${id}/`, { version: 1, plan: 'x' }))
        .statusCode,
    ).toBe(404);
    const unknown = '0190a0a0-0000-7000-8000-000000000000';
    expect((await call(ctx.app, a.doctor, 'GET', `/api/consultations/${unknown}/`)).statusCode).toBe(404);
  });

  it('refuses the secretary by the module, on every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/consultations/'],
      ['GET', `/api/consultations/${id}/diagnoses/`],
      ['POST', `/api/consultations/${id}/addenda/`],
    ] as const) {
      const res = await call(
        ctx.app,
        a.secretary,
        method,
        url,
        method === 'POST' ? { text: 'x' } : undefined,
      );
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('consultation-access, maternity visit', () => {
  let id: string;
  beforeAll(async () => {
    id = (await start('MAT', 'maternity')).id;
  });
  const cases: [keyof typeof a, Expected][] = [
    ['midwife', 'edit'],
    ['urgMidwife', 'edit'],
    ['doctor', 'edit'],
    ['head', 'edit'],
    ['colleague', 403],
    ['medDoctor', 403],
    ['nurse', 403],
  ];
  it.each(cases)('%s → %s', async (who, expected) => {
    await expectAccess(a[who], id, expected);
  });
});

describe('consultation-access, completed', () => {
  let id: string;
  beforeAll(async () => {
    id = (await start('URG')).id;
    await completedConsultation(ctx.app, a.doctor, id);
  });
  const cases: [keyof typeof a, Expected, boolean][] = [
    ['doctor', 'read', true],
    ['head', 'read', true],
    ['colleague', 'read', false],
    ['urgMidwife', 'read', false],
    ['medDoctor', 403, false],
    ['nurse', 403, false],
  ];
  it.each(cases)('%s → %s (addendum: %s)', async (who, expected, addendum) => {
    const got = await call(ctx.app, a[who], 'GET', `/api/consultations/${id}/`);
    if (expected === 403) expect(got.statusCode).toBe(403);
    else expect(got.json()).toMatchObject({ access: expected, may_add_addendum: addendum });
    const add = await call(ctx.app, a[who], 'POST', `/api/consultations/${id}/addenda/`, {
      text: `Addendum de ${who}`,
    });
    expect(add.statusCode, add.body).toBe(addendum ? 201 : 403);
    // Nobody edits a completed consultation: 409 for those responsible for it, 403 for the others.
    const save = await call(ctx.app, a[who], 'PATCH', `/api/consultations/${id}/`, {
      version: got.statusCode === 200 ? got.json().version : 1,
      plan: 'x',
    });
    expect(save.statusCode).toBe(addendum ? 409 : 403);
  });
});

describe('a consultation created directly for a patient', () => {
  it('belongs to the author’s department, without a visit; midwives only read it from their department', async () => {
    const patient = await createPatient(ctx.app, a.secretary);
    const res = await call(ctx.app, a.doctor, 'POST', '/api/consultations/', {
      patient: patient.id,
      reason: 'Contrôle tensionnel',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'in_progress',
      admission_id: null,
      admission: null,
      admission_type: null,
      reason: 'Contrôle tensionnel',
      department: { id: h.dep('URG').id },
      doctor: { id: a.doctor.id },
      access: 'edit',
      version: 1,
    });
    const id = res.json().id;
    await expectAccess(a.midwife, id, 403);
    await expectAccess(a.urgMidwife, id, 'read');
    await expectAccess(a.colleague, id, 'read');
  });

  it('takes a given department; 400 without one when the author has none; 400 for an unknown patient', async () => {
    const patient = await createPatient(ctx.app, a.secretary);
    const mat = await call(ctx.app, a.midwife, 'POST', '/api/consultations/', {
      patient: patient.id,
      department: h.dep('MED').id,
      reason: 'Suivi',
    });
    expect(mat.statusCode, mat.body).toBe(201);
    expect(mat.json().department.id).toBe(h.dep('MED').id);

    const user = await makeUser(ctx.database.db, {
      role: 'DOCTOR',
      hospitals: [{ id: h.hospital.id, departmentId: null }],
    });
    const floating: Actor = {
      id: user.id,
      headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), h.hospital.id),
    };
    const none = await call(ctx.app, floating, 'POST', '/api/consultations/', {
      patient: patient.id,
      reason: 'Suivi',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().department).toHaveLength(1);

    const foreignPatient = await createPatient(ctx.app, await other.as('SECRETARY'));
    const unknown = await call(ctx.app, a.doctor, 'POST', '/api/consultations/', {
      patient: foreignPatient.id,
      reason: 'Suivi',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().patient).toHaveLength(1);
    const empty = await call(ctx.app, a.doctor, 'POST', '/api/consultations/', { patient: patient.id });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().reason).toBeTruthy();
  });

  it('is refused to the non-practitioners', async () => {
    const patient = await createPatient(ctx.app, a.secretary);
    for (const who of ['nurse', 'queueManager', 'admin', 'secretary'] as const) {
      const res = await call(ctx.app, a[who], 'POST', '/api/consultations/', {
        patient: patient.id,
        reason: 'x',
      });
      expect(res.statusCode, who).toBe(403);
    }
  });
});

describe('lists', () => {
  const mine: string[] = [];
  let urg: string;
  let mat: string;
  let med: string;
  let surname: string;
  beforeAll(async () => {
    surname = `Listé${Date.now()}`;
    const first = await startedConsultation(
      ctx.app,
      { desk: a.secretary, assigner: a.queueManager, doctor: a.doctor },
      h.dep('URG').id,
      'emergency',
      { last_name: surname },
    );
    urg = first.id;
    mat = (await start('MAT', 'maternity')).id;
    med = (await start('MED', 'outpatient', a.medDoctor)).id;
    mine.push(urg, mat);
    await completedConsultation(ctx.app, a.doctor, urg);
  });

  const ids = async (actor: Actor, qs = '') => {
    const res = await call(ctx.app, actor, 'GET', `/api/consultations/?page_size=100${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results as { id: string; access: string }[];
  };

  it('returns only rows the caller may read, with the same access as the record', async () => {
    for (const who of [
      'doctor',
      'colleague',
      'medDoctor',
      'head',
      'midwife',
      'urgMidwife',
      'nurse',
    ] as const) {
      const rows = await ids(a[who]);
      for (const row of rows) {
        const got = await call(ctx.app, a[who], 'GET', `/api/consultations/${row.id}/`);
        expect(got.statusCode, `${who} ${row.id}`).toBe(200);
        expect(got.json().access).toBe(row.access);
      }
      const seen = new Set(rows.map((r) => r.id));
      const expected: Record<typeof who, string[]> = {
        doctor: [urg, mat],
        colleague: [urg],
        medDoctor: [med],
        head: [urg, mat, med],
        midwife: [mat],
        urgMidwife: [urg, mat],
        nurse: [],
      };
      expect([urg, mat, med].filter((x) => seen.has(x)).sort(), who).toEqual(expected[who].sort());
    }
    expect(await ids(a.nurse)).toEqual([]);
  });

  it('scopes mine and department, and filters by status, doctor, diagnosis, date and search', async () => {
    const only = (rows: { id: string }[]) => rows.map((r) => r.id).filter((x) => [urg, mat, med].includes(x));
    expect(only(await ids(a.doctor, '&scope=mine')).sort()).toEqual([...mine].sort());
    expect(only(await ids(a.colleague, '&scope=mine'))).toEqual([]);
    expect(only(await ids(a.colleague, '&scope=department'))).toEqual([urg]);
    expect(only(await ids(a.head, '&scope=department'))).toEqual([med]);
    expect(only(await ids(a.head, '&status=completed'))).toEqual([urg]);
    expect(only(await ids(a.head, '&status=in_progress,cancelled')).sort()).toEqual([mat, med].sort());
    expect(only(await ids(a.head, `&doctor=${a.medDoctor.id}`))).toEqual([med]);
    expect(only(await ids(a.head, '&diagnosis=B50'))).toEqual([urg]);
    expect(only(await ids(a.head, '&diagnosis=b50.9'))).toEqual([urg]);
    expect(only(await ids(a.head, '&diagnosis=I10'))).toEqual([]);
    expect(only(await ids(a.head, `&search=${encodeURIComponent(surname.toLowerCase())}`))).toEqual([urg]);
    expect(only(await ids(a.doctor, '&scope=mine&today=true')).sort()).toEqual([...mine].sort());
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Kinshasa' });
    expect(only(await ids(a.head, `&date=${today}`)).sort()).toEqual([urg, mat, med].sort());
    expect(only(await ids(a.head, '&date=2020-01-01'))).toEqual([]);
    const bad = await call(ctx.app, a.head, 'GET', '/api/consultations/?scope=everything&diagnosis=%25');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['diagnosis', 'scope']);
  });

  it('gives each row the patient with allergies, the doctor, the primary diagnosis and the outcome', async () => {
    const res = await call(
      ctx.app,
      a.doctor,
      'GET',
      `/api/consultations/?scope=mine&page_size=1&search=${surname}`,
    );
    expect(res.json()).toMatchObject({ count: 1, next: null });
    expect(res.json().results[0]).toMatchObject({
      id: urg,
      status: 'completed',
      access: 'read',
      doctor: { id: a.doctor.id },
      department: { code: 'URG' },
      admission_type: 'emergency',
      primary_diagnosis: { icd_code: 'B50.9', coded: true, certainty: 'confirmed' },
      outcome: 'discharge',
      patient: { allergies: [] },
    });
    const paged = await call(ctx.app, a.head, 'GET', '/api/consultations/?page_size=1');
    expect(paged.json().results).toHaveLength(1);
    expect(paged.json().next).toContain('page=2');
  });
});
