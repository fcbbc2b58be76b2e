import type {
  TMedication,
  TPrescription,
  TPrescriptionLineInput,
  TStockItem,
} from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, insertTestIcd10, startedConsultation } from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { departments } from '../../db/schema/index.js';
import { ensureMedicationReference, MEDICATIONS_HASH_SETTING } from './medication-reference.js';
import { importMedicationsText } from './medications.import.js';

let ctx: TestContext;
let doctor: Actor;
let nurse: Actor;
let queue: Actor;
let secretary: Actor;
let headDoctor: Actor;
let otherDoctor: Actor;
let admin: Actor;
let pharmacist: Actor;
let pharmacy: string;
let otherPharmacy: string;
let hospitalId: string;
let urg: string;

const ids = new Map<string, TMedication>();
/** A medicine of the reference found by its ATC code. */
async function medicine(atc: string): Promise<TMedication> {
  if (!ids.has(atc)) {
    const res = await call(ctx.app, doctor, 'GET', `/api/medications/?atc=${atc}&page_size=5`);
    expect(res.statusCode, res.body).toBe(200);
    ids.set(atc, res.json().results[0]);
  }
  return ids.get(atc)!;
}
const presentationOf = async (atc: string, form = 'tablet') =>
  (await medicine(atc)).presentations.find((p) => p.form === form && !p.paediatric)!.id;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  await insertTestIcd10(ctx.database.db);
  const h = await journeyHospital(ctx, { code: `PH${Math.floor(Math.random() * 1e6)}` });
  hospitalId = h.hospital.id;
  admin = await h.as('ADMIN');
  urg = h.dep('URG').id;
  doctor = await h.as('DOCTOR');
  nurse = await h.as('NURSE');
  queue = await h.as('QUEUE_MANAGER');
  secretary = await h.as('SECRETARY');
  headDoctor = await h.as('HEAD_DOCTOR');
  otherDoctor = await h.as('DOCTOR');
  const made = await ctx.database.db
    .insert(departments)
    .values([
      { hospitalId, code: 'PHA', name: 'Pharmacie centrale', kind: 'pharmacy' },
      { hospitalId, code: 'PH2', name: 'Pharmacie des urgences', kind: 'pharmacy' },
    ])
    .returning({ id: departments.id });
  pharmacy = made[0]!.id;
  otherPharmacy = made[1]!.id;
  const user = await makeUser(ctx.database.db, {
    role: 'NURSE',
    hospitals: [{ id: hospitalId, departmentId: pharmacy }],
  });
  pharmacist = { id: user.id, headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), hospitalId) };
}, 60_000);
afterAll(() => ctx.close());

const actors = () => ({ desk: secretary, assigner: queue, doctor });

async function receive(presentation: string, lots: { lot: string; expiry: string; quantity: number }[]) {
  const res = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/receipts/', {
    pharmacy,
    supplier: 'CAMEMO',
    delivery_note: `BL-${Math.random().toString(36).slice(2, 8)}`,
    lines: lots.map((l) => ({
      presentation,
      lot_number: l.lot,
      expiry_date: l.expiry,
      quantity: l.quantity,
      unit_cost: 120,
    })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { lots: { id: string; lot_number: string; on_hand: number }[] };
}

const line = (presentation: string, over: Partial<TPrescriptionLineInput> = {}): TPrescriptionLineInput => ({
  presentation,
  dose: 1,
  dose_unit: 'comprimé',
  route: 'oral',
  frequency: { kind: 'times_per_day', times: 2 },
  duration_days: 3,
  ...over,
});

async function prescribe(
  lines: TPrescriptionLineInput[],
  patientOver: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const c = await startedConsultation(ctx.app, actors(), urg, 'emergency', patientOver);
  const res = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TPrescription;
}

async function signed(
  lines: TPrescriptionLineInput[],
  patientOver: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const rx = await prescribe(lines, patientOver, extra);
  const res = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
    version: rx.version,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TPrescription;
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('the medication reference', () => {
  it('is loaded once, then skipped', async () => {
    expect(await ensureMedicationReference(ctx.database.db)).toBe(false);
    const res = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from app_settings where key = ${MEDICATIONS_HASH_SETTING}`,
    );
    expect(Number(res.rows[0]!.n)).toBe(1);
  });

  it.each([
    ['paracetamol', 'N02BE01'],
    ['paracétamol', 'N02BE01'],
    ['Paracetamol', 'N02BE01'],
    ['artemeter', 'P01BF01'],
    ['P01BF01', 'P01BF01'],
    ['amoxiciline', 'J01CA04'],
    ['Coartem', 'P01BF01'],
    ['ceftriaxone', 'J01DD04'],
  ])('finds "%s" (%s) first or among the first', async (q, atc) => {
    const res = await call(ctx.app, nurse, 'GET', `/api/medications/?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    const codes = (res.json().results as TMedication[]).slice(0, 3).map((m) => m.atc_code);
    expect(codes).toContain(atc);
  });

  it('searches with `search`, the name every list uses, and still with the deprecated `q` (issue 36)', async () => {
    const all = (await call(ctx.app, nurse, 'GET', '/api/medications/?page_size=100')).json();
    const res = await call(ctx.app, nurse, 'GET', '/api/medications/?search=paracetamol');
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json();
    // Not the whole list: paracetamol's entries only.
    expect(found.count).toBeLessThan(all.count);
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results[0].atc_code).toBe('N02BE01');
    const legacy = (await call(ctx.app, nurse, 'GET', '/api/medications/?q=paracetamol')).json();
    expect(legacy.results.map((m: TMedication) => m.id)).toEqual(found.results.map((m: TMedication) => m.id));
    // `search` wins when both are given.
    const both = (
      await call(ctx.app, nurse, 'GET', '/api/medications/?search=paracetamol&q=ceftriaxone')
    ).json();
    expect(both.results.map((m: TMedication) => m.id)).toEqual(found.results.map((m: TMedication) => m.id));
  });

  it('shows a medicine with its presentations, stock per pharmacy and movements', async () => {
    const m = await medicine('N02BE01');
    expect(m.presentations.some((p) => p.paediatric)).toBe(true);
    await receive(await presentationOf('N02BE01'), [
      { lot: 'PARA-DET-1', expiry: future(400), quantity: 50 },
    ]);
    const res = await call(ctx.app, secretary, 'GET', `/api/medications/${m.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json();
    expect(detail.stock.some((s: { pharmacy: { id: string } }) => s.pharmacy.id === pharmacy)).toBe(true);
    expect(detail.recent_movements[0].kind).toBe('receipt');
    const inStock = await call(ctx.app, doctor, 'GET', `/api/medications/?in_stock_at=${pharmacy}&q=parac`);
    expect(inStock.json().results.map((r: TMedication) => r.id)).toContain(m.id);
  });

  it('imports a national list: inserted, updated and rejected lines reported', async () => {
    const csv = [
      'code;dci;inn_en;atc;group;form;strength;route;unit;paediatric',
      'paracetamol;paracétamol;paracetamol;N02BE01;analgesics;tablet;250 mg;oral;tablet;0',
      'test-medicine-x;médicament X;medicine X;A01AA01;;capsule;10 mg;oral;capsule;non',
      'test-medicine-x;médicament X;medicine X;A01AA01;;oral_suspension;5 mg/5 mL;oral;bottle;oui',
      ';;;;;;;;;',
      'bad;;;;;tablet;1 mg;oral;tablet;0',
      'bad-atc;mauvais;bad;ZZZ;;tablet;1 mg;oral;tablet;0',
      'bad-form;forme;form;A01AA01;;pill;1 mg;oral;tablet;0',
    ].join('\n');
    const report = await importMedicationsText(ctx.database.db, csv);
    expect(report).toMatchObject({ lines: 6, inserted: 2, updated: 1 });
    expect(report.rejected.map((r) => r.line)).toEqual([6, 7, 8]);
    const found = await call(ctx.app, doctor, 'GET', '/api/medications/?q=medicine%20X');
    expect(found.json().results[0].presentations).toHaveLength(2);
  });
});

describe('prescriptions and their safety checks', () => {
  it('numbers a draft ORD-<hospital>-<year>-n, computes quantities, signs and reads it', async () => {
    const rx = await prescribe([
      line(await presentationOf('P01BF01'), { dose: 4, frequency: { kind: 'times_per_day', times: 2 } }),
      line(await presentationOf('N02BE01'), { quantity: 12 }),
    ]);
    expect(rx.number).toMatch(/^ORD-PH\d+-\d{4}-\d{6}$/);
    expect(rx.status).toBe('draft');
    expect(rx.lines.map((l) => l.quantity)).toEqual([24, 12]);
    expect(rx.can).toMatchObject({ edit: true, sign: true, cancel: true, dispense: false });
    const res = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
      version: rx.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('signed');
    // The pharmacy hears of it at once, with a link to what to dispense; nobody else does.
    const told = await ctx.database.db.execute<{
      recipient_id: string;
      title: string;
      data: { prescription_id: string };
    }>(sql`select recipient_id, title, data from notifications where data->>'prescription_id' = ${rx.id}`);
    expect(told.rows).toEqual([
      expect.objectContaining({
        recipient_id: pharmacist.id,
        title: 'Ordonnance à dispenser',
        data: expect.objectContaining({ action: 'prescription_signed', prescription_id: rx.id }),
      }),
    ]);
    const again = await call(ctx.app, doctor, 'PATCH', `/api/prescriptions/${rx.id}/`, {
      version: res.json().version,
      lines: [line(await presentationOf('N02BE01'))],
    });
    expect(again.statusCode).toBe(409);
    const read = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(read.json().can.dispense).toBe(true);
    const refused = await call(ctx.app, secretary, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(refused.statusCode).toBe(403);
  });

  it('is written from an open stay and listed with it; a closed stay takes no more prescriptions', async () => {
    const c = await startedConsultation(ctx.app, actors(), urg, 'emergency');
    const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
      admission: c.admission,
      department: urg,
      reason: 'Paludisme grave',
    });
    expect(stay.statusCode, stay.body).toBe(201);
    const fromStay = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      hospitalization: stay.json().id,
      lines: [line(await presentationOf('N02BE01'))],
    });
    expect(fromStay.statusCode, fromStay.body).toBe(201);
    expect(fromStay.json()).toMatchObject({ hospitalization: stay.json().id, consultation: null });
    const listed = await call(ctx.app, nurse, 'GET', `/api/prescriptions/?hospitalization=${stay.json().id}`);
    expect(listed.json().results.map((r: { id: string }) => r.id)).toEqual([fromStay.json().id]);

    const discharged = await call(
      ctx.app,
      doctor,
      'POST',
      `/api/hospitalizations/${stay.json().id}/discharge/`,
      {
        mode: 'home',
        diagnoses: ['B50.9'],
        summary: 'Apyrétique, sortie.',
      },
    );
    expect(discharged.statusCode, discharged.body).toBeLessThan(300);
    const closed = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      hospitalization: stay.json().id,
      lines: [line(await presentationOf('N02BE01'))],
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().detail).toBe('Ce séjour est terminé : on ne prescrit plus depuis lui.');
  });

  it('refuses a stale draft save with the current version', async () => {
    const rx = await prescribe([line(await presentationOf('N02BE01'))]);
    const first = await call(ctx.app, doctor, 'PATCH', `/api/prescriptions/${rx.id}/`, {
      version: rx.version,
      lines: [line(await presentationOf('N02BE01'), { dose: 2 })],
    });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await call(ctx.app, doctor, 'PATCH', `/api/prescriptions/${rx.id}/`, {
      version: rx.version,
      lines: [line(await presentationOf('N02BE01'))],
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_version', version: rx.version + 1 });
  });

  it('blocks amoxicillin for a patient allergic to penicillin until a reason is written', async () => {
    const amox = (await medicine('J01CA04')).presentations.find((p) => p.form === 'capsule')!.id;
    const rx = await prescribe([line(await presentationOf('P01BF01')), line(amox, { dose_unit: 'gélule' })], {
      allergies: ['Pénicilline'],
    });
    const allergy = rx.warnings.find((w) => w.kind === 'allergy')!;
    expect(allergy).toMatchObject({ line: 1, blocking: true });
    const blocked = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
      version: rx.version,
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().warnings.map((w: { kind: string }) => w.kind)).toEqual(['allergy']);
    const check = await call(ctx.app, doctor, 'POST', '/api/prescriptions/check/', {
      patient: rx.patient.id,
      lines: [line(amox, { dose_unit: 'gélule' })],
    });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().warnings[0]).toMatchObject({ kind: 'allergy', blocking: true });
    expect(check.json().quantities).toEqual([6]);
    const saved = await call(ctx.app, doctor, 'PATCH', `/api/prescriptions/${rx.id}/`, {
      version: rx.version,
      lines: [
        line(await presentationOf('P01BF01')),
        line(amox, { allergy_override_reason: 'Réaction ancienne mineure, bénéfice attendu' }),
      ],
    });
    const ok = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.id}/sign/`, {
      version: saved.json().version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const shown = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(shown.json().lines[1].allergy_override_reason).toBe('Réaction ancienne mineure, bénéfice attendu');
    // Issue 34: the pharmacist sees the alert with the prescriber's reason, and gives a reason of his own to
    // dispense it (the line is not pre-ticked).
    const alert = shown.json().safety.alerts.find((a: { code: string }) => a.code === 'allergy_class');
    expect(alert.override).toMatchObject({
      stage: 'prescribe',
      reason: 'Réaction ancienne mineure, bénéfice attendu',
    });
    expect(shown.json().safety.blocked_lines).toEqual([shown.json().lines[1].id]);
    // The pharmacy's worklist says so before the prescription is opened; others say nothing.
    const list = await call(
      ctx.app,
      pharmacist,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    const flags = Object.fromEntries(
      (list.json().results as { id: string; allergy_override: boolean }[]).map((r) => [
        r.id,
        r.allergy_override,
      ]),
    );
    expect(flags[rx.id]).toBe(true);
    expect(Object.values(flags).filter((f) => f === false).length).toBeGreaterThan(0);
  });

  it('warns of a substance already in an active prescription, and asks the weight of a child', async () => {
    const para = await presentationOf('N02BE01');
    const child = { birth_date: future(-365 * 5) };
    const unweighed = await prescribe([line(para)], child);
    const blocked = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${unweighed.id}/sign/`, {
      version: unweighed.version,
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().warnings[0].kind).toBe('weight_required');
    // 250 mg twice a day for 19 kg: 13 mg/kg per dose, under the 15 mg/kg of the dose limits (issue 34).
    const childDose = line(para, { dose: 250, dose_unit: 'mg' });
    const first = await signed([childDose], child, { weight_kg: 19 });
    const check = await call(ctx.app, doctor, 'POST', '/api/prescriptions/check/', {
      patient: first.patient.id,
      lines: [childDose],
    });
    const kinds = check.json().warnings.map((w: { kind: string; blocking: boolean }) => [w.kind, w.blocking]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['duplicate', false],
        ['weight_required', true],
      ]),
    );
    const weighed = await call(ctx.app, doctor, 'POST', '/api/prescriptions/check/', {
      patient: first.patient.id,
      weight_kg: 18,
      lines: [childDose],
    });
    expect(weighed.json().warnings.map((w: { kind: string }) => w.kind)).not.toContain('weight_required');
    expect(weighed.json().weight_kg).toBe(18);
  });

  it('is cancelled with a reason by its prescriber, not by another doctor', async () => {
    const rx = await signed([line(await presentationOf('N02BE01'))]);
    const refused = await call(ctx.app, otherDoctor, 'POST', `/api/prescriptions/${rx.id}/cancel/`, {
      reason: 'Pas mon patient',
    });
    expect(refused.statusCode).toBe(403);
    const res = await call(ctx.app, headDoctor, 'POST', `/api/prescriptions/${rx.id}/cancel/`, {
      reason: 'Erreur de patient',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Erreur de patient' });
  });
});

describe('stock and dispensing', () => {
  it('dispenses first expiry first, partially then fully, and refuses expired lots', async () => {
    const pres = await presentationOf('P01BF01');
    const lots = await receive(pres, [
      { lot: 'AL-LATE', expiry: future(500), quantity: 100 },
      { lot: 'AL-EARLY', expiry: future(60), quantity: 10 },
    ]);
    const rx = await signed([line(pres, { quantity: 24 })]);
    const lineId = rx.lines[0]!.id;
    const first = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: lineId, quantity: 14 }],
    });
    expect(first.statusCode, first.body).toBe(201);
    const moved = first
      .json()
      .movements.map((m: { lot: { lot_number: string }; quantity: number }) => [
        m.lot.lot_number,
        m.quantity,
      ]);
    expect(moved).toEqual([
      ['AL-EARLY', -10],
      ['AL-LATE', -4],
    ]);
    expect(first.json().prescription.status).toBe('partially_dispensed');
    const tooMuch = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: lineId, quantity: 11 }],
    });
    expect(tooMuch.statusCode).toBe(409);
    const late = lots.lots.find((l) => l.lot_number === 'AL-LATE')!.id;
    const rest = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: lineId, quantity: 10, lots: [{ lot: late, quantity: 10 }] }],
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().prescription.status).toBe('dispensed');
    expect(rest.json().prescription.lines[0].dispensed_quantity).toBe(24);

    // An expired lot (a receipt of the past is refused: it is made old in the database).
    const old = await receive(pres, [{ lot: 'AL-OLD', expiry: future(30), quantity: 5 }]);
    await ctx.database.db.execute(
      sql`update stock_lots set expiry_date = current_date - 3 where id = ${old.lots[0]!.id}`,
    );
    const rx2 = await signed([line(pres, { quantity: 2 })]);
    const expired = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx2.id}/dispense/`, {
      pharmacy,
      lines: [{ line: rx2.lines[0]!.id, quantity: 2, lots: [{ lot: old.lots[0]!.id, quantity: 2 }] }],
    });
    expect(expired.statusCode).toBe(409);
    const alerts = await call(ctx.app, nurse, 'GET', `/api/pharmacy/alerts/?pharmacy=${pharmacy}`);
    // Issue 37: an expired lot is in its own group, never among the lots that will expire.
    const numbers = (list: { lot_number: string; expired: boolean }[]) =>
      list.map((l) => [l.lot_number, l.expired]);
    expect(numbers(alerts.json().expired)).toEqual(expect.arrayContaining([['AL-OLD', true]]));
    expect(numbers(alerts.json().expiring)).not.toEqual(expect.arrayContaining([['AL-OLD', true]]));
    expect(alerts.json().expiring.every((l: { expired: boolean }) => !l.expired)).toBe(true);
  });

  it('substitutes only a presentation of the same INN; only members of the pharmacy dispense', async () => {
    const para = await medicine('N02BE01');
    const tab = para.presentations.find((p) => p.strength === '500 mg')!.id;
    const gram = para.presentations.find((p) => p.strength === '1 g')!.id;
    await receive(gram, [{ lot: 'PARA-1G', expiry: future(300), quantity: 20 }]);
    const rx = await signed([line(tab, { quantity: 6 })]);
    const wrong = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: rx.lines[0]!.id, quantity: 3, presentation: await presentationOf('M01AE01') }],
    });
    expect(wrong.statusCode).toBe(400);
    const notMember = await call(ctx.app, nurse, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: rx.lines[0]!.id, quantity: 3, presentation: gram }],
    });
    expect(notMember.statusCode).toBe(403);
    const ok = await call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
      pharmacy,
      lines: [{ line: rx.lines[0]!.id, quantity: 3, presentation: gram }],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().movements[0].presentation.id).toBe(gram);
  });

  it('gives the last unit to one of two concurrent dispensings (201 and 409), never a negative lot', async () => {
    const pres = await presentationOf('J01DD04', 'injection');
    await receive(pres, [{ lot: `CRO-LAST-${TEST_DB_KIND}`, expiry: future(200), quantity: 1 }]);
    const inj = { dose: 1, dose_unit: 'g', route: 'iv' as const, frequency: { kind: 'once' as const } };
    const [a, b] = [await signed([line(pres, inj)]), await signed([line(pres, inj)])];
    const answers = await Promise.all(
      [a, b].map((rx) =>
        call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${rx.id}/dispense/`, {
          pharmacy,
          lines: [{ line: rx.lines[0]!.id, quantity: 1 }],
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const stock = await call(ctx.app, nurse, 'GET', `/api/pharmacy/stock/?pharmacy=${pharmacy}&alert=out`);
    expect(stock.json().results.map((s: TStockItem) => s.presentation.id)).toContain(pres);
  });

  it('the database refuses a negative lot and any change of the ledger; the ledger sums to on-hand', async () => {
    const pres = await presentationOf('J01CA04', 'capsule');
    const { lots } = await receive(pres, [{ lot: 'AMX-DB', expiry: future(200), quantity: 3 }]);
    const lot = lots[0]!.id;
    await expect(
      ctx.database.db.execute(sql`insert into stock_movements (id, hospital_id, pharmacy_id, lot_id, presentation_id,
        kind, quantity, by_id) values (gen_random_uuid(), ${hospitalId}, ${pharmacy}, ${lot}, ${pres}, 'adjustment', -4,
        ${pharmacist.id})`),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(sql`update stock_movements set quantity = 9 where lot_id = ${lot}`),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(sql`delete from stock_movements where lot_id = ${lot}`),
    ).rejects.toThrow();
    const sums = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from stock_lots l
      where l.on_hand <> (select coalesce(sum(quantity), 0) from stock_movements m where m.lot_id = l.id)`);
    expect(Number(sums.rows[0]!.n)).toBe(0);
  });

  it('corrects, counts, writes off, transfers, sets reorder levels and lists them as alerts', async () => {
    const pres = await presentationOf('A10BA02');
    const { lots } = await receive(pres, [{ lot: 'MET-1', expiry: future(200), quantity: 40 }]);
    const lot = lots[0]!.id;
    const adjust = await call(ctx.app, pharmacist, 'POST', `/api/pharmacy/lots/${lot}/corrections/`, {
      kind: 'adjustment',
      quantity: -5,
      reason: 'Plaquettes abîmées',
    });
    expect(adjust.json().on_hand).toBe(35);
    const count = await call(ctx.app, pharmacist, 'POST', `/api/pharmacy/lots/${lot}/corrections/`, {
      kind: 'inventory',
      counted: 30,
    });
    expect(count.json().on_hand).toBe(30);
    const negative = await call(ctx.app, pharmacist, 'POST', `/api/pharmacy/lots/${lot}/corrections/`, {
      kind: 'adjustment',
      quantity: -31,
      reason: 'Erreur',
    });
    expect(negative.statusCode).toBe(409);
    const moved = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/stock-transfers/', {
      lot,
      to_pharmacy: otherPharmacy,
      quantity: 10,
    });
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json().movements.map((m: { kind: string }) => m.kind)).toEqual([
      'transfer_out',
      'transfer_in',
    ]);
    const level = await ctx.app.inject({
      method: 'PUT',
      url: '/api/pharmacy/reorder-levels/',
      headers: pharmacist.headers,
      payload: { pharmacy, presentation: pres, level: 50 },
    });
    expect(level.json()).toMatchObject({ on_hand: 20, reorder_level: 50, flags: ['low'] });
    const alerts = await call(ctx.app, doctor, 'GET', '/api/pharmacy/alerts/');
    expect(alerts.json().low.map((s: TStockItem) => s.presentation.id)).toContain(pres);
    expect(alerts.json().expiring_days).toBe(90);
    const off = await call(ctx.app, pharmacist, 'POST', `/api/pharmacy/lots/${lot}/corrections/`, {
      kind: 'expiry_writeoff',
    });
    expect(off.json().on_hand).toBe(0);
    const ledger = await call(ctx.app, nurse, 'GET', `/api/pharmacy/movements/?lot=${lot}`);
    expect(ledger.json().results.map((m: { kind: string }) => m.kind)).toEqual([
      'expiry_writeoff',
      'transfer_out',
      'inventory',
      'adjustment',
      'receipt',
    ]);
    const refused = await call(ctx.app, nurse, 'POST', `/api/pharmacy/lots/${lot}/corrections/`, {
      kind: 'inventory',
      counted: 1,
    });
    expect(refused.statusCode).toBe(403);
    const pharmacies = await call(ctx.app, pharmacist, 'GET', '/api/pharmacy/pharmacies/');
    expect(pharmacies.json().results.find((p: { id: string }) => p.id === pharmacy).member).toBe(true);
  });
  it("flags lots expiring within the hospital's own window (hospital setting)", async () => {
    const pres = await presentationOf('J01CA04', 'capsule');
    await receive(pres, [{ lot: 'WIN-60', expiry: future(60), quantity: 5 }]);
    const lotsIn = async () => {
      const alerts = await call(ctx.app, pharmacist, 'GET', '/api/pharmacy/alerts/');
      expect(alerts.statusCode, alerts.body).toBe(200);
      return {
        days: alerts.json().expiring_days as number,
        lots: alerts.json().expiring.map((l: { lot_number: string }) => l.lot_number) as string[],
      };
    };
    expect(await lotsIn()).toMatchObject({ days: 90, lots: expect.arrayContaining(['WIN-60']) });
    const set = await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', {
      pharmacy_expiring_days: 30,
    });
    expect(set.statusCode, set.body).toBe(200);
    const narrower = await lotsIn();
    expect(narrower.days).toBe(30);
    expect(narrower.lots).not.toContain('WIN-60');
    const refused = await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', {
      pharmacy_expiring_days: 3,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().pharmacy_expiring_days).toEqual(['Un nombre entier de jours de 7 à 365.']);
    expect(
      (await call(ctx.app, pharmacist, 'PATCH', '/api/hospital/settings/', { pharmacy_expiring_days: 60 }))
        .statusCode,
    ).toBe(403);
    await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', { pharmacy_expiring_days: 90 });
  });
});
