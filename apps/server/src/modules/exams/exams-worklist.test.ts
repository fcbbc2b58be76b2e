import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { consultationFor, examHospital, type OrderJson, orderExams, request } from '../../../test/exams.js';
import { type Actor, createPatient } from '../../../test/journey.js';
import { EXAM_CATALOGUE } from './exam-catalogue.data.js';
import { CATALOGUE_HASH_KEY, ensureExamCatalogue } from './exam-catalogue.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof examHospital>>;
let secretary: Actor;
let queueManager: Actor;
let doctor: Actor;
let doctor2: Actor;
let technician: Actor;
let biologist: Actor;
let radiologist: Actor;

/** Orders created in this order; each helper call is its own request (distinct request times). */
const made: Record<string, OrderJson> = {};
let patientA: { id: string; record_number: string };
let patientB: { id: string; record_number: string };
let consultationId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await examHospital(ctx);
  secretary = await h.as('SECRETARY');
  queueManager = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  doctor2 = await h.as('DOCTOR', 'MED');
  technician = await h.as('NURSE', 'LAB');
  biologist = await h.as('DOCTOR', 'LAB');
  radiologist = await h.as('DOCTOR', 'IMG');

  patientA = await createPatient(ctx.app, secretary, { first_name: 'Aline', last_name: 'Tshiabola' });
  const c = await consultationFor(
    ctx,
    h,
    { secretary, queueManager, doctor },
    {
      first_name: 'Bruno',
      last_name: 'Kazadi',
      sex: 'M',
    },
  );
  patientB = c.patient;
  consultationId = c.consultation.id;
  const one = async (name: string, actor: Actor, body: Record<string, unknown>) => {
    const [o] = await orderExams(ctx, actor, body);
    made[name] = o!;
  };
  await one('oldRoutine', doctor, { patient: patientA.id, exam: 'CRP' });
  await one('urgentLab', doctor, { patient: patientA.id, exam: 'NFS', urgency: 'urgent' });
  await one('routineLab', doctor2, { patient: patientB.id, exam: 'UREE' });
  await one('urgentImaging', doctor, {
    patient: patientB.id,
    consultation: consultationId,
    exam: 'RX-THORAX',
    urgency: 'urgent',
  });
  await one('abnormalDone', doctor2, { patient: patientB.id, exam: 'GLY' });
  // abnormalDone: started, results (high), validated.
  const o = made.abnormalDone!;
  await request(ctx, technician, 'POST', `/api/exams/${o.id}/start/`);
  await request(ctx, technician, 'PUT', `/api/exams/${o.id}/results/`, {
    results: { glucose: 11.2 },
    version: 2,
  });
  await request(ctx, biologist, 'POST', `/api/exams/${o.id}/validate/`);
  await request(ctx, radiologist, 'POST', `/api/exams/${made.urgentImaging!.id}/start/`);
});
afterAll(() => ctx.close());

const ids = async (actor: Actor, query: string) => {
  const res = await request(ctx, actor, 'GET', `/api/exams/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as OrderJson[]).map((o) => o.id);
};
const idOf = (...names: string[]) => names.map((n) => made[n]!.id);

describe('the worklist', () => {
  it('lists urgent orders first, then the oldest', async () => {
    expect(await ids(technician, 'status=requested,in_progress')).toEqual(
      idOf('urgentLab', 'urgentImaging', 'oldRoutine', 'routineLab'),
    );
  });

  it('lists a history newest first with ordering=recent', async () => {
    expect(await ids(doctor, `patient=${patientB.id}&ordering=recent`)).toEqual(
      idOf('abnormalDone', 'urgentImaging', 'routineLab'),
    );
  });

  it('filters by status, urgency, kind, department, patient, consultation, requester, abnormal and date', async () => {
    expect(await ids(technician, 'status=validated')).toEqual(idOf('abnormalDone'));
    expect(await ids(technician, 'status=in_progress')).toEqual(idOf('urgentImaging'));
    expect(await ids(technician, 'urgency=urgent')).toEqual(idOf('urgentLab', 'urgentImaging'));
    expect(await ids(technician, 'kind=imaging')).toEqual(idOf('urgentImaging'));
    expect(await ids(technician, `department=${h.dep('IMG').id}`)).toEqual(idOf('urgentImaging'));
    expect((await ids(technician, `department=${h.dep('LAB').id}`)).sort()).toEqual(
      idOf('oldRoutine', 'urgentLab', 'routineLab', 'abnormalDone').sort(),
    );
    expect(await ids(technician, `patient=${patientA.id}`)).toEqual(idOf('urgentLab', 'oldRoutine'));
    expect(await ids(technician, `consultation=${consultationId}`)).toEqual(idOf('urgentImaging'));
    expect((await ids(doctor2, 'requested_by=me')).sort()).toEqual(idOf('routineLab', 'abnormalDone').sort());
    expect((await ids(technician, `requested_by=${doctor2.id}`)).sort()).toEqual(
      idOf('routineLab', 'abnormalDone').sort(),
    );
    expect(await ids(technician, 'abnormal=true')).toEqual(idOf('abnormalDone'));
    expect(await ids(technician, 'abnormal=false&status=requested&urgency=urgent')).toEqual(
      idOf('urgentLab'),
    );
    const today = (
      await ctx.database.db.execute<{ d: string }>(
        sql`select (now() at time zone time_zone)::date::text as d from hospitals where id = ${h.hospital.id}`,
      )
    ).rows[0]!.d;
    expect((await ids(technician, `date=${today}`)).length).toBe(5);
    expect(await ids(technician, 'date=2001-01-01')).toEqual([]);
  });

  it('searches by patient name (accents and case ignored), record number, order number and exam', async () => {
    expect(await ids(technician, 'search=tshiabola')).toEqual(idOf('urgentLab', 'oldRoutine'));
    expect((await ids(technician, 'search=KAZADI')).length).toBe(3);
    expect(await ids(technician, `search=${patientA.record_number.toLowerCase()}`)).toEqual(
      idOf('urgentLab', 'oldRoutine'),
    );
    expect(await ids(technician, `search=${made.routineLab!.order_number}`)).toEqual(idOf('routineLab'));
    expect(await ids(technician, 'search=glyc%C3%A9mie')).toEqual(idOf('abnormalDone'));
  });

  it('refuses filters outside the allow-list', async () => {
    for (const q of [
      'status=done',
      'urgency=stat',
      'kind=xray',
      'ordering=name',
      'department=abc',
      'date=2026-13-01',
    ]) {
      const res = await request(ctx, technician, 'GET', `/api/exams/?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('paginates with count, next and previous', async () => {
    const first = await request(ctx, technician, 'GET', '/api/exams/?page_size=2');
    expect(first.json()).toMatchObject({ count: 5, previous: null });
    expect(first.json().results).toHaveLength(2);
    expect(first.json().next).toContain('page=2');
    const last = await request(ctx, technician, 'GET', '/api/exams/?page_size=2&page=3');
    expect(last.json().results).toHaveLength(1);
    expect(last.json().next).toBeNull();
    expect(last.json().previous).toContain('page=2');
    const all = [
      ...first.json().results,
      ...(await request(ctx, technician, 'GET', '/api/exams/?page_size=2&page=2')).json().results,
      ...last.json().results,
    ].map((o: OrderJson) => o.id);
    expect(new Set(all).size).toBe(5);
    expect((await request(ctx, technician, 'GET', '/api/exams/?page_size=101')).statusCode).toBe(400);
  });

  it('gives each row the actions of the current user', async () => {
    const rows = (await request(ctx, technician, 'GET', '/api/exams/')).json().results as OrderJson[];
    expect(rows.find((o) => o.id === made.urgentLab!.id)!.actions).toEqual(['start', 'cancel']);
    expect(rows.find((o) => o.id === made.urgentImaging!.id)!.actions).toEqual([]);
    expect(rows.find((o) => o.id === made.abnormalDone!.id)!.result_lines).toEqual([
      expect.objectContaining({
        key: 'glucose',
        value: 11.2,
        flag: 'high',
        unit: 'mmol/L',
        reference: '3.9 – 6',
      }),
    ]);
  });

  it('writes one audit row per list read', async () => {
    const count = async () =>
      Number(
        (
          await ctx.database.db.execute<{ n: number }>(
            sql`select count(*)::int as n from audit_events where action = 'exam.list' and user_id = ${doctor.id}`,
          )
        ).rows[0]!.n,
      );
    const before = await count();
    await request(ctx, doctor, 'GET', '/api/exams/');
    expect(await count()).toBe(before + 1);
  });
});

describe('the alerts of the requesting doctor', () => {
  it('lists my validated abnormal results not acknowledged yet, with the urgent count', async () => {
    const res = await request(ctx, doctor2, 'GET', '/api/exams/alerts/');
    expect(res.json()).toMatchObject({ count: 1, urgent_count: 0, results: [{ id: made.abnormalDone!.id }] });
    expect((await request(ctx, doctor, 'GET', '/api/exams/alerts/')).json().count).toBe(0);
  });
});

describe('the catalogue', () => {
  it('is loaded once; a second load with the same data writes nothing', async () => {
    expect(await ensureExamCatalogue(ctx.database.db)).toBe(false);
    const stored = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from exam_catalogue where active`,
    );
    expect(Number(stored.rows[0]!.n)).toBe(EXAM_CATALOGUE.length);
    const hash = await ctx.database.db.execute<{ value: string }>(
      sql`select value from app_settings where key = ${CATALOGUE_HASH_KEY}`,
    );
    expect(hash.rows[0]!.value).toMatch(/^[0-9a-f]{64}$/);
  });

  it('updates changed exams in place and deactivates those no longer shipped', async () => {
    const before = (
      await ctx.database.db.execute<{ id: string }>(sql`select id from exam_catalogue where code = 'CRP'`)
    ).rows[0]!.id;
    const changed = EXAM_CATALOGUE.filter((e) => e.code !== 'WIDAL').map((e) =>
      e.code === 'CRP' ? { ...e, name_en: 'CRP (changed)' } : e,
    );
    expect(await ensureExamCatalogue(ctx.database.db, changed)).toBe(true);
    const rows = await ctx.database.db.execute<{
      id: string;
      code: string;
      name_en: string;
      active: boolean;
    }>(
      sql`select id, code, name_en, active from exam_catalogue where code in ('CRP', 'WIDAL') order by code`,
    );
    expect(rows.rows).toEqual([
      { id: before, code: 'CRP', name_en: 'CRP (changed)', active: true },
      expect.objectContaining({ code: 'WIDAL', active: false }),
    ]);
    const search = await request(ctx, doctor, 'GET', '/api/exams/catalogue/?search=widal');
    expect(search.json().count).toBe(0);
    expect(await ensureExamCatalogue(ctx.database.db)).toBe(true);
  });

  it('searches in French or English and by code, filters by kind, paginates', async () => {
    const search = async (q: string) =>
      (
        (await request(ctx, doctor, 'GET', `/api/exams/catalogue/?${q}`)).json().results as { code: string }[]
      ).map((e) => e.code);
    expect(await search('search=paludisme')).toEqual(expect.arrayContaining(['TDR-PALU', 'GE']));
    expect(await search('search=malaria')).toEqual(expect.arrayContaining(['TDR-PALU', 'GE']));
    expect((await search('search=nfs'))[0]).toBe('NFS');
    expect(await search('search=echographie&kind=imaging')).toEqual(['ECHO-ABDO', 'ECHO-OBST']);
    expect((await search('kind=imaging&page_size=100')).length).toBe(5);
    const page = await request(ctx, doctor, 'GET', '/api/exams/catalogue/?page_size=5');
    expect(page.json().count).toBe(EXAM_CATALOGUE.length);
    expect(page.json().results).toHaveLength(5);
    expect(page.json().results[0].fields.length).toBeGreaterThan(0);
  });

  it('ships the exams the issue names, with units and ranges where numbers are measured', () => {
    const codes = EXAM_CATALOGUE.map((e) => e.code);
    for (const code of [
      'NFS',
      'GLY',
      'CREA',
      'UREE',
      'CRP',
      'TDR-PALU',
      'GE',
      'VIH',
      'AGHBS',
      'GS-RH',
      'BU',
      'BHCG',
    ])
      expect(codes).toContain(code);
    for (const code of ['RX-THORAX', 'ECHO-ABDO', 'ECHO-OBST', 'TDM-CRANE'])
      expect(EXAM_CATALOGUE.find((e) => e.code === code)!.kind).toBe('imaging');
    expect(new Set(codes).size).toBe(codes.length);
    for (const exam of EXAM_CATALOGUE) {
      expect(new Set(exam.fields.map((f) => f.key)).size, exam.code).toBe(exam.fields.length);
      for (const f of exam.fields) {
        if (f.type === 'number') {
          expect(f.min, `${exam.code}.${f.key}`).toBeDefined();
          expect(f.max, `${exam.code}.${f.key}`).toBeGreaterThan(f.min!);
        }
        if (f.type === 'choice') expect(f.choices!.length, `${exam.code}.${f.key}`).toBeGreaterThan(1);
      }
    }
  });
});
