/**
 * Issue 34, point 5: the pharmacist sees the alert and the prescriber's reason, and may refuse to dispense a
 * line (or what is left of a prescription) with a written reason. The refusal is stored, audited, told to the
 * prescriber; a refused line is no longer to dispense and is never dispensed afterwards, even by a concurrent
 * request.
 */
import type { TMedication, TPrescription, TPrescriptionLineInput } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, startedConsultation } from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { departments } from '../../db/schema/index.js';
import { ensureMedicationReference } from './medication-reference.js';

let ctx: TestContext;
let doctor: Actor;
let nurse: Actor;
let queue: Actor;
let secretary: Actor;
let pharmacist: Actor;
let pharmacy: string;
let urg: string;
let otherRx: TPrescription;

const found = new Map<string, TMedication>();
async function presentationOf(atc: string, form = 'tablet') {
  if (!found.has(atc)) {
    const res = await call(ctx.app, doctor, 'GET', `/api/medications/?atc=${atc}&page_size=5`);
    expect(res.statusCode, res.body).toBe(200);
    found.set(atc, res.json().results[0]);
  }
  return found.get(atc)!.presentations.find((p) => p.form === form && !p.paediatric)!.id;
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

async function signedBy(
  actors: { desk: Actor; assigner: Actor; doctor: Actor },
  department: string,
  lines: TPrescriptionLineInput[],
  patientOver: Record<string, unknown> = {},
): Promise<TPrescription> {
  const c = await startedConsultation(ctx.app, actors, department, 'emergency', patientOver);
  const made = await call(ctx.app, actors.doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines,
  });
  expect(made.statusCode, made.body).toBe(201);
  const res = await call(ctx.app, actors.doctor, 'POST', `/api/prescriptions/${made.json().id}/sign/`, {
    version: made.json().version,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const signed = (lines: TPrescriptionLineInput[], patientOver: Record<string, unknown> = {}) =>
  signedBy({ desk: secretary, assigner: queue, doctor }, urg, lines, patientOver);

const refuse = (who: Actor, id: string, body: Record<string, unknown>) =>
  call(ctx.app, who, 'POST', `/api/prescriptions/${id}/refuse/`, body);
const dispense = (id: string, lineId: string, quantity: number) =>
  call(ctx.app, pharmacist, 'POST', `/api/prescriptions/${id}/dispense/`, {
    pharmacy,
    lines: [{ line: lineId, quantity }],
  });

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  const h = await journeyHospital(ctx, { code: `RF${Math.floor(Math.random() * 1e6)}` });
  urg = h.dep('URG').id;
  doctor = await h.as('DOCTOR');
  nurse = await h.as('NURSE');
  queue = await h.as('QUEUE_MANAGER');
  secretary = await h.as('SECRETARY');
  const [made] = await ctx.database.db
    .insert(departments)
    .values({ hospitalId: h.hospital.id, code: 'PHA', name: 'Pharmacie centrale', kind: 'pharmacy' })
    .returning({ id: departments.id });
  pharmacy = made!.id;
  const user = await makeUser(ctx.database.db, {
    role: 'NURSE',
    hospitals: [{ id: h.hospital.id, departmentId: pharmacy }],
  });
  pharmacist = {
    id: user.id,
    headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), h.hospital.id),
  };
  const receipt = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/receipts/', {
    pharmacy,
    supplier: 'CAMEMO',
    delivery_note: `BL-${TEST_DB_KIND}-${Math.random().toString(36).slice(2, 8)}`,
    lines: [
      {
        presentation: await presentationOf('N02BE01'),
        lot_number: 'PARA-RF',
        expiry_date: new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10),
        quantity: 500,
        unit_cost: 50,
      },
    ],
  });
  expect(receipt.statusCode, receipt.body).toBe(201);
  // Another hospital's signed prescription: never refused from here (404).
  const h2 = await journeyHospital(ctx, { code: `RG${Math.floor(Math.random() * 1e6)}` });
  otherRx = await signedBy(
    { desk: await h2.as('SECRETARY'), assigner: await h2.as('QUEUE_MANAGER'), doctor: await h2.as('DOCTOR') },
    h2.dep('URG').id,
    [line(await presentationOf('N02BE01'))],
  );
}, 120_000);
afterAll(() => ctx.close());

describe("the pharmacist's refusal", () => {
  it('refuses the line under an allergy with a reason: stored, shown, audited, told; the line is not dispensed', async () => {
    const amox = found.get('J01CA04') ?? null;
    const amoxPres =
      amox?.presentations.find((p) => p.form === 'capsule')?.id ??
      (await presentationOf('J01CA04', 'capsule'));
    const c = await startedConsultation(
      ctx.app,
      { desk: secretary, assigner: queue, doctor },
      urg,
      'emergency',
      { allergies: ['Pénicilline'] },
    );
    const made = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      lines: [
        line(await presentationOf('N02BE01')),
        line(amoxPres, { dose_unit: 'gélule', allergy_override_reason: 'Réaction ancienne mineure' }),
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    const sign = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${made.json().id}/sign/`, {
      version: made.json().version,
    });
    expect(sign.statusCode, sign.body).toBe(200);
    const rx = sign.json() as TPrescription;
    const [para, amoxLine] = rx.lines;

    const res = await refuse(pharmacist, rx.id, {
      lines: [amoxLine!.id],
      reason: 'Allergie à la pénicilline documentée, antécédent de choc',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as TPrescription;
    expect(after.lines[1]!.refusal).toMatchObject({
      by: { id: pharmacist.id },
      reason: 'Allergie à la pénicilline documentée, antécédent de choc',
    });
    expect(after.lines[0]!.refusal).toBeNull();
    expect(after.status).toBe('signed');

    // A refused line is never dispensed afterwards; the other line still is, and ends the prescription.
    const again = await dispense(rx.id, amoxLine!.id, 1);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Cette ligne a été refusée par la pharmacie : elle ne se délivre plus.');
    const twice = await refuse(pharmacist, rx.id, { lines: [amoxLine!.id], reason: 'Encore une fois' });
    expect(twice.statusCode).toBe(409);
    const listed = await call(
      ctx.app,
      pharmacist,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    const row = listed.json().results.find((r: { id: string }) => r.id === rx.id);
    expect(row.refused_lines).toBe(1);
    const ok = await dispense(rx.id, para!.id, para!.quantity);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().prescription.status).toBe('dispensed');

    const audit = await ctx.database.db.execute<{ details: { lines: number[] }; user_id: string }>(
      sql`select details, user_id from audit_events where action = 'prescription.refuse' and resource_id = ${rx.id}`,
    );
    expect(audit.rows).toEqual([expect.objectContaining({ user_id: pharmacist.id })]);
    expect(audit.rows[0]!.details.lines).toEqual([2]);
    const told = await ctx.database.db.execute<{ recipient_id: string; title: string; message: string }>(
      sql`select recipient_id, title, message from notifications
        where data->>'prescription_id' = ${rx.id} and data->>'action' = 'prescription_refused'`,
    );
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0]!.recipient_id).toBe(doctor.id);
    expect(told.rows[0]!.title).toBe('Délivrance refusée par la pharmacie');
    expect(told.rows[0]!.message).toContain('antécédent de choc');
  });

  it('refuses what is left of a whole prescription: it leaves the worklist', async () => {
    const pres = await presentationOf('N02BE01');
    const rx = await signed([line(pres), line(pres, { dose: 2, duration_days: 1 })]);
    const part = await dispense(rx.id, rx.lines[0]!.id, 2);
    expect(part.statusCode, part.body).toBe(201);
    const res = await refuse(pharmacist, rx.id, { lines: null, reason: 'Patient sorti, traitement arrêté' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().lines.map((l: TPrescription['lines'][number]) => l.refusal?.reason)).toEqual([
      'Patient sorti, traitement arrêté',
      'Patient sorti, traitement arrêté',
    ]);
    expect(res.json().lines[0].dispensed_quantity).toBe(2);
    const listed = await call(
      ctx.app,
      pharmacist,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    expect(listed.json().results.map((r: { id: string }) => r.id)).not.toContain(rx.id);
    const nothing = await refuse(pharmacist, rx.id, { lines: null, reason: 'Encore une fois' });
    expect(nothing.statusCode).toBe(409);
    // At the bedside, a refused line is not given.
    const given = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      outcome: 'given',
      prescription_line: rx.lines[1]!.id,
      scheduled_at: new Date().toISOString(),
      idempotency_key: crypto.randomUUID(),
      given_at: new Date().toISOString(),
      dose: 1,
      dose_unit: 'comprimé',
      route: 'oral',
    });
    expect(given.statusCode, given.body).toBe(409);
    expect(given.json().detail).toContain('refusé');
    // The database holds it too: no unit is ever added to a refused line.
    await expect(
      ctx.database.db.execute(
        sql`update prescription_lines set dispensed_quantity = dispensed_quantity + 1 where id = ${rx.lines[1]!.id}`,
      ),
    ).rejects.toThrow();
  });

  it('refuses a fully dispensed line, a draft, a short reason and a line of another prescription', async () => {
    const pres = await presentationOf('N02BE01');
    const rx = await signed([line(pres), line(pres, { duration_days: 1 })]);
    expect((await dispense(rx.id, rx.lines[0]!.id, rx.lines[0]!.quantity)).statusCode).toBe(201);
    const done = await refuse(pharmacist, rx.id, {
      lines: [rx.lines[0]!.id],
      reason: 'Trop tard maintenant',
    });
    expect(done.statusCode).toBe(409);
    const short = await refuse(pharmacist, rx.id, { lines: [rx.lines[1]!.id], reason: 'non' });
    expect(short.statusCode).toBe(400);
    const other = await signed([line(pres)]);
    const foreign = await refuse(pharmacist, rx.id, {
      lines: [other.lines[0]!.id],
      reason: 'Ligne étrangère',
    });
    expect(foreign.statusCode).toBe(400);
    const c = await startedConsultation(ctx.app, { desk: secretary, assigner: queue, doctor }, urg);
    const draft = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      lines: [line(pres)],
    });
    const notSigned = await refuse(pharmacist, draft.json().id, { lines: null, reason: 'Pas encore signée' });
    expect(notSigned.statusCode).toBe(409);
  });

  it('is refused to a ward nurse, a doctor and a secretary (403), and for another hospital (404)', async () => {
    const rx = await signed([line(await presentationOf('N02BE01'))]);
    const body = { lines: null, reason: 'Je ne suis pas pharmacien' };
    expect((await refuse(nurse, rx.id, body)).statusCode).toBe(403);
    expect((await refuse(doctor, rx.id, body)).statusCode).toBe(403);
    expect((await refuse(secretary, rx.id, body)).statusCode).toBe(403);
    expect((await refuse(pharmacist, otherRx.id, body)).statusCode).toBe(404);
    const untouched = await call(ctx.app, pharmacist, 'GET', `/api/prescriptions/${rx.id}/`);
    expect(untouched.json().lines[0].refusal).toBeNull();
  });

  it('lets exactly one of a refusal and a dispensing of the same line win, run together', async () => {
    const pres = await presentationOf('N02BE01');
    for (let i = 0; i < 4; i++) {
      const rx = await signed([line(pres)]);
      const l = rx.lines[0]!;
      const [refused, dispensed] = await Promise.all([
        refuse(pharmacist, rx.id, { lines: [l.id], reason: 'Refus concurrent' }),
        dispense(rx.id, l.id, l.quantity),
      ]);
      const codes = [refused.statusCode, dispensed.statusCode];
      expect([
        [200, 409],
        [409, 201],
      ]).toContainEqual(codes);
      const state = await ctx.database.db.execute<{ refused: boolean; dispensed_quantity: number }>(
        sql`select refused_at is not null as refused, dispensed_quantity from prescription_lines where id = ${l.id}`,
      );
      const row = state.rows[0]!;
      if (codes[0] === 200) expect([row.refused, Number(row.dispensed_quantity)]).toEqual([true, 0]);
      else expect([row.refused, Number(row.dispensed_quantity)]).toEqual([false, l.quantity]);
    }
  });
});
