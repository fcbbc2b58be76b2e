/**
 * Reporting (issue 24, decision 0035): the figures of a small fixture agree with counts made directly in the
 * database; who sees the figures, who drills down to the records behind them, and the Hospital Overview.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { call, startedConsultation } from '../../../test/consultations.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import type { Actor } from '../../../test/journey.js';
import {
  confirmedMalariaCases,
  foreignCase,
  type ReportingHospital,
  reportingWorld,
} from '../../../test/reporting.js';
import { departments, memberships } from '../../db/schema/index.js';
import { hospitalToday } from '../../lib/queries.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';

let ctx: TestContext;
let h: ReportingHospital;
let other: ReportingHospital;
let count: Awaited<ReturnType<typeof reportingWorld>>['count'];
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

beforeAll(async () => {
  const world = await reportingWorld();
  ({ ctx, h, other, count } = world);
  a.secretary = await h.as('SECRETARY');
  a.queueManager = await h.as('QUEUE_MANAGER');
  a.nurse = await h.as('NURSE');
  a.doctor = await h.as('DOCTOR', 'URG');
  a.head = await h.as('HEAD_DOCTOR', 'MED');
  a.admin = await h.as('ADMIN');
  a.foreignHead = await other.as('HEAD_DOCTOR');
  const today = world.today;
  from = addDays(today, -1);
  to = addDays(today, 1);
  const actors = { desk: a.secretary, assigner: a.queueManager, doctor: a.doctor };
  const child = addDays(today, -3 * 365);
  // Three confirmed malaria cases (one child of three), one suspected, each a new patient of the period.
  confirmed.push(...(await confirmedMalariaCases(ctx, h, actors, [child, '1980-05-01', '1990-07-12'])));
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
  await foreignCase(ctx, other);
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

describe('the specification’s /api/dashboard/ and /api/stats/ (issue 36)', () => {
  it('gives each role its dashboards, with the endpoints resolved for the signed-in user', async () => {
    const doctor = await call(ctx.app, a.doctor, 'GET', '/api/dashboard/');
    expect(doctor.statusCode, doctor.body).toBe(200);
    expect(doctor.json()).toMatchObject({
      role_group: 'doctor',
      dashboards: [
        {
          kind: 'doctor',
          title: 'Mes patients du jour',
          refresh_interval: 30_000,
          endpoints: [
            `/api/doctors/${a.doctor.id}/execution-queue/`,
            `/api/doctors/${a.doctor.id}/workload/`,
          ],
        },
      ],
    });
    const nurse = (
      await call(ctx.app, a.nurse, 'GET', '/api/dashboard/', undefined, { 'accept-language': 'en' })
    ).json();
    expect(nurse.role_group).toBe('nurse');
    expect(nurse.dashboards.map((d: { kind: string }) => d.kind)).toEqual(['nurse']);
    expect(nurse.dashboards[0].title).toBe('Unit Overview');
    expect(nurse.dashboards[0].endpoints).toEqual([
      `/api/nurses/${a.nurse.id}/patients/`,
      `/api/nurses/${a.nurse.id}/tasks/`,
    ]);
    // A head doctor has the doctor's and the administrator's dashboards (specification §6).
    const head = (await call(ctx.app, a.head, 'GET', '/api/dashboard/')).json();
    expect(head.dashboards.map((d: { kind: string }) => d.kind)).toEqual(['doctor', 'admin']);
    expect(head.dashboards[1].endpoints).toEqual(['/api/dashboard/overview/', '/api/stats/']);
    const secretary = (await call(ctx.app, a.secretary, 'GET', '/api/dashboard/')).json();
    expect(secretary.dashboards.map((d: { kind: string }) => d.kind)).toEqual(['secretary']);
    expect(secretary.dashboards[0].endpoints).toContain('/api/assign-patient/');
    for (const endpoint of secretary.dashboards[0].endpoints as string[])
      expect(endpoint).not.toContain('{id}');
  });

  it('refuses a hospital the caller is not a member of, and the anonymous', async () => {
    const foreign = await call(ctx.app, a.foreignHead, 'GET', '/api/dashboard/', undefined, {
      'hospital-id': h.hospital.id,
    });
    expect(foreign.statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/dashboard/' })).statusCode).toBe(401);
  });

  it('lists the statistics sections with their links, for the figures’ readers only', async () => {
    const res = await call(ctx.app, a.admin, 'GET', '/api/stats/');
    expect(res.statusCode, res.body).toBe(200);
    const sections = res.json().sections as { name: string; url: string; title: string }[];
    expect(sections.map((s) => s.name)).toEqual([
      'activity',
      'flow',
      'diagnoses',
      'laboratory',
      'pharmacy',
      'inpatient',
      'billing',
    ]);
    expect(sections[0]).toMatchObject({ url: '/api/stats/activity/', title: 'Activité' });
    // Every link answers.
    for (const s of sections) {
      expect((await call(ctx.app, a.admin, 'GET', `${s.url}?from=${from}&to=${to}`)).statusCode).toBe(200);
    }
    expect((await call(ctx.app, a.head, 'GET', '/api/stats/')).statusCode).toBe(200);
    for (const who of [a.nurse, a.doctor, a.secretary, a.queueManager]) {
      expect((await call(ctx.app, who, 'GET', '/api/stats/')).statusCode).toBe(403);
    }
  });
});

/** The first day of the month `n` months after the month of `day`. */
const monthOf = (day: string, n: number) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
};

describe('summaries kept up to date (decision 0038)', () => {
  it('agrees with the raw tables after a visit moves to a past day and is coded afterwards', async () => {
    const today = await hospitalToday(ctx.database.db, h.hospital.id);
    const lastMonth = monthOf(today, -1);
    const past = addDays(lastMonth, 9); // the 10th of last month
    const long = { from: monthOf(today, -2), to: today };
    const read = (section: string, p: { from: string; to: string }) =>
      call(ctx.app, a.head, 'GET', `/api/stats/${section}/?from=${p.from}&to=${p.to}`);
    // Summaries built (and read) before the change.
    expect((await read('activity', long)).statusCode).toBe(200);
    const before = (await read('activity', { from: lastMonth, to: addDays(monthOf(today, 0), -1) })).json();
    const c = await startedConsultation(
      ctx.app,
      { desk: a.secretary, assigner: a.queueManager, doctor: a.head },
      h.dep('MED').id,
      'outpatient',
      { birth_date: addDays(today, -200) },
    );
    // The visit happened on a past day (entered late): every row of it moves there.
    const back = Math.round(
      (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${past}T00:00:00Z`)) / 86_400_000,
    );
    const shift = sql`make_interval(days => ${back})`;
    await ctx.database.db.execute(
      sql`update admissions set admitted_at = admitted_at - ${shift} where id = ${c.admission}`,
    );
    await ctx.database.db.execute(
      sql`update triage_records set recorded_at = recorded_at - ${shift} where admission_id = ${c.admission}`,
    );
    await ctx.database.db.execute(
      sql`update consultations set started_at = started_at - ${shift} where id = ${c.id}`,
    );
    const month = { from: lastMonth, to: addDays(monthOf(today, 0), -1) };
    const activity = (await read('activity', month)).json();
    const direct =
      await count(sql`select count(*)::int as n from admissions a join hospitals hz on hz.id = a.hospital_id
      where a.hospital_id = ${h.hospital.id} and a.status <> 'cancelled'
        and (a.admitted_at at time zone hz.time_zone)::date = ${past}::date`);
    expect(direct).toBe(1);
    expect(activity.admissions_by_day.find((d: { day: string }) => d.day === past)?.total).toBe(direct);
    const total = (x: { admissions_by_day: { total: number }[] }) =>
      x.admissions_by_day.reduce((t, d) => t + d.total, 0);
    expect(total(activity)).toBe(total(before) + 1);
    expect(activity.pyramid.find((g: { age_group: string }) => g.age_group === '0-11m')).toMatchObject({
      F: 1,
    });
    // Coded afterwards: typhoid, on the past day's consultation.
    const dx = await call(ctx.app, a.head, 'POST', `/api/consultations/${c.id}/diagnoses/`, {
      icd_code: 'A01.0',
      rank: 'primary',
      certainty: 'confirmed',
    });
    expect(dx.statusCode, dx.body).toBe(201);
    const typhoid = async (p: { from: string; to: string }) =>
      (await read('diagnoses', p)).json().idsr.find((d: { disease: string }) => d.disease === 'typhoid');
    const directTyphoid = await count(sql`select count(distinct dg.consultation_id)::int as n
      from consultation_diagnoses dg join consultations c on c.id = dg.consultation_id
      where dg.hospital_id = ${h.hospital.id} and dg.removed_at is null and dg.icd_code like 'A01%'
        and c.started_at < now() - interval '1 day'`);
    expect(directTyphoid).toBe(1);
    // The whole month reads its month rows; the longer period mixes month and day rows; both agree.
    expect(await typhoid(month)).toMatchObject({ total: directTyphoid, by_age: { '0-11m': 1 } });
    expect((await typhoid(long)).total).toBe(directTyphoid);
    const monthRows = await count(sql`select count(*)::int as n from stats_daily_diagnoses
      where hospital_id = ${h.hospital.id} and grain = 'm' and day = ${lastMonth}::date and kind = 'idsr' and key = 'typhoid'`);
    expect(monthRows).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from stats_dirty_days where hospital_id = ${h.hospital.id}`),
    ).toBe(0);
    // Removed again: the figure follows.
    await ctx.database.db.execute(
      sql`update consultation_diagnoses set removed_at = now() where consultation_id = ${c.id}`,
    );
    expect((await typhoid(month)).total).toBe(0);
  });

  it('gives the median waits beside the averages, within a bucket of the exact median', async () => {
    const flow = (await stats(a.head, 'flow')).json();
    const exact = await ctx.database.db.execute<{ level: string | null; median: number | null }>(sql`
      select a.triage_level as level, percentile_cont(0.5) within group (order by
        extract(epoch from (c.started_at - a.admitted_at)) / 60) as median
      from admissions a join consultations c on c.admission_id = a.id and c.status <> 'cancelled'
      where a.hospital_id = ${h.hospital.id} and a.admitted_at > now() - interval '1 day'
      group by a.triage_level`);
    expect(exact.rows.length).toBeGreaterThan(0);
    for (const row of exact.rows) {
      const level = flow.levels.find((l: { level: string | null }) => l.level === row.level);
      expect(level.median_arrival_to_doctor).not.toBeNull();
      expect(Math.abs(level.median_arrival_to_doctor - Number(row.median))).toBeLessThanOrEqual(1);
      expect(level).toHaveProperty('median_arrival_to_triage');
      expect(level).toHaveProperty('median_doctor_to_end');
    }
  });
});

describe('pharmacy indicators', () => {
  it('counts the stock-outs and the units moved as the ledger does', async () => {
    await ensureMedicationReference(ctx.database.db);
    const [pharmacy] = await ctx.database.db
      .insert(departments)
      .values({ hospitalId: h.hospital.id, code: 'PHA', name: 'Pharmacie', kind: 'pharmacy' })
      .returning({ id: departments.id });
    const user = await makeUser(ctx.database.db, {
      role: 'NURSE',
      hospitals: [{ id: h.hospital.id, departmentId: pharmacy!.id }],
    });
    const pharmacist = {
      id: user.id,
      headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), h.hospital.id),
    };
    const presentations = await ctx.database.db.execute<{ id: string }>(
      sql`select id from medication_presentations where is_active order by code limit 2`,
    );
    const [kept, emptied] = presentations.rows.map((r) => r.id);
    const expiry = addDays(await hospitalToday(ctx.database.db, h.hospital.id), 300);
    const received = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/receipts/', {
      pharmacy: pharmacy!.id,
      supplier: 'CAMEMO',
      delivery_note: 'BL-STATS-1',
      lines: [
        { presentation: kept, lot_number: 'K-1', expiry_date: expiry, quantity: 40, unit_cost: 100 },
        { presentation: emptied, lot_number: 'E-1', expiry_date: expiry, quantity: 10, unit_cost: 100 },
      ],
    });
    expect(received.statusCode, received.body).toBe(201);
    const lot = (received.json().lots as { id: string; lot_number: string }[]).find(
      (l) => l.lot_number === 'E-1',
    )!;
    const off = await call(ctx.app, pharmacist, 'POST', `/api/pharmacy/lots/${lot.id}/corrections/`, {
      kind: 'expiry_writeoff',
    });
    expect(off.statusCode, off.body).toBeLessThan(300);
    const res = await stats(a.admin, 'pharmacy');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const outs = await count(sql`select count(*)::int as n from stock_items
      where hospital_id = ${h.hospital.id} and on_hand = 0`);
    expect(outs).toBe(1);
    expect(body.stock_outs).toBe(outs);
    expect(body.out_of_stock.map((o: { presentation: { id: string } }) => o.presentation.id)).toEqual([
      emptied,
    ]);
    const ledger = await ctx.database.db.execute<{
      presentation_id: string;
      received: number;
      written: number;
    }>(sql`
      select presentation_id, sum(quantity) filter (where kind = 'receipt')::int as received,
        coalesce(-sum(quantity) filter (where kind = 'expiry_writeoff'), 0)::int as written
      from stock_movements where hospital_id = ${h.hospital.id} group by presentation_id`);
    for (const r of ledger.rows) {
      const line = body.consumption.find(
        (x: { presentation: { id: string } }) => x.presentation.id === r.presentation_id,
      );
      expect(line).toMatchObject({ received: r.received, written_off: r.written, dispensed: 0 });
    }
    expect(
      body.consumption.find((x: { presentation: { id: string } }) => x.presentation.id === kept).on_hand,
    ).toBe(40);
    // The department filter is the pharmacy; another department has no movement.
    const urg = (await stats(a.admin, 'pharmacy', `&department=${h.dep('URG').id}`)).json();
    expect(urg).toMatchObject({ stock_outs: 0, consumption: [] });
    expect((await stats(a.doctor, 'pharmacy')).statusCode).toBe(403);
  });
});

describe('all hospitals', () => {
  it('adds up the hospitals where the user reads the figures, and refuses any other', async () => {
    // An administrator of both hospitals, and a head doctor of this one who is a nurse in the other.
    const both = await makeUser(ctx.database.db, {
      role: 'ADMIN',
      hospitals: [{ id: h.hospital.id }, { id: other.hospital.id }],
    });
    const admin = {
      id: both.id,
      headers: authHeaders(await tokenFor(ctx.config.jwtSecret, both), h.hospital.id),
    };
    const mixed = await makeUser(ctx.database.db, {
      role: 'HEAD_DOCTOR',
      hospitals: [{ id: h.hospital.id }],
    });
    await ctx.database.db
      .insert(memberships)
      .values({ userId: mixed.id, hospitalId: other.hospital.id, roleCode: 'NURSE' });
    const head = {
      id: mixed.id,
      headers: authHeaders(await tokenFor(ctx.config.jwtSecret, mixed), h.hospital.id),
    };
    const malaria = (body: { idsr: { disease: string; total: number }[] }) =>
      body.idsr.find((d) => d.disease === 'malaria_confirmed')!.total;
    const direct = await count(sql`select count(distinct dg.consultation_id)::int as n
      from consultation_diagnoses dg join consultations c on c.id = dg.consultation_id
      where dg.hospital_id in (${h.hospital.id}, ${other.hospital.id}) and dg.removed_at is null
        and dg.certainty = 'confirmed' and dg.icd_code like 'B5%' and c.started_at > now() - interval '1 day'`);
    expect(direct).toBe(4);
    const all = await stats(admin, 'diagnoses', '&hospitals=all');
    expect(all.statusCode, all.body).toBe(200);
    expect(malaria(all.json())).toBe(direct);
    expect(
      all
        .json()
        .period.hospitals.map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([h.hospital.id, other.hospital.id].sort());
    const listed = await stats(admin, 'activity', `&hospitals=${h.hospital.id},${other.hospital.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((await stats(admin, 'inpatient', '&hospitals=all')).statusCode).toBe(200);
    // Alone, this hospital's figure.
    expect(malaria((await stats(admin, 'diagnoses')).json())).toBe(3);
    // A nurse in the other hospital: "all" is this hospital only; naming the other is refused.
    const mine = (await stats(head, 'diagnoses', '&hospitals=all')).json();
    expect(mine.period.hospitals.map((x: { id: string }) => x.id)).toEqual([h.hospital.id]);
    expect(malaria(mine)).toBe(3);
    expect(
      (await stats(head, 'diagnoses', `&hospitals=${h.hospital.id},${other.hospital.id}`)).statusCode,
    ).toBe(403);
    // A hospital the user is no member of is refused alike, and so is a made-up id.
    expect((await stats(a.admin, 'activity', `&hospitals=${other.hospital.id}`)).statusCode).toBe(403);
    expect(
      (await stats(a.admin, 'activity', '&hospitals=00000000-0000-7000-8000-000000000000')).statusCode,
    ).toBe(403);
    expect((await stats(a.admin, 'activity', '&hospitals=nope')).statusCode).toBe(400);
  });
});

describe('a change of time zone (decision 0047)', () => {
  it('moves the summaries’ days to the new zone, and back', async () => {
    const zoneOf = async () =>
      (
        await ctx.database.db.execute<{ zone: string }>(
          sql`select time_zone as zone from hospitals where id = ${h.hospital.id}`,
        )
      ).rows[0]!.zone;
    const zone = await zoneOf();
    const today = await hospitalToday(ctx.database.db, h.hospital.id);
    const day = addDays(today, -20);
    const period = { from: addDays(day, -1), to: addDays(today, 1) };
    // A visit at 23:30 of that day in the hospital's zone: the next day in a zone 13 hours east or more.
    const c = await startedConsultation(
      ctx.app,
      { desk: a.secretary, assigner: a.queueManager, doctor: a.head },
      h.dep('MED').id,
      'outpatient',
    );
    const at = sql`(${`${day} 23:30`}::timestamp at time zone ${zone})`;
    await ctx.database.db.execute(sql`update admissions set admitted_at = ${at} where id = ${c.admission}`);
    await ctx.database.db.execute(
      sql`update triage_records set recorded_at = ${at} + interval '5 minutes' where admission_id = ${c.admission}`,
    );
    await ctx.database.db.execute(
      sql`update consultations set started_at = ${at} + interval '10 minutes' where id = ${c.id}`,
    );
    const byDay = async () => {
      const res = await call(
        ctx.app,
        a.admin,
        'GET',
        `/api/stats/activity/?from=${period.from}&to=${period.to}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(
        (res.json().admissions_by_day as { day: string; total: number }[]).map((d) => [d.day, d.total]),
      );
    };
    // The days as the database counts them in the hospital's current zone.
    const direct = async () => {
      const res = await ctx.database.db.execute<{ day: string; n: number }>(sql`
        select (a.admitted_at at time zone hz.time_zone)::date::text as day, count(*)::int as n
        from admissions a join hospitals hz on hz.id = a.hospital_id
        where a.hospital_id = ${h.hospital.id} and a.status <> 'cancelled'
        group by 1 order by 1`);
      return Object.fromEntries(
        res.rows.filter((r) => r.day >= period.from && r.day <= period.to).map((r) => [r.day, r.n]),
      );
    };
    const before = await byDay();
    expect(before).toEqual(await direct());
    expect(before[day]).toBeGreaterThanOrEqual(1);
    const change = (time_zone: string) =>
      call(ctx.app, a.admin, 'PATCH', `/api/hospitals/${h.hospital.id}/`, { time_zone });
    const moved = await change('Pacific/Kiritimati');
    expect(moved.statusCode, moved.body).toBe(200);
    // The change marked the hospital's days (the other hospital's are untouched).
    expect(
      await count(sql`select count(*)::int as n from stats_dirty_days
        where hospital_id = ${h.hospital.id} and day = ${day}::date + 1`),
    ).toBe(1);
    const after = await byDay();
    const expected = await direct();
    expect(after).toEqual(expected);
    // The 23:30 visit is on the next day now, and the days' totals still add up.
    expect(expected[addDays(day, 1)]).toBeGreaterThanOrEqual(1);
    expect(after[day] ?? 0).toBe((before[day] ?? 0) - 1);
    const sum = (x: Record<string, number>) => Object.values(x).reduce((s, n) => s + n, 0);
    expect(sum(after)).toBe(sum(before));
    // The month rows follow: a period of whole months (read from them) agrees with the database.
    const long = { from: monthOf(today, -2), to: addDays(monthOf(today, 0), -1) };
    const longRes = await call(
      ctx.app,
      a.admin,
      'GET',
      `/api/stats/activity/?from=${long.from}&to=${long.to}`,
    );
    expect(
      sum(
        Object.fromEntries(
          (longRes.json().admissions_by_day as { day: string; total: number }[]).map((d) => [d.day, d.total]),
        ),
      ),
    ).toBe(
      await count(sql`select count(*)::int as n from admissions a join hospitals hz on hz.id = a.hospital_id
        where a.hospital_id = ${h.hospital.id} and a.status <> 'cancelled'
          and (a.admitted_at at time zone hz.time_zone)::date between ${long.from}::date and ${long.to}::date`),
    );
    const monthVisits = await count(sql`select coalesce(sum(visits), 0)::int as n from stats_daily_visits
      where hospital_id = ${h.hospital.id} and grain = 'm' and day >= ${long.from}::date and day <= ${long.to}::date`);
    expect(monthVisits).toBe(
      await count(sql`select count(*)::int as n from admissions a join hospitals hz on hz.id = a.hospital_id
        where a.hospital_id = ${h.hospital.id} and a.status <> 'cancelled'
          and (a.admitted_at at time zone hz.time_zone)::date between ${long.from}::date and ${long.to}::date`),
    );
    expect((await change(zone)).statusCode).toBe(200);
    expect(await byDay()).toEqual(before);
    expect(await zoneOf()).toBe(zone);
  });
});
