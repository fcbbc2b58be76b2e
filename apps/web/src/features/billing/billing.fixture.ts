/** Data of the billing pages' tests: a cashier of the "Caisse" department, invoices, a session and its report. */

import type {
  TCashSession,
  TCashSessionReport,
  TInvoice,
  TInvoiceDetail,
  TReceipt,
} from '@greensen/shared/contracts/billing';
import { invoiceStanding } from '@greensen/shared/domain/money';
import { makeUser } from '../../test/render';

export const BILLING_DEPT = '0190f0f0-1111-7222-8333-444455550001';
export const INVOICE_ID = '0190f0f0-2222-7222-8333-444455550001';
export const PATIENT_ID = '0190f0f0-3333-7222-8333-444455550001';
export const SESSION_ID = '0190f0f0-4444-7222-8333-444455550001';
export const CASHIER_ID = '0190f0f0-5555-7222-8333-444455550001';
const ACT_ID = '0190f0f0-6666-7222-8333-444455550001';

export const cashier = makeUser({
  id: CASHIER_ID,
  email: 'caisse@greensen.test',
  full_name: 'Mariam Koné',
  departments: [{ id: BILLING_DEPT, name: 'Caisse', hospital: 'h1' }],
  active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: BILLING_DEPT }],
  roles: [{ code: 'SECRETARY', name: 'Secretary' }],
});

/** The hospital's departments as GET /api/departments/ answers them. */
/** A pure cashier (decision 0070) of the "Caisse" department, as `caisse@` of the demo. */
export const pureCashier = {
  ...cashier,
  active_roles: [{ role_code: 'CASHIER', hospital: 'h1', department: BILLING_DEPT }],
  roles: [{ code: 'CASHIER', name: 'Cashier' }],
};

export function departments() {
  return Response.json({
    count: 2,
    next: null,
    previous: null,
    results: [
      { id: BILLING_DEPT, code: 'CAISSE', name: 'Caisse', kind: 'billing', is_active: true },
      { id: 'd1', code: 'URG', name: 'Urgences', kind: 'emergency', is_active: true },
    ],
  });
}

export function invoice(overrides: Partial<TInvoice> = {}): TInvoice {
  const made: Omit<TInvoice, 'standing'> = {
    id: INVOICE_ID,
    number: 'FAC-HGG-2026-000042',
    kind: 'invoice',
    status: 'issued',
    patient: { id: PATIENT_ID, record_number: 'HGG-2026-00017', full_name: 'Aïcha Traoré' },
    admission: '0190f0f0-7777-7222-8333-444455550001',
    hospitalization: null,
    currency: 'XOF',
    payer_category: 'insured',
    payer: {
      id: '0190f0f0-8888-7222-8333-444455550001',
      code: 'ASCOMA',
      name: 'Ascoma Assurances',
      kind: 'insurer',
    },
    total: 62500,
    payer_share: 50000,
    patient_share: 12500,
    paid: 5000,
    balance: 7500,
    credited_invoice: null,
    issued_at: '2026-03-04T10:00:00Z',
    created_at: '2026-03-04T09:30:00Z',
    ...overrides,
  };
  // Where it stands, as the server says it (the shared rule), unless the test says otherwise.
  return { ...made, standing: overrides.standing ?? invoiceStanding(made) };
}

export function invoiceDetail(overrides: Partial<TInvoiceDetail> = {}): TInvoiceDetail {
  return {
    ...invoice(),
    out_of_date: false,
    lines: [
      {
        id: '0190f0f0-9999-7222-8333-444455550001',
        position: 1,
        act: {
          id: ACT_ID,
          code: 'CONS-GEN',
          label_fr: 'Consultation générale',
          label_en: 'General consultation',
          category: 'consultation',
        },
        performed_act: null,
        quantity: 1,
        unit_price: 62500,
        gross: 62500,
        discount: 0,
        discount_reason: null,
        discount_by: null,
        total: 62500,
        payer_share: 50000,
        patient_share: 12500,
        is_removed: false,
        removed_reason: null,
        removed_by: null,
        removed_at: null,
      },
    ],
    payments: [],
    credit_notes: [],
    member_number: 'ASC-778812',
    created_by: { id: CASHIER_ID, full_name: 'Mariam Koné' },
    issued_by: { id: CASHIER_ID, full_name: 'Mariam Koné' },
    cancel_reason: null,
    credit_reason: null,
    unpriced: [],
    ...overrides,
  };
}

export function session(overrides: Partial<TCashSession> = {}): TCashSession {
  return {
    id: SESSION_ID,
    cashier: { id: CASHIER_ID, full_name: 'Mariam Koné' },
    status: 'open',
    opened_at: '2026-03-04T07:00:00Z',
    closed_at: null,
    floats: [{ currency: 'XOF', amount: 50000 }],
    counted: null,
    note: null,
    ...overrides,
  };
}

export function report(closed = false): TCashSessionReport {
  return {
    session: session(
      closed
        ? {
            status: 'closed',
            closed_at: '2026-03-04T17:00:00Z',
            counted: [{ currency: 'XOF', amount: 59000 }],
          }
        : {},
    ),
    cash: [
      {
        currency: 'XOF',
        float: 50000,
        received: 10000,
        refunded: 0,
        expected: 60000,
        counted: closed ? 59000 : null,
        variance: closed ? -1000 : null,
      },
    ],
    by_method: [
      { method: 'cash', operator: null, currency: 'XOF', count: 2, total: 10000 },
      { method: 'mobile_money', operator: 'mtn_momo', currency: 'XOF', count: 1, total: 7500 },
    ],
  };
}

/** The patient as GET /api/patients/ lists them (the pickers' search). */
export const listedPatient = {
  id: PATIENT_ID,
  record_number: 'HGG-2026-00017',
  full_name: 'Aïcha Traoré',
  sex: 'F',
  age: 30,
  birth_date: null,
  phone: null,
  allergies: [],
  is_archived: false,
};

export const page = <T>(results: T[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });

export const RECEIPT_ID = '0190f0f0-bbbb-7222-8333-444455550009';

/** A cash payment's receipt (7 500 handed 10 000, 2 500 back); `over` changes the rest (a deposit's stay). */
export function receipt(payment: Partial<TReceipt['payment']> = {}, over: Partial<TReceipt> = {}): TReceipt {
  return {
    id: RECEIPT_ID,
    number: 'REC-HGG-2026-000009',
    issued_at: '2026-03-04T12:00:00Z',
    hospital: { id: 'h1', name: 'Hôpital Général de Greensen', code: 'HGG' },
    patient: invoiceDetail().patient,
    invoice: {
      id: INVOICE_ID,
      number: 'FAC-HGG-2026-000042',
      currency: 'XOF',
      patient_share: 12500,
      paid: 12500,
      balance: 0,
    },
    payment: {
      id: '0190f0f0-aaaa-7222-8333-444455550009',
      kind: 'payment',
      method: 'cash',
      operator: null,
      currency: 'XOF',
      amount: 7500,
      rate: null,
      amount_invoice_currency: 7500,
      reference: null,
      is_deposit: false,
      receipt: { id: RECEIPT_ID, number: 'REC-HGG-2026-000009' },
      received_by: { id: CASHIER_ID, full_name: 'Mariam Koné' },
      received_at: '2026-03-04T12:00:00Z',
      invoice: { id: INVOICE_ID, number: 'FAC-HGG-2026-000042' },
      phone: null,
      note: null,
      reason: null,
      refunded_payment: null,
      cash_session: SESSION_ID,
      amount_tendered: 10000,
      change_due: 2500,
      ...payment,
    },
    stay: null,
    ...over,
  };
}
