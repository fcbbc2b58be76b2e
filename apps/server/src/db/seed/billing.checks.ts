import type { TInvoice, TInvoiceAssembly, TInvoiceDetail } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';
import { CASHIER } from './billing.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('gives the cashier an open session, a catalogue, two payers and an issued invoice paid in part', async () => {
  const cashier = await actor(CASHIER);
  const session = await get(cashier, '/api/cash-sessions/current/');
  expect(session.floats).toEqual([{ currency: 'XOF', amount: 25_000 }]);
  const acts = await get(cashier, '/api/medical-acts/?page_size=100');
  expect(acts.count).toBeGreaterThanOrEqual(40);
  const cons = acts.results.find((a: { code: string }) => a.code === 'CONS-GEN');
  expect(
    cons.current_tariffs.map((t: { payer_category: string; price: number }) => [t.payer_category, t.price]),
  ).toEqual(
    expect.arrayContaining([
      ['private', 5000],
      ['indigent', 1250],
    ]),
  );
  const payers = await get(cashier, '/api/payers/');
  expect(payers.results.map((p: { kind: string }) => p.kind).sort()).toEqual(['free_care', 'insurer']);

  const list = await get(cashier, '/api/invoices/?status=issued');
  const invoice = list.results.find((i: TInvoice) => i.payer?.code === 'ASCOMA') as TInvoice;
  expect(invoice.currency).toBe('XOF');
  expect(invoice.number).toMatch(/^FAC-HGG-\d{4}-000001$/);
  expect(invoice.balance).toBeGreaterThan(0);
  expect(invoice.paid).toBeGreaterThan(0);
  const detail = (await get(cashier, `/api/invoices/${invoice.id}/`)) as TInvoiceDetail;
  expect(detail.lines.map((l) => l.act.code)).toEqual(['CONS-GEN', 'LAB-TDR', 'MED-AL', 'MED-PCM']);
  expect(detail.lines.every((l) => l.payer_share + l.patient_share === l.total)).toBe(true);
  expect(detail.payments.map((p) => [p.method, p.operator])).toEqual([
    ['cash', null],
    ['mobile_money', 'mtn_momo'],
  ]);
  // The same MTN MoMo reference again is refused.
  const again = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/',
    headers: cashier.headers,
    payload: {
      invoice: invoice.id,
      method: 'mobile_money',
      amount: 100,
      operator: 'mtn_momo',
      phone: '+243 81 555 12 34',
      reference: detail.payments[1]!.reference,
    },
  });
  expect(again.statusCode, again.body).toBe(409);
});

it('lets the cashier invoice the second insured visit with the insurer’s share; clinicians see the balance', async () => {
  const cashier = await actor(CASHIER);
  const visit = await ctx.database.db.execute<{ admission: string; patient: string }>(sql`
    select c.admission_id as admission, c.patient_id as patient from patient_coverages pc
    join consultations c on c.patient_id = pc.patient_id and c.status = 'completed'
    where not exists (select 1 from invoices i where i.patient_id = pc.patient_id) limit 1`);
  const v = visit.rows[0]!;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/invoices/assemble/',
    headers: cashier.headers,
    payload: { admission: v.admission },
  });
  expect(res.statusCode, res.body).toBe(201);
  const assembled = res.json() as TInvoiceAssembly;
  expect(assembled.payer?.code).toBe('ASCOMA');
  expect(assembled.added_lines).toBe(assembled.line_count);
  const draft = (await get(cashier, `/api/invoices/${assembled.id}/`)) as TInvoiceDetail;
  expect(draft.lines.length).toBe(assembled.line_count);
  expect([draft.total, draft.payer_share, draft.patient_share]).toEqual([
    assembled.total,
    assembled.payer_share,
    assembled.patient_share,
  ]);
  const cons = draft.lines.find((l) => l.act.code === 'CONS-GEN')!;
  expect([cons.unit_price, cons.payer_share, cons.patient_share]).toEqual([5000, 4000, 1000]);
  const nurse = await actor('infirmier@greensen.test');
  const balance = await get(nurse, `/api/patients/${v.patient}/balance/`);
  expect(balance).toMatchObject({ currency: 'XOF', balance: 0, draft_invoices: 1 });
});

it('shows a deposit on an ongoing stay, counted by its draft invoice', async () => {
  const cashier = await actor(CASHIER);
  const stays = await ctx.database.db.execute<{
    id: string;
  }>(sql`select i.hospitalization_id as id from invoices i
    join payments p on p.invoice_id = i.id where p.is_deposit`);
  expect(stays.rows.length).toBe(1);
  const deposits = await get(cashier, `/api/hospitalizations/${stays.rows[0]!.id}/deposits/`);
  expect(deposits.total).toBe(50_000);
  expect(deposits.invoice.status).toBe('draft');
  expect(deposits.deposits[0].receipt.number).toMatch(/^REC-HGG-/);
  // The cash desk's assembly adds the bed-days so far; the deposit stays deducted from the balance.
  const refreshed = await ctx.app.inject({
    method: 'POST',
    url: '/api/invoices/assemble/',
    headers: cashier.headers,
    payload: { hospitalization: stays.rows[0]!.id },
  });
  expect(refreshed.statusCode, refreshed.body).toBe(200);
  const inv = refreshed.json() as TInvoiceAssembly;
  expect(inv.line_count).toBeGreaterThan(0);
  expect(inv.balance).toBe(inv.patient_share - 50_000);
  const detail = (await get(cashier, `/api/invoices/${inv.id}/`)) as TInvoiceDetail;
  expect(detail.lines.filter((l) => !l.is_removed).length).toBe(inv.line_count);
  expect(detail.balance).toBe(inv.balance);
});

it('gives the cash desk the day’s rates of the euro and the US dollar', async () => {
  const cashier = await actor(CASHIER);
  const current = await get(cashier, '/api/exchange-rates/current/');
  expect(current.quote).toBe('XOF');
  expect(
    current.rates.map((r: { base: string; rate: string | number }) => [r.base, Number(r.rate)]).sort(),
  ).toEqual([
    ['EUR', 655.957],
    ['USD', 603.5],
  ]);
});
