import type { TChart, TRoundPatient } from '@greensen/shared/contracts/care';
import type { TNursePatient } from '@greensen/shared/contracts/hospitalizations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { startedConsultation } from '../../../test/consultations.js';
import { type Actor, call, journeyHospital } from '../../../test/journey.js';

/**
 * Issue 37, "One set of vital signs": vitals recorded at triage, in a consultation and on the ward are one series,
 * each with its NEWS2 — the care ward, the care file, the round, the temperature chart and the nurse's "Mes
 * patients" tab (sorted by NEWS2, highest first) read the same series.
 */
let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let desk: Actor;
let queue: Actor;
let doctor: Actor;
let nurse: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
}, 90_000);
afterAll(() => ctx.close());

let serial = 0;
/** A triaged emergency patient whose consultation recorded vitals too, then hospitalized in a bed of URG. */
async function triagedStay(triageVitals: Record<string, unknown>) {
  serial += 1;
  const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep('URG').id,
    name: `Observation ${serial}`,
    code: `OB-${serial}`,
  });
  expect(ward.statusCode, ward.body).toBe(201);
  const room = await call(ctx.app, admin, 'POST', `/api/wards/${ward.json().id}/rooms/`, {
    name: `${serial}`,
    beds: ['A'],
  });
  const bed = room.json().room_list[0].beds[0].id as string;
  const consultation = await startedConsultation(ctx.app, { desk, assigner: queue, doctor }, h.dep('URG').id);
  const triaged = await call(ctx.app, nurse, 'POST', '/api/triage/', {
    admission: consultation.admission,
    chief_complaint: 'Dyspnée fébrile',
    vitals: triageVitals,
    level: '2',
    override_reason: 'Dyspnée',
  });
  expect(triaged.statusCode, triaged.body).toBe(201);
  const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: consultation.admission,
    department: h.dep('URG').id,
    reason: 'Pneumopathie',
  });
  expect(stay.statusCode, stay.body).toBe(201);
  const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.json().id}/bed/`, { bed });
  expect(placed.statusCode, placed.body).toBe(201);
  const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { hospitalization: stay.json().id });
  expect(plan.statusCode, plan.body).toBe(201);
  return {
    plan: plan.json().id as string,
    stay: stay.json().id as string,
    patient: consultation.patient,
    consultation: consultation.id,
  };
}

// RR 26 → 3, SpO₂ 91 % → 3, T 38.6 → 1, HR 120 → 2, SBP 95 → 2: NEWS2 11 (the patient).
const SICK = { respiratory_rate: 26, spo2: 91, temperature: 38.6, heart_rate: 120, systolic_bp: 95 };
// All in range: NEWS2 0.
const WELL = { respiratory_rate: 14, spo2: 98, temperature: 37, heart_rate: 72, systolic_bp: 125 };

describe('one series of vital signs (issue 37)', () => {
  it('the care ward, the care file and the round show the NEWS2 of the triage set', async () => {
    const s = await triagedStay(SICK);
    const ward = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/patients/?department=${h.dep('URG').id}&page_size=100`,
    );
    expect(ward.statusCode, ward.body).toBe(200);
    const row = ward.json().results.find((r: { hospitalization: string }) => r.hospitalization === s.stay);
    expect(row.news2).toMatchObject({ score: 11, risk: 'high', escalation: 'emergency' });

    const file = await call(ctx.app, nurse, 'GET', `/api/care/plans/${s.plan}/`);
    expect(file.json().news2).toMatchObject({ score: 11 });

    const round = await call(ctx.app, nurse, 'GET', `/api/care/rounds/?department=${h.dep('URG').id}`);
    expect(round.statusCode, round.body).toBe(200);
    const line = (round.json().results as TRoundPatient[]).find((r) => r.hospitalization === s.stay)!;
    expect(line.latest).toMatchObject({ source: 'triage', plan: null, respiratory_rate: 26, spo2: 91 });
    expect(line.latest?.news2).toMatchObject({ score: 11 });
  });

  it('the temperature chart holds the triage, consultation and ward sets, each with its NEWS2', async () => {
    const s = await triagedStay(SICK);
    const version = (await call(ctx.app, doctor, 'GET', `/api/consultations/${s.consultation}/`)).json()
      .version as number;
    const saved = await call(ctx.app, doctor, 'PATCH', `/api/consultations/${s.consultation}/`, {
      version,
      vitals: { ...WELL, temperature: 38.1 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const recorded = await call(ctx.app, nurse, 'POST', `/api/care/plans/${s.plan}/vitals/`, {
      vitals: { ...WELL, on_oxygen: false },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);

    const chart = await call(ctx.app, nurse, 'GET', `/api/care/plans/${s.plan}/chart/?days=2`);
    expect(chart.statusCode, chart.body).toBe(200);
    const points = (chart.json() as TChart).points;
    expect(points.map((p) => p.source).sort()).toEqual(['consultation', 'triage', 'ward']);
    expect(points.find((p) => p.source === 'triage')).toMatchObject({ temperature: 38.6, news2: 11 });
    // T 38.1 → 1, the rest in range.
    expect(points.find((p) => p.source === 'consultation')).toMatchObject({ temperature: 38.1, news2: 1 });
    expect(points.find((p) => p.source === 'ward')).toMatchObject({ news2: 0 });
    expect(points.map((p) => p.at)).toEqual([...points.map((p) => p.at)].sort());
  });

  it("the nurse's patients carry their NEWS2 from the series, the highest first", async () => {
    const well = await triagedStay(WELL);
    const sick = await triagedStay(SICK);
    // A ward set later than the triage is the latest: worse, on oxygen.
    const after = await call(ctx.app, nurse, 'POST', `/api/care/plans/${sick.plan}/vitals/`, {
      vitals: { ...SICK, temperature: 39.2, on_oxygen: true },
    });
    expect(after.statusCode, after.body).toBe(201);
    const res = await call(ctx.app, nurse, 'GET', `/api/nurses/${nurse.id}/patients/?page_size=100`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().results as TNursePatient[];
    const scores = rows.map((r) => r.news2?.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const sickRow = rows.find((r) => r.id === sick.stay)!;
    // RR 3 + SpO₂ 3 + oxygen 2 + T 39.2 → 2 + HR 2 + SBP 2 = 14.
    expect(sickRow.news2).toMatchObject({ score: 14, risk: 'high' });
    expect(sickRow.latest_vitals).toMatchObject({ temperature: 39.2, respiratory_rate: 26, spo2: 91 });
    const wellRow = rows.find((r) => r.id === well.stay)!;
    expect(wellRow.news2).toMatchObject({ score: 0, risk: 'low' });
    expect(rows.indexOf(sickRow)).toBeLessThan(rows.indexOf(wellRow));
  });
});
