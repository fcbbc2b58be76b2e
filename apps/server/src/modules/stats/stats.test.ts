/**
 * Reporting (issue 24, decision 0035): the figures of a small fixture agree with counts made directly in the
 * database; who sees the figures, who drills down to the records behind them, and the Hospital Overview.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { hospitalToday } from '../../lib/queries.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let other: Awaited<ReturnType<typeof journeyHospital>>;
const a = {} as Record<
  'secretary' | 'queueManager' | 'nurse' | 'doctor' | 'head' | 'admin' | 'foreignHead',
  Actor
>;
let from = '';
let to = '';
const confirmed: string[] = [];
let suspected = '';

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const res = await ctx.database.db.execute<{ n: number }>(query);
  return Number(res.rows[0]?.n ?? 0);
}

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx);
  other = await journeyHospital(ctx);
  a.secretary = await h.as('SECRETARY');
  a.queueManager = await h.as('QUEUE_MANAGER');
  a.nurse = await h.as('NURSE');
  a.doctor = await h.as('DOCTOR', 'URG');
  a.head = await h.as('HEAD_DOCTOR', 'MED');
  a.admin = await h.as('ADMIN');
  a.foreignHead = await other.as('HEAD_DOCTOR');
  const today = await hospitalToday(ctx.database.db, h.hospital.id);
  from = addDays(today, -1);
  to = addDays(today, 1);
  const actors = { desk: a.secretary, assigner: a.queueManager, doctor: a.doctor };
  const child = addDays(today, -3 * 365);
  // Three confirmed malaria cases (one child of three), one suspected, each a new patient of the period.
  for (const birth of [child, '1980-05-01', '1990-07-12']) {
    const c = await startedConsultation(ctx.app, actors, h.dep('URG').id, 'emergency', { birth_date: birth });
    await completedConsultation(ctx.app, a.doctor, c.id);
    confirmed.push(c.id);
  }
  const s = await startedConsultation(ctx.app, { ...actors, doctor: a.head }, h.dep('MED').id, 'outpatient', {
    sex: 'M',
  });
  const dx = await call(ctx.app, a.head, 'POST', `/api/consultations/${s.id}/diagnoses/`, {
    icd_code: 'B54',
    rank: 'primary',
    certainty: 'suspected',
  });
  expect(dx.statusCode, dx.body).toBe(201);
  suspected = s.id;
  // The other hospital has a case too, which no figure of this one may count.
  const foreignDesk = await other.as('SECRETARY');
  const foreignQueue = await other.as('QUEUE_MANAGER');
  const foreignDoctor = await other.as('DOCTOR');
  const f = await startedConsultation(
    ctx.app,
    { desk: foreignDesk, assigner: foreignQueue, doctor: foreignDoctor },
    other.dep('URG').id,
  );
  await completedConsultation(ctx.app, foreignDoctor, f.id);
});
afterAll(() => ctx.close());

const stats = (who: Actor, section: string, extra = '') =>
  call(ctx.app, who, 'GET', `/api/stats/${section}/?from=${from}&to=${to}${extra}`);

describe('indicators', () => {
  it('counts activity as the database does', async () => {
    const res = await stats(a.head, 'activity');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const admissions = await count(
      sql`select count(*)::int as n from admissions where hospital_id = ${h.hospital.id} and status <> 'cancelled'`,
    );
    expect(admissions).toBe(4);
    expect(body.admissions_by_day.reduce((s: number, d: { total: number }) => s + d.total, 0)).toBe(
      admissions,
    );
    expect(body.admissions_by_day.reduce((s: number, d: { outpatient: number }) => s + d.outpatient, 0)).toBe(
      1,
    );
    expect(body.consultations_by_doctor).toEqual([
      { doctor: { id: a.doctor.id, full_name: expect.any(String) }, consultations: 3, completed: 3 },
      { doctor: { id: a.head.id, full_name: expect.any(String) }, consultations: 1, completed: 0 },
    ]);
    expect(body.patients).toEqual({ new: 4, returning: 0 });
    const pyramid = body.pyramid as { age_group: string; F: number; M: number }[];
    expect(pyramid.reduce((s, g) => s + g.F + g.M, 0)).toBe(4);
    expect(pyramid.find((g) => g.age_group === '1-4')).toEqual({ age_group: '1-4', F: 1, M: 0 });
    expect(body.period).toMatchObject({ from, to, department: null, hospital: { id: h.hospital.id } });
  });

  it('counts the diagnoses and the notifiable diseases by age group', async () => {
    const res = await stats(a.admin, 'diagnoses');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const direct = await count(sql`select count(*)::int as n from consultation_diagnoses dg
      where dg.hospital_id = ${h.hospital.id} and dg.removed_at is null and dg.certainty = 'confirmed'
        and (dg.icd_code like 'B50%' or dg.icd_code like 'B54%')`);
    expect(direct).toBe(3);
    const malaria = body.idsr.find((d: { disease: string }) => d.disease === 'malaria_confirmed');
    expect(malaria.total).toBe(direct);
    expect(malaria.by_age).toMatchObject({ '1-4': 1, '15+': 2, '0-11m': 0 });
    expect(body.idsr.find((d: { disease: string }) => d.disease === 'malaria_suspected').total).toBe(1);
    expect(body.idsr.find((d: { disease: string }) => d.disease === 'cholera').total).toBe(0);
    expect(body.top_codes).toEqual([
      { code: 'B50.9', label: expect.stringContaining('Paludisme'), count: 3 },
      { code: 'B54', label: expect.any(String), count: 1 },
    ]);
    expect(body.chapters).toEqual([{ chapter: 'I', label: expect.any(String), count: 4 }]);
  });

  it('measures the flow by triage level and answers every other section', async () => {
    const flow = (await stats(a.head, 'flow')).json();
    const levels = flow.levels as { visits: number; seen: number }[];
    expect(levels.reduce((s, l) => s + l.visits, 0)).toBe(4);
    expect(levels.reduce((s, l) => s + l.seen, 0)).toBe(4);
    for (const section of ['laboratory', 'inpatient', 'billing']) {
      const res = await stats(a.admin, section);
      expect(res.statusCode, `${section}: ${res.body}`).toBe(200);
    }
    expect((await stats(a.admin, 'laboratory')).json().malaria).toEqual({ tested: 0, positive: 0 });
  });

  it('filters by department, and refuses another hospital’s department', async () => {
    const med = (await stats(a.head, 'activity', `&department=${h.dep('MAT').id}`)).json();
    expect(med.admissions_by_day).toEqual([]);
    const medicine = (await stats(a.head, 'diagnoses', `&department=${h.dep('MED').id}`)).json();
    expect(medicine.top_codes).toEqual([{ code: 'B54', label: expect.any(String), count: 1 }]);
    expect((await stats(a.head, 'activity', `&department=${other.dep('URG').id}`)).statusCode).toBe(404);
    // The other hospital sees its own case only.
    const foreign = (await stats(a.foreignHead, 'diagnoses')).json();
    expect(foreign.idsr.find((d: { disease: string }) => d.disease === 'malaria_confirmed').total).toBe(1);
  });

  it('validates the period', async () => {
    const res = await call(ctx.app, a.head, 'GET', `/api/stats/activity/?from=${to}&to=${from}`);
    expect(res.statusCode).toBe(400);
    const long = await call(ctx.app, a.head, 'GET', '/api/stats/activity/?from=2024-01-01&to=2025-06-01');
    expect(long.statusCode).toBe(400);
  });

  it('shows the figures to the management only', async () => {
    for (const who of [a.doctor, a.nurse, a.secretary, a.queueManager]) {
      expect((await stats(who, 'activity')).statusCode).toBe(403);
    }
  });
});

describe('drill-down', () => {
  const drill = (who: Actor, extra: string) =>
    call(ctx.app, who, 'GET', `/api/stats/drilldown/?from=${from}&to=${to}${extra}`);

  it('lists the consultations behind the malaria count, paginated and audited', async () => {
    const res = await drill(a.head, '&disease=malaria_confirmed&page_size=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.results).toHaveLength(2);
    expect(body.next).toContain('page=2');
    const second = (await drill(a.head, '&disease=malaria_confirmed&page_size=2&page=2')).json();
    expect(
      [...body.results, ...second.results].map((r: { consultation: string }) => r.consultation).sort(),
    ).toEqual([...confirmed].sort());
    const child = (await drill(a.head, '&disease=malaria_confirmed&age_group=1-4')).json();
    expect(child.count).toBe(1);
    expect(child.results[0].patient.age_group).toBe('1-4');
    const byCode = (await drill(a.head, '&code=B54')).json();
    expect(byCode.results.map((r: { consultation: string }) => r.consultation)).toEqual([suspected]);
    const audit = await count(sql`select count(*)::int as n from audit_events
      where user_id = ${a.head.id} and action = 'consultation.list'`);
    expect(audit).toBe(4);
  });

  it('gives the numbers only to those who may not read the consultations', async () => {
    expect((await drill(a.admin, '&disease=malaria_confirmed')).statusCode).toBe(403);
    expect((await drill(a.doctor, '&disease=malaria_confirmed')).statusCode).toBe(403);
    expect((await drill(a.head, '&disease=malaria_confirmed&code=B50')).statusCode).toBe(400);
  });
});

describe('Hospital Overview', () => {
  it('gives today’s figures to the administrator and the head doctor', async () => {
    const res = await call(ctx.app, a.admin, 'GET', '/api/dashboard/overview/');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.today.admissions).toBe(4);
    expect(body.today.by_type).toMatchObject({ emergency: 3, outpatient: 1 });
    expect(body.today.consultations_completed).toBe(3);
    expect(body.today.in_consultation).toBe(1);
    expect(body.outpatient).toEqual([
      expect.objectContaining({ admissions: 3, completed: 3, in_consultation: 0, waiting: 0 }),
      expect.objectContaining({ admissions: 1, completed: 0, in_consultation: 1, waiting: 0 }),
    ]);
    expect((await call(ctx.app, a.head, 'GET', '/api/dashboard/overview/')).statusCode).toBe(200);
    expect((await call(ctx.app, a.nurse, 'GET', '/api/dashboard/overview/')).statusCode).toBe(403);
  });
});
