/**
 * Billing (issue 21, decision 0027): payers and patient coverage, invoices assembled from what was performed,
 * credit notes, payments (cash, card, transfer, cheque, mobile money) with numbered receipts, the cash desk.
 *
 * Money: every amount is an integer number of minor units (ISO 4217 exponent: XOF 0, EUR 2; domain/money.ts).
 * An invoice's currency is its hospital's. A payment in another currency carries `rate` (units of the invoice
 * currency for one major unit of the payment's, decimal string) and both amounts; refunds are negative amounts.
 * Invoices show act labels only, never a diagnosis (secretaries work the cash desk).
 *
 * Routes (all under /api, Hospital-ID header; another hospital's id is 404). "Billing staff" = members of a
 * department of kind `billing` in the groups secretary, queue manager, nurse, head doctor; "managers" = head
 * doctor, admin (decision 0027):
 *
 * | Method | Path | Who |
 * |---|---|---|
 * | GET   | /payers/                                   | billing staff, managers |
 * | POST  | /payers/                                   | managers |
 * | GET   | /payers/{id}/                              | billing staff, managers |
 * | PATCH | /payers/{id}/                              | managers (rules replace the whole list) |
 * | GET   | /payers/{id}/statement/?from&to            | billing staff, managers: what to claim from the payer |
 * | GET   | /patients/{id}/coverages/                  | billing staff, managers |
 * | POST  | /patients/{id}/coverages/                  | billing staff, managers |
 * | POST  | /patients/{id}/coverages/{coverage_id}/end/ | billing staff, managers |
 * | GET   | /patients/{id}/balance/                    | billing staff, managers and clinicians (doctor, midwife, nurse) |
 * | GET   | /invoices/                                 | billing staff, managers (patient, status, kind, from, to, number) |
 * | GET   | /invoices/visits/?patient                  | billing staff: a patient's visits to pick for the assembly (date, department, status, live invoice; no clinical content) |
 * | POST  | /invoices/assemble/                        | billing staff: the draft of a visit or a stay (201 new, 200 existing draft, refreshed); answers its summary (`ZInvoiceAssembly`: header, line counts, unpriced acts), not its lines |
 * | GET   | /invoices/{id}/                            | billing staff, managers (audited read) |
 * | POST  | /invoices/{id}/lines/                      | billing staff: a manual line on a draft |
 * | POST  | /invoices/{id}/lines/{line_id}/remove/     | billing staff: with a reason, on a draft |
 * | POST  | /invoices/{id}/lines/{line_id}/discount/   | billing staff: amount + reason, on a draft |
 * | POST  | /invoices/{id}/issue/                      | billing staff: numbers it FAC-<HOSP>-<YEAR>-000123, immutable afterwards |
 * | POST  | /invoices/{id}/cancel/                     | billing staff: drafts only, with a reason |
 * | POST  | /invoices/{id}/credit-note/                | billing staff, managers: AV-<HOSP>-<YEAR>-000123 against an issued invoice |
 * | POST  | /payments/                                 | billing staff with an open cash session of their own; receipt REC-<HOSP>-<YEAR>-000123 |
 * | POST  | /payments/{id}/refund/                     | billing staff (own open session), with a reason |
 * | GET   | /receipts/{id}/                            | billing staff, managers |
 * | GET   | /hospitalizations/{id}/deposits/           | billing staff, managers: the stay's deposits and its invoice |
 * | POST  | /hospitalizations/{id}/deposits/           | billing staff (own open session): a deposit on the stay's draft invoice |
 * | GET   | /cash-sessions/                            | billing staff (their own), managers (all) |
 * | POST  | /cash-sessions/                            | billing staff: opens their session with a float per currency |
 * | GET   | /cash-sessions/current/                    | billing staff: their open session (404 when none) |
 * | POST  | /cash-sessions/{id}/close/                 | the cashier of the session: counted amounts per currency |
 * | GET   | /cash-sessions/{id}/report/                | the cashier, billing staff, managers: expected vs counted |
 * | POST  | /payments/mobile-money/                    | billing staff (own open session): asks the payer's phone to pay (pending) |
 * | POST  | /payments/mobile-money/callback/{operator}/ | public: the operator's signed callback (decision 0040) |
 * | GET   | /exchange-rates/                           | billing staff, managers: the history of the rates, newest first |
 * | GET   | /exchange-rates/current/?on                | billing staff, managers: the rate in force per currency on a day |
 * | POST  | /exchange-rates/                           | managers: a rate from a day (a correction is a new row) |
 */

import { z } from 'zod';
import { ADMISSION_STATUSES } from '../domain/admissions.js';
import { INVOICE_STATUSES } from '../domain/invoices.js';
import { changeDue } from '../domain/money.js';
import { ZPageQuery, zDateTime, zPage, zSearch } from './common.js';
import { ACT_CATEGORIES, PAYER_CATEGORIES, zMinor } from './medical-acts.js';

/** Path of every billing route (relative to /api). */
export const BILLING_ROUTES = {
  payers: '/payers/',
  payer: (id: string) => `/payers/${id}/`,
  payerStatement: (id: string) => `/payers/${id}/statement/`,
  coverages: (patientId: string) => `/patients/${patientId}/coverages/`,
  coverageEnd: (patientId: string, coverageId: string) =>
    `/patients/${patientId}/coverages/${coverageId}/end/`,
  balance: (patientId: string) => `/patients/${patientId}/balance/`,
  invoices: '/invoices/',
  assemble: '/invoices/assemble/',
  invoiceVisits: '/invoices/visits/',
  invoice: (id: string) => `/invoices/${id}/`,
  invoiceLines: (id: string) => `/invoices/${id}/lines/`,
  lineRemove: (id: string, lineId: string) => `/invoices/${id}/lines/${lineId}/remove/`,
  lineDiscount: (id: string, lineId: string) => `/invoices/${id}/lines/${lineId}/discount/`,
  issue: (id: string) => `/invoices/${id}/issue/`,
  cancel: (id: string) => `/invoices/${id}/cancel/`,
  creditNote: (id: string) => `/invoices/${id}/credit-note/`,
  payments: '/payments/',
  refund: (id: string) => `/payments/${id}/refund/`,
  receipt: (id: string) => `/receipts/${id}/`,
  deposits: (stayId: string) => `/hospitalizations/${stayId}/deposits/`,
  cashSessions: '/cash-sessions/',
  currentCashSession: '/cash-sessions/current/',
  closeCashSession: (id: string) => `/cash-sessions/${id}/close/`,
  cashSessionReport: (id: string) => `/cash-sessions/${id}/report/`,
  mobileMoneyRequests: '/payments/mobile-money/',
  mobileMoneyCallback: (operator: string) => `/payments/mobile-money/callback/${operator}/`,
  exchangeRates: '/exchange-rates/',
  currentExchangeRates: '/exchange-rates/current/',
} as const;

/** Categories a payer's rules and an invoice line use (the act categories). */
export const BILLING_CATEGORIES = ACT_CATEGORIES;

export const PAYER_KINDS = ['insurer', 'mutual', 'employer', 'free_care'] as const;
export type PayerKind = (typeof PAYER_KINDS)[number];

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
/** `draft → issued`; `cancelled` only from `draft`. Credit notes are created `issued`. */
export { INVOICE_STATUSES, type InvoiceStatus } from '../domain/invoices.js';

export const PAYMENT_METHODS = ['cash', 'card', 'bank_transfer', 'cheque', 'mobile_money'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const MOBILE_MONEY_OPERATORS = [
  'orange_money',
  'mtn_momo',
  'airtel_money',
  'mpesa',
  'wave',
  'moov_money',
] as const;
export type MobileMoneyOperator = (typeof MOBILE_MONEY_OPERATORS)[number];
export const PAYMENT_KINDS = ['payment', 'refund'] as const;
export const CASH_SESSION_STATUSES = ['open', 'closed'] as const;

const zCurrency = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'billing.currency_invalid');
/** Rate of the day: decimal string, > 0, at most 8 decimals (see domain/money.ts RATE_PATTERN). */
const zRate = z
  .string()
  .regex(/^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,8})?$/, 'billing.rate_invalid')
  // "0" and "0.00" match the pattern but are no rate (issue 36: a zero rate reached the service and answered 500).
  .refine((r) => /[1-9]/.test(r), 'billing.rate_invalid');
const reason = z.string().trim().min(3).max(500);
const ZRef = z.object({ id: z.uuid(), full_name: z.string() });
/** A patient as billing sees them: identity only, no clinical content. */
export const ZBillingPatient = z.object({ id: z.uuid(), record_number: z.string(), full_name: z.string() });

// Payers and coverage --------------------------------------------------------------------------------------

export const ZCoverageRule = z.object({
  category: z.enum(BILLING_CATEGORIES),
  /** Share of a line the payer covers, 0–100. */
  rate_percent: z.number().int().min(0).max(100),
  /** Most the payer pays for this category on one invoice, minor units; null: no ceiling. */
  ceiling: zMinor.nullable(),
});
export type TCoverageRule = z.infer<typeof ZCoverageRule>;

/** Who a programme covers (free care: children under five, pregnant women…); null: anyone with the coverage. */
export const ZPayerEligibility = z.object({
  max_age_years: z.number().int().min(0).max(120).nullable(),
  sex: z.enum(['F', 'M']).nullable(),
});

export const ZPayer = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(PAYER_KINDS),
  /** The tariff its members are priced at (`insured` for insurers, `indigent` for a free-care programme…). */
  payer_category: z.enum(PAYER_CATEGORIES),
  contact: z.string().nullable(),
  is_active: z.boolean(),
  rules: z.array(ZCoverageRule),
  eligibility: ZPayerEligibility,
});
export type TPayer = z.infer<typeof ZPayer>;
export const ZPayerList = zPage(ZPayer);
export const ZPayerQuery = ZPageQuery.extend({
  ...zSearch(),
  kind: z.enum(PAYER_KINDS).optional(),
});

export const ZPayerCreate = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9._-]{0,29}$/, 'billing.code_invalid'),
    name: z.string().trim().min(2).max(200),
    kind: z.enum(PAYER_KINDS),
    payer_category: z.enum(PAYER_CATEGORIES).default('insured'),
    contact: z.string().trim().max(300).nullish(),
    is_active: z.boolean().default(true),
    rules: z
      .array(ZCoverageRule)
      .max(BILLING_CATEGORIES.length)
      .refine((r) => new Set(r.map((x) => x.category)).size === r.length, 'billing.rules_duplicate_category'),
    eligibility: ZPayerEligibility.partial().optional(),
  })
  .strict();
export type TPayerCreate = z.input<typeof ZPayerCreate>;
export const ZPayerUpdate = ZPayerCreate.partial().strict();
export type TPayerUpdate = z.input<typeof ZPayerUpdate>;

export const ZCoverage = z.object({
  id: z.uuid(),
  patient: z.uuid(),
  payer: z.object({ id: z.uuid(), code: z.string(), name: z.string(), kind: z.enum(PAYER_KINDS) }),
  member_number: z.string(),
  valid_from: z.iso.date(),
  valid_to: z.iso.date().nullable(),
  /** Valid today and the payer active. */
  is_current: z.boolean(),
});
export type TCoverage = z.infer<typeof ZCoverage>;
export const ZCoverageList = z.object({ results: z.array(ZCoverage) });
export const ZCoverageCreate = z
  .object({
    payer: z.uuid(),
    member_number: z.string().trim().min(1).max(60),
    valid_from: z.iso.date().nullish(),
    valid_to: z.iso.date().nullish(),
  })
  .strict()
  .refine((v) => !v.valid_from || !v.valid_to || v.valid_to >= v.valid_from, {
    path: ['valid_to'],
    message: 'billing.valid_to_before_from',
  });
export type TCoverageCreate = z.input<typeof ZCoverageCreate>;
export const ZCoverageEnd = z.object({ valid_to: z.iso.date().nullish() }).strict();

/** What the patient still owes on issued invoices (patient shares minus credit notes minus net payments). */
export const ZPatientBalance = z.object({
  patient: z.uuid(),
  currency: z.string(),
  invoiced: z.number().int(),
  paid: z.number().int(),
  balance: z.number().int(),
  /** Issued invoices with something left to pay. */
  open_invoices: z.number().int(),
  /** Drafts not yet issued (amount not due yet). */
  draft_invoices: z.number().int(),
});
export type TPatientBalance = z.infer<typeof ZPatientBalance>;

// Invoices ----------------------------------------------------------------------------------------------

export const ZInvoiceLine = z.object({
  id: z.uuid(),
  position: z.number().int(),
  act: z.object({
    id: z.uuid(),
    code: z.string(),
    label_fr: z.string(),
    label_en: z.string(),
    category: z.enum(BILLING_CATEGORIES),
  }),
  performed_act: z.uuid().nullable(),
  quantity: z.number().int(),
  /** Price snapshot at assembly (or the credit note's negative unit price). */
  unit_price: z.number().int(),
  gross: z.number().int(),
  discount: z.number().int(),
  discount_reason: z.string().nullable(),
  discount_by: ZRef.nullable(),
  /** gross − discount; 0 when removed. */
  total: z.number().int(),
  payer_share: z.number().int(),
  patient_share: z.number().int(),
  is_removed: z.boolean(),
  removed_reason: z.string().nullable(),
  removed_by: ZRef.nullable(),
  removed_at: zDateTime.nullable(),
});
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

export const ZInvoice = z.object({
  id: z.uuid(),
  /** Null while draft; `FAC-HGG-2026-000123` (credit notes `AV-…`). */
  number: z.string().nullable(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  patient: ZBillingPatient,
  admission: z.uuid().nullable(),
  hospitalization: z.uuid().nullable(),
  currency: z.string(),
  payer_category: z.enum(PAYER_CATEGORIES),
  payer: z.object({ id: z.uuid(), code: z.string(), name: z.string(), kind: z.enum(PAYER_KINDS) }).nullable(),
  total: z.number().int(),
  payer_share: z.number().int(),
  patient_share: z.number().int(),
  /** Net payments in the invoice currency (refunds deducted). */
  paid: z.number().int(),
  /** patient_share − credited patient share − paid. */
  balance: z.number().int(),
  /** Where it stands for the cashier: its status, or "settled" / "partially_paid" once issued (issue 37). */
  standing: z.enum(['draft', 'issued', 'cancelled', 'settled', 'partially_paid']),
  /** The invoice a credit note corrects. */
  credited_invoice: z.object({ id: z.uuid(), number: z.string().nullable() }).nullable(),
  issued_at: zDateTime.nullable(),
  created_at: zDateTime,
});
export type TInvoice = z.infer<typeof ZInvoice>;
export const ZInvoiceList = zPage(ZInvoice);

export const ZPaymentSummary = z.object({
  id: z.uuid(),
  kind: z.enum(PAYMENT_KINDS),
  method: z.enum(PAYMENT_METHODS),
  operator: z.enum(MOBILE_MONEY_OPERATORS).nullable(),
  currency: z.string(),
  amount: z.number().int(),
  rate: z.string().nullable(),
  amount_invoice_currency: z.number().int(),
  reference: z.string().nullable(),
  /** A deposit (caution, avance) taken against a stay before its invoice was issued (decision 0036). */
  is_deposit: z.boolean(),
  receipt: z.object({ id: z.uuid(), number: z.string() }),
  received_by: ZRef,
  received_at: zDateTime,
});
export type TPaymentSummary = z.infer<typeof ZPaymentSummary>;

/** A performed act that could not be priced (no act or no tariff for the payer category): fix then refresh. */
export const ZUnpriced = z.object({
  performed_act: z.uuid().nullable(),
  label: z.string(),
  reason: z.string(),
});
export type TUnpriced = z.infer<typeof ZUnpriced>;

export const ZInvoiceDetail = ZInvoice.extend({
  lines: z.array(ZInvoiceLine),
  payments: z.array(ZPaymentSummary),
  credit_notes: z.array(z.object({ id: z.uuid(), number: z.string().nullable(), total: z.number().int() })),
  /** A draft whose visit or stay moved on since it was assembled (issue 37): the cashier refreshes it. */
  out_of_date: z.boolean(),
  member_number: z.string().nullable(),
  created_by: ZRef,
  issued_by: ZRef.nullable(),
  cancel_reason: z.string().nullable(),
  credit_reason: z.string().nullable(),
  /** Performed acts that could not be priced (no act or no tariff for the payer category): fix then refresh. */
  unpriced: z.array(ZUnpriced),
});
export type TInvoiceDetail = z.infer<typeof ZInvoiceDetail>;

/**
 * The answer of `POST /invoices/assemble/` (decision 0049): the draft's header as the assembly leaves it, how many
 * lines it bills, how many this call added, and what could not be priced — not its lines (the invoice page reads
 * them with `GET /invoices/{id}/`; a 300-line stay's lines are ~155 KB the clerk's next screen reads anyway).
 */
export const ZInvoiceAssembly = ZInvoice.extend({
  /** Live lines on the draft (removed lines not counted). */
  line_count: z.number().int().nonnegative(),
  /** Lines this call added (0 on a refresh with nothing new: the assembly is idempotent). */
  added_lines: z.number().int().nonnegative(),
  /** As on the invoice's detail: performed acts that could not be priced, for the clerk to see at once. */
  unpriced: z.array(ZUnpriced),
});
export type TInvoiceAssembly = z.infer<typeof ZInvoiceAssembly>;

export const ZInvoiceQuery = ZPageQuery.extend({
  patient: z.uuid().optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  /** Creation date range (inclusive days, hospital time zone not applied: UTC dates). */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** Exact number or its tail (`000123`). */
  number: z.string().trim().max(40).optional(),
});

/**
 * A visit as « Facturer une visite » lists it (issue 37, decision 0088): enough to pick the one to bill — its date,
 * department and status, and its live invoice if any; no reason, triage or doctor (the cash desk may not read the
 * visit itself).
 */
export const ZInvoiceVisit = z.object({
  id: z.uuid(),
  admitted_at: zDateTime,
  department: z.string(),
  status: z.enum(ADMISSION_STATUSES),
  /** The visit's live invoice (a draft or issued; a visit billed with its stay has none of its own), else null. */
  invoice: z.object({ id: z.uuid(), status: z.enum(['draft', 'issued']) }).nullable(),
});
export type TInvoiceVisit = z.infer<typeof ZInvoiceVisit>;
export const ZInvoiceVisitList = zPage(ZInvoiceVisit);
/** The patient's visits in this hospital, newest first. */
export const ZInvoiceVisitQuery = ZPageQuery.extend({ patient: z.uuid() });

export const ZInvoiceAssemble = z
  .object({
    admission: z.uuid().nullish(),
    hospitalization: z.uuid().nullish(),
    /** Default: the current coverage's payer category, else `private`. */
    payer_category: z.enum(PAYER_CATEGORIES).nullish(),
    /** Which of the patient's coverages pays (default: the current one, if any; null with `no_coverage`). */
    coverage: z.uuid().nullish(),
    no_coverage: z.boolean().optional(),
  })
  .strict()
  .refine((v) => !!v.admission !== !!v.hospitalization, {
    path: ['admission'],
    message: 'billing.visit_or_stay',
  });
export type TInvoiceAssemble = z.input<typeof ZInvoiceAssemble>;

export const ZInvoiceLineCreate = z
  .object({ act: z.uuid(), quantity: z.number().int().min(1).max(1000).default(1) })
  .strict();
export type TInvoiceLineCreate = z.input<typeof ZInvoiceLineCreate>;
export const ZInvoiceLineRemove = z.object({ reason }).strict();
/** Discount on a line, in minor units (≤ the line's gross; 0 removes it) with who (the caller) and why. */
export const ZInvoiceLineDiscount = z.object({ amount: zMinor, reason }).strict();
export const ZInvoiceCancel = z.object({ reason }).strict();
/** A credit note for the whole invoice, or for some of its lines (ids of the invoice's lines). */
export const ZCreditNoteCreate = z
  .object({ reason, lines: z.array(z.uuid()).min(1).max(500).optional() })
  .strict();
export type TCreditNoteCreate = z.input<typeof ZCreditNoteCreate>;
export const ZInvoiceLineParams = z.object({ id: z.uuid(), line_id: z.uuid() });

// Payments and receipts -----------------------------------------------------------------------------------

/** What an invoice asks of the patient and what is paid: on a receipt and under a stay's deposits. */
const ZInvoiceMoney = z.object({
  id: z.uuid(),
  number: z.string().nullable(),
  patient_share: z.number().int(),
  paid: z.number().int(),
  balance: z.number().int(),
});

/** A payer's phone number (mobile money). */
const zPhone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 .-]{6,20}$/, 'billing.phone_invalid');

/** The fields of a payment and of a deposit (a deposit is a payment on the stay's invoice, decision 0036). */
const paymentFields = {
  method: z.enum(PAYMENT_METHODS),
  /** Default: the invoice's currency. */
  currency: zCurrency.nullish(),
  /** Minor units of `currency`, > 0. */
  amount: zMinor.min(1),
  /**
   * When `currency` is not the invoice's: the rate typed by the cashier; without it, the hospital's rate of the
   * day from its exchange-rate table (decision 0040).
   */
  rate: zRate.nullish(),
  /** Mobile money: operator, payer's phone and the operator's transaction reference are required. */
  operator: z.enum(MOBILE_MONEY_OPERATORS).nullish(),
  phone: zPhone.nullish(),
  /** Transaction reference (mobile money, card slip, transfer, cheque number); unique per hospital and operator. */
  reference: z.string().trim().min(3).max(64).nullish(),
  note: z.string().trim().max(500).nullish(),
  /**
   * Cash only (issue 37, decision 0079): what the patient handed over, minor units of `currency`, at least `amount`;
   * the server computes and keeps the change due (`change_due`) and prints both on the receipt.
   */
  amount_tendered: zMinor.min(1).nullish(),
  /**
   * Take the payment although a mobile-money request of the invoice is pending (issue 36): without it the answer is
   * a 409 with `code: "mobile_money_pending"` and `pending_amount`.
   */
  confirm_pending: z.boolean().optional(),
};

function refinePayment(
  v: {
    method: PaymentMethod;
    operator?: unknown;
    phone?: unknown;
    reference?: unknown;
    amount: number;
    amount_tendered?: number | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  // Decision 0079: only cash is handed over (and has change); what is handed over covers the amount.
  if (v.amount_tendered !== null && v.amount_tendered !== undefined) {
    if (v.method !== 'cash')
      ctx.addIssue({ code: 'custom', path: ['amount_tendered'], message: 'billing.tendered_cash_only' });
    else if (changeDue(v.amount, v.amount_tendered) === null)
      ctx.addIssue({ code: 'custom', path: ['amount_tendered'], message: 'billing.tendered_short' });
  }
  if (v.method === 'mobile_money') {
    if (!v.operator)
      ctx.addIssue({ code: 'custom', path: ['operator'], message: 'billing.operator_required' });
    if (!v.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'billing.phone_required' });
    if (!v.reference)
      ctx.addIssue({ code: 'custom', path: ['reference'], message: 'billing.reference_required' });
  } else if (v.operator) {
    ctx.addIssue({ code: 'custom', path: ['operator'], message: 'billing.operator_mobile_only' });
  }
}

export const ZPaymentCreate = z
  .object({ invoice: z.uuid(), ...paymentFields })
  .strict()
  .superRefine(refinePayment);
export type TPaymentCreate = z.input<typeof ZPaymentCreate>;

/**
 * A deposit on admission (caution, avance; decision 0036): a payment on the stay's invoice, made a draft when the
 * stay has none yet, so the invoice's balance counts it. Same fields as a payment, without the invoice.
 */
export const ZDepositCreate = z.object(paymentFields).strict().superRefine(refinePayment);
export type TDepositCreate = z.input<typeof ZDepositCreate>;

/** The deposits of a stay (refunds of them included) and the invoice that counts them. */
export const ZStayDeposits = z.object({
  hospitalization: z.uuid(),
  currency: z.string(),
  invoice: ZInvoiceMoney.extend({ status: z.enum(INVOICE_STATUSES) }).nullable(),
  deposits: z.array(ZPaymentSummary),
  /** Net deposits in the invoice currency (refunds deducted). */
  total: z.number().int(),
});
export type TStayDeposits = z.infer<typeof ZStayDeposits>;

/**
 * A stay as the cash desk sees it (issue 37, decision 0088): enough to find the patient's open stay and take a
 * deposit — no reason, diagnosis, doctor or bed (the stay page stays the clinicians').
 */
export const ZDepositStay = z.object({
  id: z.uuid(),
  status: z.enum(['pending_bed', 'admitted']),
  patient: ZBillingPatient,
  department: z.string(),
  requested_at: zDateTime,
  admitted_at: zDateTime.nullable(),
});
export type TDepositStay = z.infer<typeof ZDepositStay>;
export const ZDepositStayList = zPage(ZDepositStay);
/** The open stays of the hospital; `search`: the patient's name or record number. */
export const ZDepositStayQuery = ZPageQuery.extend({ ...zSearch() });

/** A refund: a negative movement in the payment's currency (≤ what is left of it), with a reason. */
export const ZPaymentRefund = z.object({ amount: zMinor.min(1), reason }).strict();

export const ZPayment = ZPaymentSummary.extend({
  invoice: z.object({ id: z.uuid(), number: z.string().nullable() }),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  reason: z.string().nullable(),
  refunded_payment: z.uuid().nullable(),
  cash_session: z.uuid(),
  /** A cash payment: what the patient handed over and the change given back (issue 37, decision 0079); else null. */
  amount_tendered: z.number().int().nullable(),
  change_due: z.number().int().nullable(),
});
export type TPayment = z.infer<typeof ZPayment>;

export const ZReceipt = z.object({
  id: z.uuid(),
  /** `REC-HGG-2026-000123`. */
  number: z.string(),
  issued_at: zDateTime,
  hospital: z.object({ id: z.uuid(), name: z.string(), code: z.string() }),
  patient: ZBillingPatient,
  invoice: ZInvoiceMoney.extend({ currency: z.string() }),
  payment: ZPayment,
  /** A deposit's stay (its department and dates: a stay has no number of its own; decision 0088); else null. */
  stay: ZDepositStay.pick({ id: true, department: true, requested_at: true, admitted_at: true }).nullable(),
});
export type TReceipt = z.infer<typeof ZReceipt>;

// Cash desk ---------------------------------------------------------------------------------------------

export const ZCurrencyAmount = z.object({ currency: zCurrency, amount: zMinor });
export type TCurrencyAmount = z.infer<typeof ZCurrencyAmount>;

export const ZCashSession = z.object({
  id: z.uuid(),
  cashier: ZRef,
  status: z.enum(CASH_SESSION_STATUSES),
  opened_at: zDateTime,
  closed_at: zDateTime.nullable(),
  floats: z.array(ZCurrencyAmount),
  counted: z.array(ZCurrencyAmount).nullable(),
  note: z.string().nullable(),
});
export type TCashSession = z.infer<typeof ZCashSession>;
export const ZCashSessionList = zPage(ZCashSession);
export const ZCashSessionQuery = ZPageQuery.extend({
  status: z.enum(CASH_SESSION_STATUSES).optional(),
  cashier: z.uuid().optional(),
});

const uniqueCurrencies = (list: { currency: string }[]) =>
  new Set(list.map((f) => f.currency)).size === list.length;
export const ZCashSessionOpen = z
  .object({
    floats: z.array(ZCurrencyAmount).max(10).refine(uniqueCurrencies, 'billing.currency_twice').default([]),
  })
  .strict();
export type TCashSessionOpen = z.input<typeof ZCashSessionOpen>;
export const ZCashSessionClose = z
  .object({
    /** Cash counted in the drawer, per currency (a currency left out counts as 0). */
    counted: z.array(ZCurrencyAmount).max(10).refine(uniqueCurrencies, 'billing.currency_twice'),
    note: z.string().trim().max(1000).nullish(),
  })
  .strict();
export type TCashSessionClose = z.input<typeof ZCashSessionClose>;

export const ZCashSessionReport = z.object({
  session: ZCashSession,
  /** Cash only: float + cash received − cash refunded = expected; variance = counted − expected. */
  cash: z.array(
    z.object({
      currency: z.string(),
      float: z.number().int(),
      received: z.number().int(),
      refunded: z.number().int(),
      expected: z.number().int(),
      counted: z.number().int().nullable(),
      variance: z.number().int().nullable(),
    }),
  ),
  /** Every method (and mobile-money operator) per currency: count and net total. */
  by_method: z.array(
    z.object({
      method: z.enum(PAYMENT_METHODS),
      operator: z.enum(MOBILE_MONEY_OPERATORS).nullable(),
      currency: z.string(),
      count: z.number().int(),
      total: z.number().int(),
    }),
  ),
});
export type TCashSessionReport = z.infer<typeof ZCashSessionReport>;

// Payer statement ---------------------------------------------------------------------------------------

export const ZPayerStatementQuery = z
  .object({ from: z.iso.date(), to: z.iso.date() })
  .refine((v) => v.to >= v.from, {
    path: ['to'],
    message: 'billing.valid_to_before_from',
  });
export const ZPayerStatement = z.object({
  payer: z.object({ id: z.uuid(), code: z.string(), name: z.string(), kind: z.enum(PAYER_KINDS) }),
  from: z.iso.date(),
  to: z.iso.date(),
  currency: z.string(),
  /** Issued invoices and credit notes (negative) of the period with a payer share. */
  lines: z.array(
    z.object({
      invoice: z.uuid(),
      number: z.string().nullable(),
      kind: z.enum(INVOICE_KINDS),
      issued_at: zDateTime,
      patient: ZBillingPatient,
      member_number: z.string().nullable(),
      total: z.number().int(),
      payer_share: z.number().int(),
    }),
  ),
  total_payer_share: z.number().int(),
});
export type TPayerStatement = z.infer<typeof ZPayerStatement>;

/** The receipt numbers' and invoice numbers' prefixes. */
export const NUMBER_PREFIXES = { invoice: 'FAC', credit_note: 'AV', receipt: 'REC' } as const;
/** `FAC-HGG-2026-000123`. */
export function documentNumber(prefix: string, hospitalCode: string, year: number, n: number): string {
  return `${prefix}-${hospitalCode}-${year}-${String(n).padStart(6, '0')}`;
}

// Mobile money pushed to the phone (decision 0040) --------------------------------------------------------

export const MOBILE_MONEY_REQUEST_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type MobileMoneyRequestStatus = (typeof MOBILE_MONEY_REQUEST_STATUSES)[number];

/** "Request payment on the phone": in the invoice's currency, never above an issued invoice's balance. */
export const ZMobileMoneyRequestCreate = z
  .object({
    invoice: z.uuid(),
    operator: z.enum(MOBILE_MONEY_OPERATORS),
    phone: zPhone,
    amount: zMinor.min(1),
  })
  .strict();
export type TMobileMoneyRequestCreate = z.input<typeof ZMobileMoneyRequestCreate>;

export const ZMobileMoneyRequest = z.object({
  id: z.uuid(),
  invoice: z.uuid(),
  operator: z.enum(MOBILE_MONEY_OPERATORS),
  phone: z.string(),
  currency: z.string(),
  amount: z.number().int(),
  status: z.enum(MOBILE_MONEY_REQUEST_STATUSES),
  provider_reference: z.string().nullable(),
  /** The payment a confirmation recorded and its receipt. */
  payment: z.object({ id: z.uuid(), receipt: z.object({ id: z.uuid(), number: z.string() }) }).nullable(),
  failure_reason: z.string().nullable(),
  created_at: zDateTime,
  completed_at: zDateTime.nullable(),
});
export type TMobileMoneyRequest = z.infer<typeof ZMobileMoneyRequest>;

export const ZMobileMoneyOperatorParams = z.object({ operator: z.enum(MOBILE_MONEY_OPERATORS) });

/**
 * The operator's callback (what a connector maps its provider's format to): signed with `X-Timestamp` (Unix
 * seconds) and `X-Signature` = hex HMAC-SHA256 of `timestamp + "." + raw body` with the hospital's secret for the
 * operator; accepted within 5 minutes of our clock. `request_id` is the id we sent with the request.
 */
export const ZMobileMoneyCallback = z
  .object({
    request_id: z.uuid(),
    transaction_id: z
      .string()
      .trim()
      .min(3)
      .max(64)
      .regex(/^[A-Za-z0-9._:-]+$/),
    status: z.enum(['succeeded', 'failed']),
    amount: zMinor.min(1),
    currency: zCurrency,
    reason: z.string().trim().max(200).nullish(),
  })
  .strict();
export type TMobileMoneyCallback = z.input<typeof ZMobileMoneyCallback>;

/** The answer to a callback: the request's state; `duplicate` when it had already been handled (nothing changed). */
export const ZMobileMoneyCallbackAck = z.object({
  status: z.enum(MOBILE_MONEY_REQUEST_STATUSES),
  duplicate: z.boolean(),
});

// Exchange rates (decision 0040) -------------------------------------------------------------------------

/** A rate from a day: units of the hospital's currency for one major unit of `base`, in force until the next one. */
export const ZExchangeRateCreate = z
  .object({
    base: zCurrency,
    rate: zRate,
    valid_on: z.iso.date(),
    note: z.string().trim().max(300).nullish(),
  })
  .strict();
export type TExchangeRateCreate = z.input<typeof ZExchangeRateCreate>;

export const ZExchangeRate = z.object({
  id: z.uuid(),
  base: z.string(),
  /** The hospital's currency. */
  quote: z.string(),
  rate: z.string(),
  valid_on: z.iso.date(),
  note: z.string().nullable(),
  set_by: ZRef,
  created_at: zDateTime,
});
export type TExchangeRate = z.infer<typeof ZExchangeRate>;
export const ZExchangeRateList = zPage(ZExchangeRate);
export const ZExchangeRateQuery = ZPageQuery.extend({ base: zCurrency.optional() });
export const ZExchangeRatesCurrentQuery = z.object({ on: z.iso.date().optional() });
/** The rate in force on a day (the hospital's today by default) for each currency that has one. */
export const ZExchangeRatesCurrent = z.object({
  on: z.iso.date(),
  quote: z.string(),
  rates: z.array(ZExchangeRate),
});
export type TExchangeRatesCurrent = z.infer<typeof ZExchangeRatesCurrent>;
