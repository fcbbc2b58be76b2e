/**
 * The stay as a whole (issue 37): its orders, wherever written, are the stay's; its discharge closes everything
 * at once (the visit, the patient's record, the pharmacy's worklist, the nurses' handoffs).
 */
import type { TPrescriptionLineInput } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, insertTestIcd10, startedConsultation } from '../../../test/consultations.js';
import { examHospital } from '../../../test/exams.js';
import type { Actor } from '../../../test/journey.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof examHospital>>;
let admin: Actor;
let desk: Actor;
let queue: Actor;
let doctor: Actor;
let nurse: Actor;
let nurse2: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureMedicationReference(ctx.database.db);
  await insertTestIcd10(ctx.database.db);
  h = await examHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
  nurse2 = await h.as('NURSE', 'URG');
}, 90_000);
afterAll(() => ctx.close());

async function paracetamol(): Promise<string> {
  const res = await call(ctx.app, doctor, 'GET', '/api/medications/?atc=N02BE01&page_size=5');
  expect(res.statusCode, res.body).toBe(200);
  const med = res.json().results[0] as { presentations: { id: string; form: string; paediatric: boolean }[] };
  return med.presentations.find((p) => p.form === 'tablet' && !p.paediatric)!.id;
}

const line = (presentation: string): TPrescriptionLineInput => ({
  presentation,
  dose: 1,
  dose_unit: 'comprimé',
  route: 'oral',
  frequency: { kind: 'times_per_day', times: 3 },
  duration_days: 5,
});

let wardSerial = 0;
/**
 * A patient seen in consultation (a medicine and an exam ordered there), then admitted from that visit into a bed,
 * with a care plan, a care order and a handoff written by the day nurse.
 */
async function stayFromConsultation() {
  const c = await startedConsultation(
    ctx.app,
    { desk, assigner: queue, doctor },
    h.dep('URG').id,
    'emergency',
  );
  const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
    patient: c.patient,
    consultation: c.id,
    lines: [line(await paracetamol())],
  });
  expect(rx.statusCode, rx.body).toBe(201);
  const sign = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
    version: rx.json().version,
  });
  expect(sign.statusCode, sign.body).toBe(200);
  const exam = await call(ctx.app, doctor, 'POST', '/api/exams/', {
    patient: c.patient,
    consultation: c.id,
    exam: 'CRP',
  });
  expect(exam.statusCode, exam.body).toBe(201);
  const examId = exam.json().orders[0].id as string;
  const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: c.admission,
    department: h.dep('URG').id,
    reason: 'Pneumopathie',
    provisional_icd_code: 'B50.9',
  });
  expect(stay.statusCode, stay.body).toBe(201);
  wardSerial += 1;
  const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep('URG').id,
    name: `UHCD ${wardSerial}`,
    code: `SC-${wardSerial}`,
  });
  expect(ward.statusCode, ward.body).toBe(201);
  const room = await call(ctx.app, admin, 'POST', `/api/wards/${ward.json().id}/rooms/`, {
    name: `${wardSerial}`,
    beds: ['A'],
  });
  const bed = room.json().room_list[0].beds[0].id as string;
  const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.json().id}/bed/`, { bed });
  expect(placed.statusCode, placed.body).toBe(201);
  const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { hospitalization: stay.json().id });
  expect(plan.statusCode, plan.body).toBe(201);
  const care = await call(ctx.app, nurse, 'POST', `/api/care/plans/${plan.json().id}/orders/`, {
    kind: 'dressing',
    title: 'Pansement du cathéter',
    schedule: { kind: 'once' },
  });
  expect(care.statusCode, care.body).toBe(201);
  const handoff = await call(ctx.app, nurse, 'POST', '/api/care/handoffs/', {
    plan: plan.json().id,
    situation: 'Patient stable.',
  });
  expect(handoff.statusCode, handoff.body).toBe(201);
  return {
    ...c,
    stay: stay.json().id as string,
    rx: rx.json().id as string,
    exam: examId,
    plan: plan.json().id as string,
    handoff: handoff.json().id as string,
  };
}

const discharge = (stay: string, body: Record<string, unknown>) =>
  call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay}/discharge/`, {
    mode: 'home',
    summary: 'Évolution favorable.',
    ...body,
  });

describe('the orders of a stay', () => {
  it('lists the consultation’s medicine and exam and the stay’s care order, as the MAR does', async () => {
    const s = await stayFromConsultation();
    const detail = await call(ctx.app, doctor, 'GET', `/api/hospitalizations/${s.stay}/`);
    expect(detail.statusCode, detail.body).toBe(200);
    const orders = detail.json().orders as { kind: string; ref: string; label: string }[];
    expect(orders.map((o) => o.kind).sort()).toEqual(['care', 'exam', 'medication']);
    expect(orders.find((o) => o.kind === 'medication')).toMatchObject({ ref: s.rx });
    expect(orders.find((o) => o.kind === 'care')).toMatchObject({ label: 'Pansement du cathéter' });

    // The stay page's prescriptions: the consultation's prescription is the stay's.
    const listed = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/prescriptions/?hospitalization=${s.stay}&status=all`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().results.map((r: { id: string }) => r.id)).toEqual([s.rx]);

    // The MAR of the stay's plan finds the same prescription.
    const from = new Date(Date.now() - 4 * 3_600_000).toISOString();
    const to = new Date(Date.now() + 20 * 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${s.plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    expect(mar.json().lines.map((l: { prescription: string }) => l.prescription)).toEqual([s.rx]);
  });
});

describe('the discharge', () => {
  it('requires a discharge diagnosis', async () => {
    const s = await stayFromConsultation();
    const res = await discharge(s.stay, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().diagnoses).toEqual(['Indiquez au moins un diagnostic de sortie.']);
  });

  it('closes the visit, the record’s badge, the pharmacy’s worklist and the handoffs at once', async () => {
    const s = await stayFromConsultation();
    const before = await call(ctx.app, desk, 'GET', `/api/admissions/${s.admission}/`);
    expect(before.json()).toMatchObject({ status: 'hospitalized', discharged_at: null });
    const toTake = async () =>
      (await call(ctx.app, nurse2, 'GET', '/api/care/handoffs/?box=to_acknowledge&page_size=100'))
        .json()
        .results.map((r: { handoff: { id: string } }) => r.handoff.id);
    expect(await toTake()).toContain(s.handoff);

    const out = await discharge(s.stay, { diagnoses: ['B50.9'] });
    expect(out.statusCode, out.body).toBe(200);
    const endedAt = out.json().ended_at as string;

    // The visit: no longer hospitalized, its doctor kept, the date the patient left.
    const visit = await call(ctx.app, desk, 'GET', `/api/admissions/${s.admission}/`);
    expect(visit.json()).toMatchObject({
      status: 'completed',
      discharged_at: endedAt,
      doctor: { id: doctor.id },
    });
    expect(visit.json().closed_at).not.toBeNull();

    // The patient's record.
    const record = await call(ctx.app, desk, 'GET', `/api/patients/${s.patient}/`);
    const item = record.json().admissions.find((a: { id: string }) => a.id === s.admission);
    expect(item).toMatchObject({ status: 'completed', discharged_at: endedAt });

    // The pharmacy's worklist: the patient left, and when.
    const worklist = await call(
      ctx.app,
      admin,
      'GET',
      '/api/prescriptions/?status=to_dispense&page_size=100',
    );
    expect(worklist.statusCode, worklist.body).toBe(200);
    const rx = worklist.json().results.find((r: { id: string }) => r.id === s.rx);
    expect(rx).toMatchObject({ patient_left: true, patient_left_at: endedAt });

    // The incoming nurse has nothing to take over for a patient who left.
    expect(await toTake()).not.toContain(s.handoff);

    // One transaction: the visit and the stay were closed together.
    const rows = await ctx.database.db.execute<{ a: string; s: string }>(
      sql`select a.status::text as a, s.status::text as s from admissions a join hospitalizations s
        on s.admission_id = a.id where s.id = ${s.stay}`,
    );
    expect(rows.rows[0]).toEqual({ a: 'completed', s: 'discharged' });
  });
});

/** The text of every page of a PDF (pdf.js, as the documents' tests read it). */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

describe('the discharge summary', () => {
  it('is a clinical document: diagnoses, allergies, treatment given, medicines for home, results, follow-up', async () => {
    const s = await stayFromConsultation();
    await ctx.database.db.execute(
      sql`update patients set allergies = array['Pénicilline'] where id = ${s.patient}`,
    );
    // A dose given on the MAR (the prescription signed three hours ago, so a dose is due).
    await ctx.database.db.execute(
      sql`update prescriptions set signed_at = now() - interval '12 hours' where id = ${s.rx}`,
    );
    const from = new Date(Date.now() - 12 * 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${s.plan}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    const line = mar.json().lines[0] as { id: string; doses: { scheduled_at: string; status: string }[] };
    expect(line.doses.length, JSON.stringify(line)).toBeGreaterThan(0);
    const due = line.doses.find((d) => d.status === 'overdue' || d.status === 'due') ?? line.doses[0]!;
    const given = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      outcome: 'given',
      prescription_line: line.id,
      scheduled_at: due.scheduled_at,
      idempotency_key: crypto.randomUUID(),
      dose: 1,
      dose_unit: 'comprimé',
      route: 'oral',
    });
    expect(given.statusCode, given.body).toBe(201);
    // The CRP validated, abnormal (the laboratory's steps are tested elsewhere).
    await ctx.database.db.execute(sql`update exam_orders set status = 'validated', validated_at = now(),
      validated_by = ${doctor.id}, abnormal = true, report = 'CRP à 96 mg/L' where id = ${s.exam}`);
    const out = await discharge(s.stay, {
      diagnoses: ['J18.9'],
      treatments: 'Amoxicilline-acide clavulanique 1 g matin et soir, 5 jours',
      follow_up_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    });
    expect(out.statusCode, out.body).toBe(200);
    const doc = await call(ctx.app, doctor, 'POST', '/api/documents/', {
      kind: 'discharge_summary',
      source: { type: 'hospitalization', id: s.stay },
    });
    expect(doc.statusCode, doc.body).toBe(201);
    const pdf = await call(ctx.app, doctor, 'GET', `/api/documents/${doc.json().id}/pdf/`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Diagnostics de sortie');
    expect(text).toContain('(J18.9)');
    expect(text).toContain('Allergies : Pénicilline');
    expect(text).toContain('Traitement reçu pendant le séjour');
    expect(text).toMatch(/paracétamol 500 mg : 1 dose\(s\)/i);
    expect(text).toContain('Traitement à poursuivre à domicile');
    expect(text).toContain('Amoxicilline-acide clavulanique 1 g matin et soir, 5 jours');
    expect(text).toMatch(/CRP.*anormal : CRP à 96 mg\/L/);
    expect(text).toMatch(/Contrôle prévu le \d{2}\/\d{2}\/\d{4}/);
  });
});
