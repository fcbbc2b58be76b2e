import type { TSafetyAlert, TSafetyCheckResult } from '@greensen/shared/contracts/medication-safety';
import type { TMedication, TPrescriptionLineInput } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, startedConsultation } from '../../../test/consultations.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, createPatient, journeyHospital } from '../../../test/journey.js';
import { departments, hospitalizations } from '../../db/schema/index.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';
import { importDoseLimitsText } from './dose-limits.import.js';

let ctx: TestContext;
let doctor: Actor;
let nurse: Actor;
let queue: Actor;
let secretary: Actor;
let admin: Actor;
let pharmacist: Actor;
let outsider: Actor;
let outsiderDesk: Actor;
let pharmacy: string;
let hospitalId: string;
let urg: string;
let hospitalCode: string;

const meds = new Map<string, TMedication>();
async function medicine(atc: string): Promise<TMedication> {
  if (!meds.has(atc)) {
    const res = await call(ctx.app, doctor, 'GET', `/api/medications/?atc=${atc}&page_size=5`);
    expect(res.statusCode, res.body).toBe(200);
    meds.set(
      atc,
      res.json().results.find((m: TMedication) => m.atc_code === atc),
    );
  }
  return meds.get(atc)!;
}
const presentation = async (atc: string, strength?: string) =>
  (await medicine(atc)).presentations.find((p) => (strength ? p.strength === strength : !p.paediatric))!.id;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  hospitalCode = `MS${Math.floor(Math.random() * 1e6)}`;
  const h = await journeyHospital(ctx, { code: hospitalCode });
  hospitalId = h.hospital.id;
  urg = h.dep('URG').id;
  doctor = await h.as('DOCTOR');
  nurse = await h.as('NURSE');
  queue = await h.as('QUEUE_MANAGER');
  secretary = await h.as('SECRETARY');
  admin = await h.as('ADMIN');
  const made = await ctx.database.db
    .insert(departments)
    .values({ hospitalId, code: 'PHA', name: 'Pharmacie', kind: 'pharmacy' })
    .returning({ id: departments.id });
  pharmacy = made[0]!.id;
  const user = await makeUser(ctx.database.db, {
    role: 'NURSE',
    hospitals: [{ id: hospitalId, departmentId: pharmacy }],
  });
  pharmacist = { id: user.id, headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), hospitalId) };
  const other = await journeyHospital(ctx, { code: `MO${Math.floor(Math.random() * 1e6)}` });
  outsider = await other.as('DOCTOR');
  outsiderDesk = await other.as('SECRETARY');
}, 60_000);
afterAll(() => ctx.close());

const actors = () => ({ desk: secretary, assigner: queue, doctor });
const line = (p: string, over: Partial<TPrescriptionLineInput> = {}): TPrescriptionLineInput => ({
  presentation: p,
  dose: 1,
  dose_unit: 'comprimé',
  route: 'oral',
  frequency: { kind: 'times_per_day', times: 3 },
  duration_days: 5,
  ...over,
});

/** A consultation in progress whose allergies the doctor recorded (not completed). */
async function consultationWith(allergies: string[] | null, patientOver: Record<string, unknown> = {}) {
  const c = await startedConsultation(ctx.app, actors(), urg, 'emergency', patientOver);
  if (allergies) {
    const current = (await call(ctx.app, doctor, 'GET', `/api/consultations/${c.id}/`)).json();
    const saved = await call(ctx.app, doctor, 'PATCH', `/api/consultations/${c.id}/`, {
      version: current.version,
      allergies,
      allergies_confirmed: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  return c;
}

async function check(body: Record<string, unknown>, actor = doctor) {
  const res = await call(ctx.app, actor, 'POST', '/api/medication-safety/check/', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TSafetyCheckResult;
}
const codes = (alerts: TSafetyAlert[]) => alerts.map((a) => a.code);

async function draft(
  c: { id: string; patient: string },
  lines: TPrescriptionLineInput[],
  weight_kg?: number,
) {
  const res = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines,
    ...(weight_kg ? { weight_kg } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; version: number; lines: { id: string }[] };
}

describe('allergies of every source', () => {
  it('the consultation’s own allergy, not completed yet, blocks amoxicillin (the reproduction of issue 34)', async () => {
    const c = await consultationWith(['Pénicilline']);
    const amox = await presentation('J01CA04', '500 mg');
    const result = await check({ patient: c.patient, lines: [line(amox, { dose_unit: 'gélule' })] });
    const alert = result.alerts.find((a) => a.code === 'allergy_class');
    expect(alert).toMatchObject({ severity: 'blocking', requires_reason: true, line: 0 });
    expect(alert!.details).toMatchObject({ allergy: 'Pénicilline', allergy_source: 'consultation' });
    expect(result.allergies).toEqual({
      state: 'recorded',
      items: [{ text: 'Pénicilline', source: 'consultation' }],
    });
    // The prescription form's older check says it too (it was `warnings: []`).
    const old = await call(ctx.app, doctor, 'POST', '/api/prescriptions/check/', {
      patient: c.patient,
      lines: [line(amox, { dose_unit: 'gélule' })],
    });
    expect(
      old.json().warnings.map((w: { kind: string; blocking: boolean }) => [w.kind, w.blocking]),
    ).toContainEqual(['allergy', true]);
  });

  it('keeps "never asked" apart from "none known", in English too', async () => {
    const never = await consultationWith(null);
    const para = await presentation('N02BE01', '500 mg');
    const res = await call(
      ctx.app,
      { ...doctor, headers: { ...doctor.headers, 'accept-language': 'en' } },
      'POST',
      '/api/medication-safety/check/',
      { patient: never.patient, lines: [line(para)] },
    );
    const asked = res.json() as TSafetyCheckResult;
    expect(asked.allergies.state).toBe('not_asked');
    expect(asked.alerts[0]).toMatchObject({
      code: 'allergies_not_recorded',
      severity: 'warning',
      line: null,
    });
    expect(asked.alerts[0]!.message).toMatch(/never recorded/);
    const none = await consultationWith([]);
    expect((await check({ patient: none.patient, lines: [line(para)] })).allergies.state).toBe('none_known');
  });

  it('a class allergy on the patient record: aspirin to ibuprofen', async () => {
    const c = await consultationWith(null, { allergies: ['Aspirine'] });
    const result = await check({
      patient: c.patient,
      lines: [line(await presentation('M01AE01', '400 mg'))],
    });
    expect(result.alerts.find((a) => a.code === 'allergy_class')?.details.allergy_source).toBe('patient');
  });
});

describe('doses', () => {
  it('12 g a day of paracetamol for a 62.5 kg adult is blocking; 1 g four times a day is not', async () => {
    const c = await consultationWith([]);
    const para = await presentation('N02BE01', '500 mg');
    const bad = await check({
      patient: c.patient,
      weight_kg: 62.5,
      lines: [line(para, { dose: 4, frequency: { kind: 'times_per_day', times: 6 } })],
    });
    expect(bad.blocked).toBe(true);
    expect(bad.weight).toEqual({ kg: 62.5, recorded_at: null, source: 'request' });
    expect(bad.alerts.find((a) => a.code === 'dose_daily_max')?.details).toMatchObject({
      value: 12000,
      limit: 4000,
    });
    const good = await check({
      patient: c.patient,
      lines: [line(await presentation('N02BE01', '1 g'), { frequency: { kind: 'times_per_day', times: 4 } })],
    });
    expect(good.alerts).toEqual([]);
  });

  it('a 10 kg child prescribed an adult dose', async () => {
    const c = await consultationWith([], {
      birth_date: new Date(Date.now() - 2 * 365 * 86_400_000).toISOString().slice(0, 10),
    });
    const result = await check({
      patient: c.patient,
      weight_kg: 10,
      lines: [line(await presentation('N02BE01', '1 g'), { frequency: { kind: 'times_per_day', times: 4 } })],
    });
    expect(result.alerts.filter((a) => a.code === 'dose_mg_per_kg').map((a) => a.details.per)).toEqual([
      'dose',
      'day',
    ]);
    const noWeight = await check({ patient: c.patient, lines: [line(await presentation('N02BE01', '1 g'))] });
    expect(codes(noWeight.alerts)).toContain('weight_required');
  });

  it('sums two paracetamol-containing lines', async () => {
    const c = await consultationWith([]);
    const result = await check({
      patient: c.patient,
      lines: [line(await presentation('N02BE01', '1 g')), line(await presentation('N02AJ06'), { dose: 2 })],
    });
    expect(result.alerts.find((a) => a.code === 'dose_daily_max')?.details).toMatchObject({
      value: 6000,
      per: 'day',
    });
    expect(codes(result.alerts)).toContain('duplicate_substance');
  });
});

describe('a hospital’s own limits', () => {
  it('replace the shipped rows of the medicines its file names, for that hospital only', async () => {
    const header =
      'medication\troute\tsubstance\tcomponent\tunit\tadult_dose\tadult_day\tkg_dose\tkg_day\tweight_dosed\tpregnancy\tno_limit\tsource';
    const report = await importDoseLimitsText(
      ctx.database.db,
      hospitalCode,
      [
        header,
        'paracetamol\t\tparacetamol\t0\tmg\t1000\t3000\t15\t60\t\t\t\tProtocole local 2026',
        'no-such-medicine\t\tx\t0\tmg\t1\t1\t\t\t\t\t\tLocal',
        'paracetamol\tnasal\tparacetamol\t0\tmg\t1\t1\t\t\t\t\t\tLocal',
      ].join('\n'),
    );
    expect(report).toMatchObject({ lines: 3, inserted: 1 });
    expect(report.rejected.map((r) => r.line)).toEqual([3, 4]);
    const c = await consultationWith([]);
    const result = await check({
      patient: c.patient,
      lines: [line(await presentation('N02BE01', '1 g'), { frequency: { kind: 'times_per_day', times: 4 } })],
    });
    expect(result.alerts.find((a) => a.code === 'dose_daily_max')?.details).toMatchObject({
      limit: 3000,
      source: 'Protocole local 2026',
    });
    const other = await check(
      {
        patient: (await otherPatient()).id,
        lines: [
          line(await presentation('N02BE01', '1 g'), { frequency: { kind: 'times_per_day', times: 4 } }),
        ],
      },
      outsider,
    );
    expect(other.alerts.filter((a) => a.code === 'dose_daily_max')).toEqual([]);
    await ctx.database.db.execute(
      sql`delete from hospital_dose_limits where source = 'Protocole local 2026'`,
    );
  });
});

describe('duplicates and interactions with the active prescriptions', () => {
  it('a duplicate ATC class and warfarin + an NSAID against a signed prescription', async () => {
    const c = await consultationWith([]);
    const first = await draft(c, [
      line(await presentation('B01AA03', '5 mg'), { frequency: { kind: 'times_per_day', times: 1 } }),
    ]);
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${first.id}/sign/`, {
      version: first.version,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const result = await check({
      patient: c.patient,
      lines: [
        line(await presentation('M01AE01', '400 mg')),
        line(await presentation('C08CA01', '5 mg'), { frequency: { kind: 'times_per_day', times: 1 } }),
        line(await presentation('C08CA05', '10 mg')),
      ],
    });
    const interaction = result.alerts.find((a) => a.code === 'interaction');
    expect(interaction).toMatchObject({ severity: 'blocking', line: 0 });
    expect(interaction!.details.other_prescription).toBe(signed.json().number);
    expect(interaction!.details.advice).toMatch(/hémorragique/);
    expect(result.alerts.find((a) => a.code === 'duplicate_class')).toMatchObject({
      line: 2,
      severity: 'warning',
    });
  });
});

describe('override, dispensing and the bedside', () => {
  it('signs only with a reason; the reason is stored once, audited and shown to the pharmacist', async () => {
    const c = await consultationWith(['Pénicilline']);
    const rx = await draft(c, [line(await presentation('J01CA04', '500 mg'), { dose_unit: 'gélule' })], 62.5);
    const refused = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
      version: rx.version,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('medication_safety');
    expect(codes(refused.json().alerts)).toContain('allergy_class');
    const overrides = [
      { code: 'allergy_class', line: 0, reason: 'Désensibilisation faite, sous surveillance' },
    ];
    // Two signatures at once with the same override: one signs, the override is recorded once.
    const both = await Promise.all(
      [1, 2].map(() =>
        call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
          version: rx.version,
          overrides,
        }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const stored = await ctx.database.db.execute<{ n: number; reason: string }>(
      sql`select count(*)::int as n, min(reason) as reason from medication_safety_overrides where prescription_id = ${rx.id}`,
    );
    expect(Number(stored.rows[0]!.n)).toBe(1);
    const audit = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'medication_safety.override' and resource_id = ${rx.id}`,
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
    const seen = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(seen.statusCode, seen.body).toBe(200);
    const alert = (seen.json().safety.alerts as TSafetyAlert[]).find((a) => a.code === 'allergy_class')!;
    expect(alert.override).toMatchObject({ stage: 'prescribe', reason: overrides[0]!.reason });
    expect(alert.requires_reason).toBe(true);
    expect(seen.json().safety.blocked_lines).toEqual([rx.lines[0]!.id]);
    // The pharmacist dispenses only with a reason of his own.
    const body = { pharmacy, lines: [{ line: rx.lines[0]!.id, quantity: 1 }] };
    const noReason = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, body);
    expect(noReason.statusCode).toBe(409);
    expect(noReason.json().code).toBe('medication_safety');
  });

  it('re-checks at the counter: an allergy recorded after the signature, and a patient who left', async () => {
    const c = await consultationWith([]);
    const rx = await draft(c, [line(await presentation('J01CA04', '500 mg'), { dose_unit: 'gélule' })], 70);
    expect(
      (await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, { version: rx.version }))
        .statusCode,
    ).toBe(200);
    const before = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(before.json().safety.blocked_lines).toEqual([]);
    await ctx.database.db.execute(
      sql`update patients set allergies = '{Amoxicilline}', allergies_recorded = true where id = ${c.patient}`,
    );
    const after = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect((after.json().safety.alerts as TSafetyAlert[]).find((a) => a.code === 'allergy')).toMatchObject({
      requires_reason: true,
      override: null,
    });
    const notLeft = await call(
      ctx.app,
      pharmacist,
      'GET',
      `/api/prescriptions/?status=to_dispense&patient=${c.patient}`,
    );
    expect(notLeft.json().results.find((r: { id: string }) => r.id === rx.id)?.patient_left).toBe(false);
    const a = await ctx.database.db.execute<{
      admission_id: string;
      doctor_id: string;
      department_id: string;
    }>(sql`select admission_id, doctor_id, department_id from consultations where id = ${c.id}`);
    const row = a.rows[0]!;
    await ctx.database.db.insert(hospitalizations).values({
      hospitalId,
      patientId: c.patient,
      admissionId: row.admission_id,
      departmentId: row.department_id,
      doctorId: row.doctor_id,
      reason: 'Paludisme grave',
      status: 'discharged',
      endedAt: new Date(),
      dischargeMode: 'home',
    });
    const left = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(left.json().safety.patient_left).toBe(true);
    expect(
      (left.json().safety.alerts as TSafetyAlert[]).find((x) => x.code === 'patient_left')?.severity,
    ).toBe('warning');
    // The worklist flags it too, before the pharmacist opens the prescription.
    const listed = async () =>
      (
        await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/?status=to_dispense&patient=${c.patient}`)
      ).json().results as { id: string; patient_left: boolean }[];
    expect((await listed()).find((r) => r.id === rx.id)?.patient_left).toBe(true);
  });

  it('refuses access to who neither prescribes, dispenses nor gives, and another hospital’s patient', async () => {
    const c = await consultationWith([]);
    const body = { patient: c.patient, lines: [line(await presentation('N02BE01', '500 mg'))] };
    for (const actor of [secretary, admin])
      expect((await call(ctx.app, actor, 'POST', '/api/medication-safety/check/', body)).statusCode).toBe(
        403,
      );
    expect((await call(ctx.app, outsider, 'POST', '/api/medication-safety/check/', body)).statusCode).toBe(
      404,
    );
    expect((await call(ctx.app, nurse, 'POST', '/api/medication-safety/check/', body)).statusCode).toBe(200);
  });

  it('at the bedside: the five rights, the allergy refused without the nurse’s reason, a stat dose and its schedule', async () => {
    const c = await consultationWith(['Pénicilline']);
    const rx = await draft(
      c,
      [
        line(await presentation('J01CA04', '500 mg'), {
          dose_unit: 'gélule',
          frequency: { kind: 'times_per_day', times: 3 },
        }),
      ],
      70,
    );
    const overrides = [
      { code: 'allergy_class', line: 0, reason: 'Allergie ancienne non confirmée, surveillance' },
    ];
    const sign = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
      version: rx.version,
      overrides,
    });
    expect(sign.statusCode, sign.body).toBe(200);
    const planRes = await call(ctx.app, nurse, 'POST', '/api/care/plans/', {
      admission: await admissionOf(c.id),
    });
    expect([200, 201]).toContain(planRes.statusCode);
    const plan = planRes.json().id as string;
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 48 * 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    const view = mar.json();
    expect(view.patient).toMatchObject({ id: c.patient, photo_url: null });
    expect(view.patient.record_number).toBeTruthy();
    expect(view.patient.allergies.items).toEqual([{ text: 'Pénicilline', source: 'consultation' }]);
    const marLine = view.lines[0];
    const alert = (marLine.alerts as TSafetyAlert[]).find((a) => a.code === 'allergy_class')!;
    expect(alert.override).toMatchObject({ stage: 'prescribe', reason: overrides[0]!.reason });
    expect(alert.requires_reason).toBe(true);
    // A stat dose now, refused without the nurse's reason, then given with it; the schedule follows from it.
    const key = crypto.randomUUID();
    const statBody = {
      prescription_line: marLine.id,
      idempotency_key: key,
      dose: 1,
      dose_unit: 'gélule',
      route: 'oral',
    };
    const refused = await call(ctx.app, nurse, 'POST', '/api/care/mar/stat/', statBody);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('medication_safety');
    const stillNone = await ctx.database.db.execute<{ first_dose_at: string | null }>(
      sql`select first_dose_at from prescription_lines where id = ${marLine.id}`,
    );
    expect(stillNone.rows[0]!.first_dose_at).toBeNull();
    const nurseOverride = [
      { code: 'allergy_class', line: marLine.id, reason: 'Vu avec le prescripteur, surveillance 30 min' },
    ];
    const given = await Promise.all(
      [1, 2].map(() =>
        call(ctx.app, nurse, 'POST', '/api/care/mar/stat/', { ...statBody, overrides: nurseOverride }),
      ),
    );
    expect(given.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const dose = given.find((r) => r.statusCode === 201)!.json();
    expect(dose.timing).toBe('on_time');
    expect((dose.alerts as TSafetyAlert[]).map((a) => a.code)).toContain('allergy_class');
    const nurseRows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from medication_safety_overrides where prescription_line_id = ${marLine.id} and stage = 'administer'`,
    );
    expect(Number(nurseRows.rows[0]!.n)).toBe(1);
    const after = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    const doses = after.json().lines[0].doses as { scheduled_at: string }[];
    const stat = new Date(dose.scheduled_at).getTime();
    expect(after.json().lines[0].first_dose_at).toBe(dose.scheduled_at);
    expect(doses.map((d) => new Date(d.scheduled_at).getTime() - stat).slice(0, 3)).toEqual([
      0,
      8 * 3_600_000,
      16 * 3_600_000,
    ]);
    const again = await call(ctx.app, nurse, 'POST', '/api/care/mar/stat/', {
      ...statBody,
      idempotency_key: crypto.randomUUID(),
      overrides: nurseOverride,
    });
    expect(again.statusCode).toBe(409);
    // The next dose given two hours late is flagged.
    const next = new Date(stat + 8 * 3_600_000);
    const late = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      outcome: 'given',
      prescription_line: marLine.id,
      scheduled_at: next.toISOString(),
      idempotency_key: crypto.randomUUID(),
      given_at: new Date().toISOString(),
      dose: 1,
      dose_unit: 'gélule',
      route: 'oral',
    });
    expect(late.statusCode, late.body).toBe(201);
    expect(late.json().timing).toBe('early');
    expect((late.json().alerts as TSafetyAlert[]).map((a) => a.code)).toContain('timing_early');
  });
});

async function admissionOf(consultation: string) {
  const res = await ctx.database.db.execute<{ admission_id: string }>(
    sql`select admission_id from consultations where id = ${consultation}`,
  );
  return res.rows[0]!.admission_id;
}

async function otherPatient() {
  return createPatient(ctx.app, outsiderDesk, { allergies: [] });
}
