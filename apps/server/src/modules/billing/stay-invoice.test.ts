/**
 * A stay's invoice (issue 37): the cashier's invoice for a patient walked through a stay held only the
 * consultation (5,000 F CFA): the visit was billed on its own, drafted before the stay, never refreshed, and the
 * stay's medicines (prescribed in the consultation) were the visit's. Now the visit is billed with its stay, the
 * draft says when it is out of date, and a partly paid invoice says so.
 */
import type { TInvoiceDetail, TReceipt } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bedDayAct, billingDepartment, memberOf, openCashSession } from '../../../test/billing.js';
import {
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { departments } from '../../db/schema/index.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';

let ctx: TestContext;
let urg: string;
let pharmacy: string;
let cashier: Actor;
let headDoctor: Actor;
let doctor: Actor;
let queue: Actor;
let nurse: Actor;
let desk: Actor;
let admin: Actor;
let pharmacist: Actor;
let tablet: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  await ensureMedicationReference(ctx.database.db);
  const h = await journeyHospital(ctx, { code: `SI${Math.floor(Math.random() * 1e5)}` });
  const hospitalId = h.hospital.id;
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${hospitalId}`);
  urg = h.dep('URG').id;
  const cai = await billingDepartment(ctx, hospitalId);
  const [pha] = await ctx.database.db
    .insert(departments)
    .values({ hospitalId, code: 'PHA', name: 'Pharmacie', kind: 'pharmacy' })
    .returning({ id: departments.id });
  pharmacy = pha!.id;
  cashier = await memberOf(ctx, hospitalId, 'SECRETARY', [cai]);
  headDoctor = await memberOf(ctx, hospitalId, 'HEAD_DOCTOR', [urg]);
  pharmacist = await memberOf(ctx, hospitalId, 'NURSE', [pharmacy]);
  doctor = await h.as('DOCTOR', 'URG');
  queue = await h.as('QUEUE_MANAGER');
  nurse = await h.as('NURSE', 'URG');
  desk = await h.as('SECRETARY');
  admin = await h.as('ADMIN');
  const meds = await call(ctx.app, doctor, 'GET', '/api/medications/?atc=N02BE01&page_size=5');
  tablet = (
    meds.json().results[0] as { presentations: { id: string; form: string; paediatric: boolean }[] }
  ).presentations.find((p) => p.form === 'tablet' && !p.paediatric)!.id;
  await bedDayAct(ctx, headDoctor);
  for (const act of [
    {
      code: 'CONS-GEN',
      label_fr: 'Consultation de médecine générale',
      label_en: 'General practice consultation',
      category: 'consultation',
      auto_source: 'consultation',
      tariffs: [{ payer_category: 'private', price: 5000, valid_from: '2020-01-01' }],
    },
    {
      code: 'MED-PARA',
      label_fr: 'Paracétamol 500 mg (comprimé)',
      label_en: 'Paracetamol 500 mg (tablet)',
      category: 'medicine',
      presentation: tablet,
      tariffs: [{ payer_category: 'private', price: 50, valid_from: '2020-01-01' }],
    },
  ]) {
    const res = await call(ctx.app, headDoctor, 'POST', '/api/medical-acts/', act);
    expect(res.statusCode, res.body).toBe(201);
  }
  const receipt = await call(ctx.app, pharmacist, 'POST', '/api/pharmacy/receipts/', {
    pharmacy,
    supplier: 'CAMEMO',
    delivery_note: 'BL-STAY-1',
    lines: [
      { presentation: tablet, lot_number: 'L-STAY', expiry_date: '2031-01-31', quantity: 500, unit_cost: 20 },
    ],
  });
  expect(receipt.statusCode, receipt.body).toBe(201);
}, 120_000);
afterAll(() => ctx.close());

async function read(id: string): Promise<TInvoiceDetail> {
  const res = await call(ctx.app, cashier, 'GET', `/api/invoices/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const codes = (inv: TInvoiceDetail) =>
  inv.lines
    .filter((l) => !l.is_removed)
    .map((l) => l.act.code)
    .sort();

describe(`the invoice of a stay (${TEST_DB_KIND})`, () => {
  it('carries the consultation, the bed-days and the medicines whatever the order of events', async () => {
    // The patient is seen; paracetamol is prescribed in the consultation.
    const c = await startedConsultation(ctx.app, { desk, assigner: queue, doctor }, urg, 'emergency');
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      lines: [
        {
          presentation: tablet,
          dose: 1,
          dose_unit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 3 },
          duration_days: 3,
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
      version: rx.json().version,
    });
    expect(signed.statusCode, signed.body).toBe(200);

    // The cashier drafts the visit's invoice early: nothing to bill yet.
    const early = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { admission: c.admission });
    expect(early.statusCode, early.body).toBe(201);
    const draftId = early.json().id as string;

    // The consultation ends in a stay; the patient is placed, in hospital for two days.
    await completedConsultation(ctx.app, doctor, c.id, 'hospitalize', { outcome_notes: 'Paludisme grave' });
    const stay = await ctx.database.db.execute<{ id: string }>(
      sql`select id from hospitalizations where admission_id = ${c.admission}`,
    );
    const stayId = stay.rows[0]!.id;
    await ctx.database.db.execute(sql`update hospitalizations set admitted_at = now() - interval '2 days',
      requested_at = now() - interval '2 days' where id = ${stayId}`);

    // The draft says it is out of date (the visit is now billed with its stay).
    expect((await read(draftId)).out_of_date).toBe(true);
    const refreshed = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', {
      admission: c.admission,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().id).toBe(draftId);
    let inv = await read(draftId);
    expect(inv).toMatchObject({ hospitalization: stayId, admission: null, out_of_date: false });
    expect(codes(inv)).toContain('CONS-GEN');
    expect(codes(inv).filter((x) => x === 'LIT-JOUR').length).toBeGreaterThanOrEqual(2);

    // The pharmacy dispenses after the draft: the draft is out of date again, and the refresh adds the medicine.
    const lineId = signed.json().lines[0].id as string;
    const dispensed = await call(
      ctx.app,
      pharmacist,
      'POST',
      `/api/prescriptions/${rx.json().id}/dispense/`,
      {
        pharmacy,
        lines: [{ line: lineId, quantity: 9 }],
      },
    );
    expect(dispensed.statusCode, dispensed.body).toBe(201);
    expect((await read(draftId)).out_of_date).toBe(true);
    const again = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', {
      hospitalization: stayId,
    });
    expect(again.statusCode, again.body).toBe(200);
    inv = await read(draftId);
    expect(inv.out_of_date).toBe(false);
    expect(codes(inv)).toContain('MED-PARA');
    const medicine = inv.lines.find((l) => l.act.code === 'MED-PARA')!;
    expect(medicine).toMatchObject({ quantity: 9, total: 450 });
    const days = inv.lines.filter((l) => l.act.code === 'LIT-JOUR').length;
    expect(inv.total).toBe(5000 + days * 15_000 + 450);

    // Issued and partly paid: "Partiellement payée"; paid in full: settled.
    const issued = await call(ctx.app, cashier, 'POST', `/api/invoices/${draftId}/issue/`);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().standing).toBe('issued');
    await openCashSession(ctx, cashier, [{ currency: 'XOF', amount: 20_000 }]);
    const part = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: draftId,
      method: 'cash',
      amount: 5000,
    });
    expect(part.statusCode, part.body).toBe(201);
    expect((await read(draftId)).standing).toBe('partially_paid');
    const rest = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: draftId,
      method: 'cash',
      amount: inv.total - 5000,
    });
    expect(rest.statusCode, rest.body).toBe(201);
    expect((rest.json() as TReceipt).invoice.balance).toBe(0);
    expect((await read(draftId)).standing).toBe('settled');
    // One invoice for the whole journey.
    const count = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from invoices where patient_id = ${c.patient} and kind = 'invoice'`,
    );
    expect(Number(count.rows[0]!.n)).toBe(1);
    void admin;
    void nurse;
  });

  it('gives one invoice to a visit and its stay when two cashiers refresh them at once', async () => {
    const c = await startedConsultation(ctx.app, { desk, assigner: queue, doctor }, urg, 'emergency');
    const early = await call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { admission: c.admission });
    expect(early.statusCode, early.body).toBe(201);
    await completedConsultation(ctx.app, doctor, c.id, 'hospitalize', { outcome_notes: 'Pneumopathie' });
    const stay = await ctx.database.db.execute<{ id: string }>(
      sql`select id from hospitalizations where admission_id = ${c.admission}`,
    );
    const stayId = stay.rows[0]!.id;
    const [a, b] = await Promise.all([
      call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { admission: c.admission }),
      call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { hospitalization: stayId }),
    ]);
    for (const r of [a, b]) expect([200, 201, 409], r.body).toContain(r.statusCode);
    expect([a, b].some((r) => r.statusCode < 300)).toBe(true);
    const live = await ctx.database.db.execute<{ id: string; hospitalization_id: string | null }>(
      sql`select id, hospitalization_id from invoices where patient_id = ${c.patient} and kind = 'invoice'
        and status <> 'cancelled'`,
    );
    // The visit's draft became the stay's, or (the stay's drawn up first) stayed apart: never two for the stay.
    const ofStay = live.rows.filter((r) => r.hospitalization_id === stayId);
    expect(ofStay.length).toBe(1);
    const consultationLines = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from invoice_lines il join invoices i on i.id = il.invoice_id
        where i.patient_id = ${c.patient} and il.code = 'CONS-GEN' and il.removed_at is null`,
    );
    expect(Number(consultationLines.rows[0]!.n)).toBe(1);
  });
});
