import {
  type TInvoiceAssembly,
  type TInvoiceDetail,
  type TReceipt,
  ZInvoice,
  ZInvoiceAssembly,
} from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { bedDayAct } from '../../../test/billing.js';
import {
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { TEST_DB_KIND } from '../../../test/database.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, admit, createPatient, journeyHospital } from '../../../test/journey.js';
import { departments } from '../../db/schema/index.js';
import { ensureExamCatalogue } from '../exams/exam-catalogue.js';

let ctx: TestContext;
let hospitalId: string;
let hospitalCode: string;
let urg: string;
let cashier: Actor;
let cashier2: Actor;
let headDoctor: Actor;
let doctor: Actor;
let queue: Actor;
let nurse: Actor;
let desk: Actor;
let admin: Actor;
let consultationAct: string;
let labAct: string;
let manualAct: string;
let payer: string;

const year = new Date().getUTCFullYear();

async function member(role: string, departmentIds: string[]): Promise<Actor> {
  const user = await makeUser(ctx.database.db, {
    role,
    hospitals: departmentIds.map((d) => ({ id: hospitalId, departmentId: d })),
  });
  return { id: user.id, headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), hospitalId) };
}

async function createAct(body: Record<string, unknown>) {
  const res = await call(ctx.app, headDoctor, 'POST', '/api/medical-acts/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** A visit with a completed consultation and (optionally) a validated exam ordered in it (the malaria test). */
async function billedVisit(opts: { exam?: boolean | string; birthDate?: string } = {}) {
  const c = await startedConsultation(
    ctx.app,
    { desk, assigner: queue, doctor },
    urg,
    'emergency',
    opts.birthDate ? { birth_date: opts.birthDate } : {},
  );
  if (opts.exam) {
    const ordered = await call(ctx.app, doctor, 'POST', '/api/exams/', {
      patient: c.patient,
      consultation: c.id,
      exam: typeof opts.exam === 'string' ? opts.exam : 'TDR-PALU',
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const order = ordered.json().orders[0].id as string;
    // The laboratory's work is not what is tested here: the order is validated directly.
    await ctx.database.db.execute(
      sql`update exam_orders set status = 'validated', validated_at = now(), validated_by = ${headDoctor.id}
        where id = ${order}`,
    );
  }
  await completedConsultation(ctx.app, doctor, c.id);
  return c;
}

/**
 * `POST /api/invoices/assemble/`. Its answer is the draft's summary (decision 0049), without the lines: checked
 * against the invoice then read with `GET /api/invoices/{id}/` (same header, `line_count` its live lines, the same
 * tariff-less acts), and answered with that invoice, the summary as `assembly`.
 */
async function assemble(
  body: Record<string, unknown>,
  by = cashier,
  status = 201,
): Promise<TInvoiceDetail & { assembly: TInvoiceAssembly }> {
  const res = await call(ctx.app, by, 'POST', '/api/invoices/assemble/', body);
  expect(res.statusCode, res.body).toBe(status);
  const assembly = ZInvoiceAssembly.strict().parse(res.json());
  const read = await call(ctx.app, by, 'GET', `/api/invoices/${assembly.id}/`);
  expect(read.statusCode, read.body).toBe(200);
  const detail = read.json() as TInvoiceDetail;
  // `ZInvoice` keeps the header's fields only.
  expect(ZInvoice.parse(assembly)).toEqual(ZInvoice.parse(detail));
  expect(assembly.line_count).toBe(detail.lines.filter((l) => !l.is_removed).length);
  expect(assembly.added_lines).toBeLessThanOrEqual(assembly.line_count);
  expect(assembly.unpriced.filter((u) => u.reason === 'no_tariff')).toEqual(detail.unpriced);
  return { ...detail, assembly };
}

async function issue(id: string): Promise<TInvoiceDetail> {
  const res = await call(ctx.app, cashier, 'POST', `/api/invoices/${id}/issue/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function openSession(actor: Actor) {
  const current = await call(ctx.app, actor, 'GET', '/api/cash-sessions/current/');
  if (current.statusCode === 200) return current.json().id as string;
  const res = await call(ctx.app, actor, 'POST', '/api/cash-sessions/', {
    floats: [{ currency: 'XOF', amount: 20_000 }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** An issued invoice of a new visit with a manual act (no consultation needed). */
async function issuedManualInvoice(price = 10_000): Promise<TInvoiceDetail> {
  const patient = await createPatient(ctx.app, desk);
  const admission = await admit(ctx.app, desk, patient.id, urg);
  const act = await call(ctx.app, cashier, 'POST', '/api/medical-acts/performed/', {
    act: manualAct,
    admission: admission.id,
    quantity: price / 10_000,
  });
  expect(act.statusCode, act.body).toBe(201);
  const draft = await assemble({ admission: admission.id });
  return issue(draft.id);
}

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  await ensureExamCatalogue(ctx.database.db);
  const h = await journeyHospital(ctx, { code: `BI${Math.floor(Math.random() * 1e5)}` });
  await ctx.database.db.execute(sql`update hospitals set currency = 'XOF' where id = ${h.hospital.id}`);
  hospitalId = h.hospital.id;
  hospitalCode = h.hospital.code;
  urg = h.dep('URG').id;
  const [cai] = await ctx.database.db
    .insert(departments)
    .values({ hospitalId, code: 'CAI', name: 'Caisse', kind: 'billing' })
    .returning({ id: departments.id });
  await ctx.database.db
    .insert(departments)
    .values({ hospitalId, code: 'LAB', name: 'Laboratoire', kind: 'laboratory' });
  cashier = await member('SECRETARY', [cai!.id]);
  cashier2 = await member('SECRETARY', [cai!.id]);
  headDoctor = await member('HEAD_DOCTOR', [urg]);
  doctor = await h.as('DOCTOR');
  queue = await h.as('QUEUE_MANAGER');
  nurse = await h.as('NURSE');
  desk = await h.as('SECRETARY');
  admin = await h.as('ADMIN');
  const exam = await ctx.database.db.execute<{ id: string }>(
    sql`select id from exam_catalogue where code = 'TDR-PALU'`,
  );
  consultationAct = await createAct({
    code: 'CONS-GEN',
    label_fr: 'Consultation de médecine générale',
    label_en: 'General practice consultation',
    category: 'consultation',
    auto_source: 'consultation',
    tariffs: [
      { payer_category: 'private', price: 5000 },
      { payer_category: 'insured', price: 4000 },
    ],
  });
  labAct = await createAct({
    code: 'LAB-TDR',
    label_fr: 'TDR paludisme',
    label_en: 'Malaria RDT',
    category: 'laboratory',
    exam: exam.rows[0]!.id,
    tariffs: [
      { payer_category: 'private', price: 2500 },
      { payer_category: 'insured', price: 2500 },
    ],
  });
  manualAct = await createAct({
    code: 'SOIN-10K',
    label_fr: 'Soin infirmier',
    label_en: 'Nursing care',
    category: 'nursing',
    tariffs: [
      { payer_category: 'private', price: 10_000 },
      { payer_category: 'insured', price: 10_000 },
    ],
  });
  const p = await call(ctx.app, admin, 'POST', '/api/payers/', {
    code: 'ASCOMA',
    name: 'Ascoma Assurances',
    kind: 'insurer',
    rules: [
      { category: 'consultation', rate_percent: 80, ceiling: null },
      { category: 'laboratory', rate_percent: 80, ceiling: 1500 },
    ],
  });
  expect(p.statusCode, p.body).toBe(201);
  payer = p.json().id;
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`medical acts catalogue (${TEST_DB_KIND})`, () => {
  it('keeps codes unique per hospital and tariffs without overlap, closing the open one on a new price', async () => {
    const dup = await call(ctx.app, headDoctor, 'POST', '/api/medical-acts/', {
      code: 'cons-gen',
      label_fr: 'x',
      label_en: 'x',
      category: 'other',
    });
    expect(dup.statusCode).toBe(409);
    const act = await createAct({
      code: 'PANS',
      label_fr: 'Pansement',
      label_en: 'Dressing',
      category: 'nursing',
      tariffs: [{ payer_category: 'private', price: 1000, valid_from: '2026-01-01' }],
    });
    const later = await call(ctx.app, admin, 'POST', `/api/medical-acts/${act}/tariffs/`, {
      payer_category: 'private',
      price: 1200,
      valid_from: '2030-01-01',
    });
    expect(later.statusCode, later.body).toBe(201);
    const tariffs = later
      .json()
      .tariffs.map((t: { price: number; valid_from: string; valid_to: string | null }) => [
        t.price,
        t.valid_from,
        t.valid_to,
      ]);
    expect(tariffs).toEqual([
      [1200, '2030-01-01', null],
      [1000, '2026-01-01', '2029-12-31'],
    ]);
    // The same start again overlaps: refused by the exclusion constraint.
    const overlap = await call(ctx.app, admin, 'POST', `/api/medical-acts/${act}/tariffs/`, {
      payer_category: 'private',
      price: 1300,
      valid_from: '2030-01-01',
    });
    expect(overlap.statusCode, overlap.body).toBe(409);
    await expect(
      ctx.database.db.execute(sql`insert into act_tariffs (id, hospital_id, act_id, payer_category, price, currency,
        valid_from) values (gen_random_uuid(), ${hospitalId}, ${act}, 'private', 1, 'XOF', '2031-06-01')`),
    ).rejects.toThrow();
    // Clinicians read the catalogue but do not change it.
    expect((await call(ctx.app, nurse, 'GET', '/api/medical-acts/?q=pansement')).json().count).toBe(1);
    // `search`, the one name of every list's text search (issue 36); `q` above is its deprecated alias.
    expect((await call(ctx.app, nurse, 'GET', '/api/medical-acts/?search=pansement')).json().count).toBe(1);
    expect(
      (await call(ctx.app, doctor, 'PATCH', `/api/medical-acts/${act}/`, { is_active: false })).statusCode,
    ).toBe(403);
  });
});

describe(`an insured patient's visit (${TEST_DB_KIND})`, () => {
  let invoice: TInvoiceDetail;
  let patient: string;

  it('assembles consultation and malaria test with the insurer’s shares, idempotently', async () => {
    const visit = await billedVisit({ exam: true });
    patient = visit.patient;
    const cov = await call(ctx.app, cashier, 'POST', `/api/patients/${patient}/coverages/`, {
      payer,
      member_number: 'ASC-778812',
      valid_from: '2025-01-01',
    });
    expect(cov.statusCode, cov.body).toBe(201);
    const assembled = await assemble({ admission: visit.admission });
    expect(assembled.assembly).toMatchObject({ line_count: 2, added_lines: 2, unpriced: [] });
    invoice = assembled;
    expect(invoice.status).toBe('draft');
    expect(invoice.payer_category).toBe('insured');
    expect(invoice.payer?.code).toBe('ASCOMA');
    expect(invoice.currency).toBe('XOF');
    const lines = invoice.lines.map((l) => [l.act.code, l.unit_price, l.payer_share, l.patient_share]);
    // Consultation 4 000 at 80 %; the test 2 500 at 80 % = 2 000, capped by the laboratory ceiling of 1 500.
    expect(lines).toEqual([
      ['LAB-TDR', 2500, 1500, 1000],
      ['CONS-GEN', 4000, 3200, 800],
    ]);
    expect([invoice.total, invoice.payer_share, invoice.patient_share]).toEqual([6500, 4700, 1800]);
    // No diagnosis on an invoice: act labels only.
    // (Word boundaries: a uuid may hold "b50".)
    expect(JSON.stringify(invoice)).not.toMatch(/\bB50\b|palustre/i);
    const again = await assemble({ admission: visit.admission }, cashier, 200);
    expect(again.id).toBe(invoice.id);
    expect(again.lines).toHaveLength(2);
    // Idempotent: nothing new to add, the same totals.
    expect(again.assembly).toMatchObject({ line_count: 2, added_lines: 0, total: 6500, payer_share: 4700 });
  });

  it('edits the draft: a discount with who and why, a line removed with a reason', async () => {
    const added = await call(ctx.app, cashier, 'POST', `/api/invoices/${invoice.id}/lines/`, {
      act: manualAct,
    });
    expect(added.statusCode, added.body).toBe(200);
    const line = (added.json() as TInvoiceDetail).lines.find((l) => l.act.code === 'SOIN-10K')!;
    const discounted = await call(
      ctx.app,
      cashier,
      'POST',
      `/api/invoices/${invoice.id}/lines/${line.id}/discount/`,
      {
        amount: 2000,
        reason: 'Geste social',
      },
    );
    expect(discounted.statusCode, discounted.body).toBe(200);
    const d = (discounted.json() as TInvoiceDetail).lines.find((l) => l.id === line.id)!;
    expect([d.total, d.discount, d.discount_reason, d.discount_by?.id]).toEqual([
      8000,
      2000,
      'Geste social',
      cashier.id,
    ]);
    const tooMuch = await call(
      ctx.app,
      cashier,
      'POST',
      `/api/invoices/${invoice.id}/lines/${line.id}/discount/`,
      {
        amount: 10_001,
        reason: 'Trop',
      },
    );
    expect(tooMuch.statusCode).toBe(400);
    const removed = await call(
      ctx.app,
      cashier,
      'POST',
      `/api/invoices/${invoice.id}/lines/${line.id}/remove/`,
      {
        reason: 'Soin non réalisé',
      },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    invoice = removed.json();
    expect(invoice.lines.find((l) => l.id === line.id)?.is_removed).toBe(true);
    expect(invoice.total).toBe(6500);
  });

  it('issues with the next number, then refuses any change (in the API and in the database)', async () => {
    invoice = await issue(invoice.id);
    expect(invoice.number).toMatch(new RegExp(`^FAC-${hospitalCode}-${year}-\\d{6}$`));
    const edit = await call(ctx.app, cashier, 'POST', `/api/invoices/${invoice.id}/lines/`, {
      act: manualAct,
    });
    expect(edit.statusCode).toBe(409);
    await expect(
      ctx.database.db.execute(sql`update invoices set total = 1 where id = ${invoice.id}`),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(sql`update invoice_lines set unit_price = 1 where invoice_id = ${invoice.id}`),
    ).rejects.toThrow();
    expect(
      (await call(ctx.app, cashier, 'POST', `/api/invoices/${invoice.id}/cancel/`, { reason: 'Non' }))
        .statusCode,
    ).toBe(409);
  });

  it('takes part in cash and the rest by MTN MoMo; the same reference again is refused', async () => {
    const noSession = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: invoice.id,
      method: 'cash',
      amount: 1000,
    });
    expect(noSession.statusCode, noSession.body).toBe(409);
    await openSession(cashier);
    const cash = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: invoice.id,
      method: 'cash',
      amount: 1000,
    });
    expect(cash.statusCode, cash.body).toBe(201);
    const receipt = cash.json() as TReceipt;
    expect(receipt.number).toMatch(new RegExp(`^REC-${hospitalCode}-${year}-\\d{6}$`));
    expect(receipt.invoice.balance).toBe(800);
    const over = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: invoice.id,
      method: 'cash',
      amount: 801,
    });
    expect(over.statusCode).toBe(409);
    const momo = {
      invoice: invoice.id,
      method: 'mobile_money',
      amount: 800,
      operator: 'mtn_momo',
      phone: '+225 05 44 12 34 56',
      reference: 'MP261125.1432.C71045',
    };
    const paid = await call(ctx.app, cashier, 'POST', '/api/payments/', momo);
    expect(paid.statusCode, paid.body).toBe(201);
    expect((paid.json() as TReceipt).invoice.balance).toBe(0);
    const other = await issuedManualInvoice();
    const again = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      ...momo,
      invoice: other.id,
      amount: 500,
    });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().detail).toMatch(/référence/);
    // Another operator may use the same reference.
    const wave = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      ...momo,
      invoice: other.id,
      amount: 500,
      operator: 'wave',
    });
    expect(wave.statusCode, wave.body).toBe(201);
    const receiptRead = await call(ctx.app, headDoctor, 'GET', `/api/receipts/${receipt.id}/`);
    expect(receiptRead.statusCode).toBe(200);
    expect(receiptRead.json().payment.method).toBe('cash');
  });

  it('corrects the invoice by a credit note; the overpaid patient share is refunded', async () => {
    const note = await call(ctx.app, headDoctor, 'POST', `/api/invoices/${invoice.id}/credit-note/`, {
      reason: 'Examen facturé à tort',
      lines: [invoice.lines.find((l) => l.act.code === 'LAB-TDR')!.id],
    });
    expect(note.statusCode, note.body).toBe(201);
    const n = note.json() as TInvoiceDetail;
    expect(n.kind).toBe('credit_note');
    expect(n.number).toMatch(new RegExp(`^AV-${hospitalCode}-${year}-\\d{6}$`));
    expect([n.total, n.payer_share, n.patient_share]).toEqual([-2500, -1500, -1000]);
    const after = (
      await call(ctx.app, cashier, 'GET', `/api/invoices/${invoice.id}/`)
    ).json() as TInvoiceDetail;
    expect(after.balance).toBe(-1000);
    expect(after.credit_notes.map((c) => c.number)).toEqual([n.number]);
    const twice = await call(ctx.app, cashier, 'POST', `/api/invoices/${invoice.id}/credit-note/`, {
      reason: 'Encore',
      lines: [invoice.lines.find((l) => l.act.code === 'LAB-TDR')!.id],
    });
    expect(twice.statusCode).toBe(409);
    const cashPayment = after.payments.find((p) => p.method === 'cash')!;
    const refund = await call(ctx.app, cashier, 'POST', `/api/payments/${cashPayment.id}/refund/`, {
      amount: 1000,
      reason: 'Avoir sur examen',
    });
    expect(refund.statusCode, refund.body).toBe(201);
    expect((refund.json() as TReceipt).payment.amount).toBe(-1000);
    expect((refund.json() as TReceipt).invoice.balance).toBe(0);
    const more = await call(ctx.app, cashier, 'POST', `/api/payments/${cashPayment.id}/refund/`, {
      amount: 1,
      reason: 'Encore',
    });
    expect(more.statusCode).toBe(409);
    // Payments are append-only.
    await expect(
      ctx.database.db.execute(sql`update payments set amount = 1 where id = ${cashPayment.id}`),
    ).rejects.toThrow();
  });

  it('shows the balance to clinicians, and the cash desk to its staff only', async () => {
    const balance = await call(ctx.app, nurse, 'GET', `/api/patients/${patient}/balance/`);
    expect(balance.statusCode, balance.body).toBe(200);
    expect(balance.json()).toMatchObject({ currency: 'XOF', invoiced: 800, paid: 800, balance: 0 });
    expect((await call(ctx.app, nurse, 'GET', `/api/invoices/?patient=${patient}`)).statusCode).toBe(403);
    expect((await call(ctx.app, doctor, 'GET', `/api/invoices/${invoice.id}/`)).statusCode).toBe(403);
    // A secretary outside the billing department has no cash desk.
    expect((await call(ctx.app, desk, 'GET', `/api/invoices/${invoice.id}/`)).statusCode).toBe(403);
    expect((await call(ctx.app, desk, 'POST', '/api/cash-sessions/', { floats: [] })).statusCode).toBe(403);
    const list = await call(ctx.app, headDoctor, 'GET', `/api/invoices/?patient=${patient}&kind=invoice`);
    expect(list.json().results.map((i: { id: string }) => i.id)).toEqual([invoice.id]);
    const byNumber = await call(ctx.app, cashier, 'GET', `/api/invoices/?number=${invoice.number}`);
    expect(byNumber.json().count).toBe(1);
    const statement = await call(
      ctx.app,
      cashier,
      'GET',
      `/api/payers/${payer}/statement/?from=${year}-01-01&to=${year}-12-31`,
    );
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.json().total_payer_share).toBe(4700 - 1500);
  });
});

describe(`money in two currencies (${TEST_DB_KIND})`, () => {
  it('records a euro payment at the rate of the day with both amounts (rounded half away from zero)', async () => {
    const inv = await issuedManualInvoice(20_000);
    await openSession(cashier);
    const noRate = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      currency: 'EUR',
      amount: 1000,
    });
    expect(noRate.statusCode).toBe(400);
    const res = await call(ctx.app, cashier, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      currency: 'EUR',
      amount: 1000,
      rate: '655.957',
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json() as TReceipt;
    expect([r.payment.currency, r.payment.amount, r.payment.rate, r.payment.amount_invoice_currency]).toEqual(
      ['EUR', 1000, '655.957', 6560],
    );
    expect(r.invoice.balance).toBe(20_000 - 6560);
  });
});

describe(`the cash desk (${TEST_DB_KIND})`, () => {
  it('opens one session per cashier, closes it counted per currency with the variance', async () => {
    const session = await openSession(cashier2);
    const twice = await call(ctx.app, cashier2, 'POST', '/api/cash-sessions/', { floats: [] });
    expect(twice.statusCode).toBe(409);
    const inv = await issuedManualInvoice();
    for (const body of [
      { method: 'cash', amount: 3000 },
      {
        method: 'mobile_money',
        amount: 2000,
        operator: 'orange_money',
        phone: '+225 07 00 00 01',
        reference: 'OM-1',
      },
    ]) {
      const res = await call(ctx.app, cashier2, 'POST', '/api/payments/', { invoice: inv.id, ...body });
      expect(res.statusCode, res.body).toBe(201);
    }
    const closeByOther = await call(ctx.app, cashier, 'POST', `/api/cash-sessions/${session}/close/`, {
      counted: [],
    });
    expect(closeByOther.statusCode).toBe(403);
    // Issue 36 (decision 0027): a cashier reads only her own session's report, open or closed; the head doctor
    // and the administrator read every cashier's.
    const peek = await call(ctx.app, cashier, 'GET', `/api/cash-sessions/${session}/report/`);
    expect(peek.statusCode, peek.body).toBe(403);
    expect(peek.json().detail).toMatch(/caissi/);
    for (const reader of [cashier2, headDoctor, admin]) {
      const own = await call(ctx.app, reader, 'GET', `/api/cash-sessions/${session}/report/`);
      expect(own.statusCode, own.body).toBe(200);
    }
    const closed = await call(ctx.app, cashier2, 'POST', `/api/cash-sessions/${session}/close/`, {
      counted: [{ currency: 'XOF', amount: 22_500 }],
      note: 'Il manque 500 F',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const report = closed.json();
    expect(report.cash).toEqual([
      {
        currency: 'XOF',
        float: 20_000,
        received: 3000,
        refunded: 0,
        expected: 23_000,
        counted: 22_500,
        variance: -500,
      },
    ]);
    expect(report.by_method).toEqual([
      { method: 'cash', operator: null, currency: 'XOF', count: 1, total: 3000 },
      { method: 'mobile_money', operator: 'orange_money', currency: 'XOF', count: 1, total: 2000 },
    ]);
    const after = await call(ctx.app, cashier2, 'POST', '/api/payments/', {
      invoice: inv.id,
      method: 'cash',
      amount: 100,
    });
    expect(after.statusCode).toBe(409);
    // The database refuses a payment in a closed session whatever the code does.
    await expect(
      ctx.database.db.execute(sql`insert into payments (id, hospital_id, invoice_id, cash_session_id, method, currency,
        amount, amount_invoice, received_by) values (gen_random_uuid(), ${hospitalId}, ${inv.id}, ${session}, 'cash',
        'XOF', 100, 100, ${cashier2.id})`),
    ).rejects.toThrow();
  });
});

describe(`numbers and references under concurrency (${TEST_DB_KIND})`, () => {
  it('issues 20 invoices at once with 20 consecutive numbers: no duplicate, no hole', async () => {
    const drafts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const patient = await createPatient(ctx.app, desk);
      const admission = await admit(ctx.app, desk, patient.id, urg);
      const act = await call(ctx.app, cashier, 'POST', '/api/medical-acts/performed/', {
        act: manualAct,
        admission: admission.id,
      });
      expect(act.statusCode, act.body).toBe(201);
      drafts.push((await assemble({ admission: admission.id })).id);
    }
    const results = await Promise.all(
      drafts.map((id) => call(ctx.app, cashier, 'POST', `/api/invoices/${id}/issue/`)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(drafts.map(() => 200));
    const all = await ctx.database.db.execute<{ number: string }>(
      sql`select number from invoices where hospital_id = ${hospitalId} and kind = 'invoice' and number is not null`,
    );
    const seq = all.rows.map((r) => Number(r.number.split('-').pop())).sort((a, b) => a - b);
    expect(new Set(seq).size).toBe(seq.length);
    expect(seq).toEqual(seq.map((_, i) => i + 1));
  }, 120_000);

  it('records the same mobile-money reference twice at once: one 201, one 409', async () => {
    const [a, b] = [await issuedManualInvoice(), await issuedManualInvoice()];
    await openSession(cashier);
    await openSession(cashier2);
    // One reference for both (made once: two calls of Date.now() may fall in different milliseconds).
    const reference = `MP-CONC-${Date.now()}`;
    const body = (invoice: string) => ({
      invoice,
      method: 'mobile_money',
      amount: 5000,
      operator: 'mtn_momo',
      phone: '+225 05 00 00 02',
      reference,
    });
    const [r1, r2] = await Promise.all([
      call(ctx.app, cashier, 'POST', '/api/payments/', body(a.id)),
      call(ctx.app, cashier2, 'POST', '/api/payments/', body(b.id)),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([201, 409]);
  });

  it('assembles the same visit twice at once into one invoice', async () => {
    const visit = await billedVisit();
    const [r1, r2] = await Promise.all([
      call(ctx.app, cashier, 'POST', '/api/invoices/assemble/', { admission: visit.admission }),
      call(ctx.app, cashier2, 'POST', '/api/invoices/assemble/', { admission: visit.admission }),
    ]);
    const ok = [r1, r2].filter((r) => r.statusCode < 300);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of [r1, r2]) expect([200, 201, 409]).toContain(r.statusCode);
    const n = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from invoices where admission_id = ${visit.admission}`,
    );
    expect(Number(n.rows[0]!.n)).toBe(1);
    const lines = await ctx.database.db.execute<{
      n: number;
    }>(sql`select count(*)::int as n from invoice_lines il
      join invoices i on i.id = il.invoice_id where i.admission_id = ${visit.admission}`);
    expect(Number(lines.rows[0]!.n)).toBe(1);
  });
});

describe(`a stay's bed-days (${TEST_DB_KIND})`, () => {
  it('derives one bed-day per day of the stay, once', async () => {
    await bedDayAct(ctx, headDoctor);
    const patient = await createPatient(ctx.app, desk);
    const admission = await admit(ctx.app, desk, patient.id, urg);
    const stay = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
      admission: admission.id,
      department: urg,
      reason: 'Paludisme grave',
    });
    expect(stay.statusCode, stay.body).toBe(201);
    const stayId = stay.json().id as string;
    // Admitted three days ago at noon (hospital time), still in: today is not a full day yet.
    await ctx.database.db.execute(sql`update hospitalizations set admitted_at = now() - interval '3 days'
      where id = ${stayId}`);
    const inv = await assemble({ hospitalization: stayId });
    const days = inv.lines.filter((l) => l.act.code === 'LIT-JOUR');
    expect(days.length).toBeGreaterThanOrEqual(3);
    expect(days.length).toBeLessThanOrEqual(4);
    expect(inv.total).toBe(days.length * 15_000);
    expect(inv.assembly).toMatchObject({ line_count: days.length, added_lines: days.length });
    const again = await assemble({ hospitalization: stayId }, cashier, 200);
    expect(again.lines.length).toBe(inv.lines.length);
    expect(again.assembly).toMatchObject({ line_count: days.length, added_lines: 0, total: inv.total });
  });
});

describe(`what the assembly cannot price (${TEST_DB_KIND})`, () => {
  it('answers at once the acts left off (no act, no tariff); the invoice shows the one without a tariff', async () => {
    // A validated blood count (no act in the catalogue for it) and an act priced for the insured only.
    const visit = await billedVisit({ exam: 'NFS' });
    const insuredOnly = await createAct({
      code: 'SOIN-ASS',
      label_fr: 'Soin des assurés',
      label_en: 'Insured care',
      category: 'nursing',
      tariffs: [{ payer_category: 'insured', price: 3000 }],
    });
    const performed = await call(ctx.app, cashier, 'POST', '/api/medical-acts/performed/', {
      act: insuredOnly,
      admission: visit.admission,
    });
    expect(performed.statusCode, performed.body).toBe(201);
    const inv = await assemble({ admission: visit.admission });
    expect(inv.assembly.unpriced).toEqual([
      { performed_act: null, label: expect.stringMatching(/^NFS /), reason: 'no_act' },
      { performed_act: performed.json().id, label: 'SOIN-ASS Soin des assurés', reason: 'no_tariff' },
    ]);
    expect(inv.assembly).toMatchObject({
      payer_category: 'private',
      line_count: 1,
      added_lines: 1,
      total: 5000,
    });
    expect(inv.lines.map((l) => [l.act.code, l.total])).toEqual([['CONS-GEN', 5000]]);
    expect(inv.unpriced.map((u) => u.performed_act)).toEqual([performed.json().id]);
    // Refreshed: still left off, nothing added.
    const again = await assemble({ admission: visit.admission }, cashier, 200);
    expect(again.assembly.unpriced).toEqual(inv.assembly.unpriced);
    expect(again.assembly).toMatchObject({ line_count: 1, added_lines: 0 });
  });
});
