import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { admissions, patients, sex } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { hospitalizations } from './inpatient.js';
import { users } from './people.js';
import { medicationPresentations } from './pharmacy.js';
import { examCatalogue } from './records.js';
import { hospitalRef } from './structure.js';

/**
 * Medical acts and billing (issue 21, docs/decisions/0027-billing-roles.md). Amounts are `bigint` minor units of
 * their currency (never floating point). The guarantees live in the database:
 * - an act's tariffs for one payer category never overlap in time (exclusion constraint, btree_gist);
 * - a performed act is derived once per source (unique `(source, source_ref)`), and billed once (unique open line);
 * - one invoice per visit or stay that is not cancelled; numbers unique per hospital; an issued invoice's lines
 *   and amounts cannot change (triggers of the `billing` migration);
 * - a payment needs an open cash session (trigger), a transaction reference is unique per hospital and operator,
 *   payments are append-only (refunds are negative rows); one open cash session per cashier.
 */

// The values of the contracts' lists (contracts/medical-acts.ts and billing.ts; drizzle-kit cannot load the
// shared package): billing.schema.test.ts checks they are the same.
export const actCategory = pgEnum('act_category', [
  'consultation',
  'procedure',
  'imaging',
  'laboratory',
  'surgery',
  'delivery',
  'bed_day',
  'nursing',
  'medicine',
  'other',
]);
export const payerCategory = pgEnum('payer_category', ['private', 'insured', 'staff', 'indigent']);
export const actSource = pgEnum('act_source', ['manual', 'consultation', 'exam', 'bed_day', 'dispensation']);
export const payerKind = pgEnum('payer_kind', ['insurer', 'mutual', 'employer', 'free_care']);
export const invoiceKind = pgEnum('invoice_kind', ['invoice', 'credit_note']);
export const invoiceStatus = pgEnum('invoice_status', ['draft', 'issued', 'cancelled']);
export const paymentMethod = pgEnum('payment_method', [
  'cash',
  'card',
  'bank_transfer',
  'cheque',
  'mobile_money',
]);
export const mobileMoneyOperator = pgEnum('mobile_money_operator', [
  'orange_money',
  'mtn_momo',
  'airtel_money',
  'mpesa',
  'wave',
  'moov_money',
]);
export const paymentKind = pgEnum('payment_kind', ['payment', 'refund']);
export const cashSessionStatus = pgEnum('cash_session_status', ['open', 'closed']);

const money = (name: string) => bigint(name, { mode: 'number' });

/** The hospital's catalogue of acts. */
export const medicalActs = pgTable(
  'medical_acts',
  {
    id: id(),
    hospitalId: hospitalRef(),
    code: text('code').notNull(),
    labelFr: text('label_fr').notNull(),
    labelEn: text('label_en').notNull(),
    category: actCategory('category').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** `consultation` or `bed_day`: the act each completed consultation / each day of a stay derives. */
    autoSource: text('auto_source'),
    examId: uuid('exam_id').references(() => examCatalogue.id),
    presentationId: uuid('presentation_id').references(() => medicationPresentations.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('medical_acts_code_uq').on(t.hospitalId, t.code),
    check(
      'medical_acts_auto_source_ck',
      sql`${t.autoSource} is null or ${t.autoSource} in ('consultation', 'bed_day')`,
    ),
    // Derivation finds one act per source: one active act per auto source, exam and presentation.
    uniqueIndex('medical_acts_auto_source_uq')
      .on(t.hospitalId, t.autoSource)
      .where(sql`${t.autoSource} is not null and ${t.isActive}`),
    uniqueIndex('medical_acts_exam_uq')
      .on(t.hospitalId, t.examId)
      .where(sql`${t.examId} is not null and ${t.isActive}`),
    uniqueIndex('medical_acts_presentation_uq')
      .on(t.hospitalId, t.presentationId)
      .where(sql`${t.presentationId} is not null and ${t.isActive}`),
    index('medical_acts_category_idx').on(t.hospitalId, t.category, t.code),
  ],
);

/** A price of an act for a payer category over a validity period (`valid_to` inclusive, null: open). */
export const actTariffs = pgTable(
  'act_tariffs',
  {
    id: id(),
    hospitalId: hospitalRef(),
    actId: uuid('act_id')
      .notNull()
      .references(() => medicalActs.id),
    payerCategory: payerCategory('payer_category').notNull(),
    price: money('price').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from').notNull(),
    validTo: date('valid_to'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('act_tariffs_price_ck', sql`${t.price} >= 0`),
    check('act_tariffs_validity_ck', sql`${t.validTo} is null or ${t.validTo} >= ${t.validFrom}`),
    // The no-overlap exclusion constraint is in the migration (drizzle cannot express it).
    index('act_tariffs_act_idx').on(t.actId, t.payerCategory, t.validFrom.desc()),
  ],
);

/** An act done for a visit or a stay: recorded by hand, or derived from what the journey recorded. */
export const performedActs = pgTable(
  'performed_acts',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    actId: uuid('act_id')
      .notNull()
      .references(() => medicalActs.id),
    admissionId: uuid('admission_id').references(() => admissions.id),
    hospitalizationId: uuid('hospitalization_id').references(() => hospitalizations.id),
    quantity: integer('quantity').notNull().default(1),
    source: actSource('source').notNull(),
    /** What it was derived from: a consultation, an exam order, `<stay>:<day>`, a stock movement (manual: null). */
    sourceRef: text('source_ref'),
    performedAt: timestamp('performed_at', { withTimezone: true }).notNull().defaultNow(),
    performedBy: uuid('performed_by').references(() => users.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    check('performed_acts_quantity_ck', sql`${t.quantity} > 0`),
    check('performed_acts_origin_ck', sql`(${t.admissionId} is null) <> (${t.hospitalizationId} is null)`),
    check('performed_acts_source_ck', sql`(${t.source} = 'manual') = (${t.sourceRef} is null)`),
    check('performed_acts_cancel_ck', sql`(${t.cancelledAt} is null) = (${t.cancelReason} is null)`),
    // Deriving twice adds nothing.
    uniqueIndex('performed_acts_source_uq')
      .on(t.hospitalId, t.source, t.sourceRef)
      .where(sql`${t.sourceRef} is not null`),
    index('performed_acts_admission_idx').on(t.admissionId).where(sql`${t.admissionId} is not null`),
    index('performed_acts_hospitalization_idx')
      .on(t.hospitalizationId)
      .where(sql`${t.hospitalizationId} is not null`),
    index('performed_acts_patient_idx').on(t.patientId, t.performedAt.desc()),
  ],
);

/** Who pays besides the patient: an insurer, a mutual fund, an employer, a free-care programme. */
export const payers = pgTable(
  'payers',
  {
    id: id(),
    hospitalId: hospitalRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: payerKind('kind').notNull(),
    payerCategory: payerCategory('payer_category').notNull().default('insured'),
    contact: text('contact'),
    isActive: boolean('is_active').notNull().default(true),
    /** Eligibility of a programme: patients under this age (years) at the visit, of this sex. */
    maxAgeYears: smallint('max_age_years'),
    eligibleSex: sex('eligible_sex'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payers_code_uq').on(t.hospitalId, t.code),
    check('payers_age_ck', sql`${t.maxAgeYears} is null or ${t.maxAgeYears} between 0 and 120`),
  ],
);

/** Coverage rate and ceiling of a payer for one act category. */
export const payerRules = pgTable(
  'payer_rules',
  {
    id: id(),
    payerId: uuid('payer_id')
      .notNull()
      .references(() => payers.id),
    category: actCategory('category').notNull(),
    ratePercent: smallint('rate_percent').notNull(),
    /** Most the payer pays for the category on one invoice (minor units); null: no ceiling. */
    ceiling: money('ceiling'),
  },
  (t) => [
    uniqueIndex('payer_rules_category_uq').on(t.payerId, t.category),
    check('payer_rules_rate_ck', sql`${t.ratePercent} between 0 and 100`),
    check('payer_rules_ceiling_ck', sql`${t.ceiling} is null or ${t.ceiling} >= 0`),
  ],
);

/** A patient's membership of a payer (member number, validity). */
export const patientCoverages = pgTable(
  'patient_coverages',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    payerId: uuid('payer_id')
      .notNull()
      .references(() => payers.id),
    memberNumber: text('member_number').notNull(),
    validFrom: date('valid_from').notNull(),
    validTo: date('valid_to'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('patient_coverages_validity_ck', sql`${t.validTo} is null or ${t.validTo} >= ${t.validFrom}`),
    uniqueIndex('patient_coverages_uq').on(t.patientId, t.payerId, t.validFrom),
    index('patient_coverages_patient_idx').on(t.patientId),
    index('patient_coverages_payer_idx').on(t.payerId),
  ],
);

/** An invoice of a visit or a stay, or a credit note correcting an issued invoice. */
export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    hospitalId: hospitalRef(),
    /** `FAC-HGG-2026-000123` / `AV-…`, taken when issued (hospital sequence `invoice:<year>`, `credit_note:<year>`). */
    number: text('number'),
    kind: invoiceKind('kind').notNull().default('invoice'),
    status: invoiceStatus('status').notNull().default('draft'),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    admissionId: uuid('admission_id').references(() => admissions.id),
    hospitalizationId: uuid('hospitalization_id').references(() => hospitalizations.id),
    currency: text('currency').notNull(),
    payerCategory: payerCategory('payer_category').notNull().default('private'),
    payerId: uuid('payer_id').references(() => payers.id),
    coverageId: uuid('coverage_id').references(() => patientCoverages.id),
    memberNumber: text('member_number'),
    total: money('total').notNull().default(0),
    payerShare: money('payer_share').notNull().default(0),
    patientShare: money('patient_share').notNull().default(0),
    /** Net payments in the invoice currency (kept with each payment, under the invoice's row lock). */
    paid: money('paid').notNull().default(0),
    /** Patient share of the credit notes against it (≤ 0). */
    creditedPatientShare: money('credited_patient_share').notNull().default(0),
    creditedInvoiceId: uuid('credited_invoice_id'),
    creditReason: text('credit_reason'),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    issuedBy: uuid('issued_by').references(() => users.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_uq').on(t.hospitalId, t.number).where(sql`${t.number} is not null`),
    // One invoice per visit or stay, unless cancelled (credit notes reference the same visit).
    uniqueIndex('invoices_admission_uq')
      .on(t.admissionId)
      .where(sql`${t.kind} = 'invoice' and ${t.status} <> 'cancelled' and ${t.admissionId} is not null`),
    uniqueIndex('invoices_hospitalization_uq')
      .on(t.hospitalizationId)
      .where(
        sql`${t.kind} = 'invoice' and ${t.status} <> 'cancelled' and ${t.hospitalizationId} is not null`,
      ),
    check('invoices_origin_ck', sql`(${t.admissionId} is null) <> (${t.hospitalizationId} is null)`),
    check(
      'invoices_issued_ck',
      sql`(${t.status} = 'issued') = (${t.number} is not null and ${t.issuedAt} is not null)`,
    ),
    check('invoices_cancel_ck', sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null)`),
    check(
      'invoices_credit_ck',
      sql`(${t.kind} = 'credit_note') = (${t.creditedInvoiceId} is not null) and (${t.kind} = 'invoice' or ${t.status} <> 'cancelled')`,
    ),
    check('invoices_shares_ck', sql`${t.payerShare} + ${t.patientShare} = ${t.total}`),
    // The list's filters: by patient, by date, by status, by number (the unique index), credit notes of an invoice.
    // The date and patient indexes are in the list's exact order (`created_at desc, id desc`, nulls first as SQL's
    // `desc` means): the page is read from the index and stops at its last row instead of sorting the filter's rows.
    index('invoices_hospital_created_idx').on(
      t.hospitalId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('invoices_hospital_status_idx').on(t.hospitalId, t.status, t.createdAt.desc()),
    index('invoices_patient_idx').on(t.patientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('invoices_credited_idx').on(t.creditedInvoiceId).where(sql`${t.creditedInvoiceId} is not null`),
    index('invoices_payer_issued_idx').on(t.payerId, t.issuedAt).where(sql`${t.payerId} is not null`),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: id(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    position: integer('position').notNull(),
    actId: uuid('act_id')
      .notNull()
      .references(() => medicalActs.id),
    /** Snapshots: a later change of the catalogue never rewrites a line. */
    code: text('code').notNull(),
    labelFr: text('label_fr').notNull(),
    labelEn: text('label_en').notNull(),
    category: actCategory('category').notNull(),
    performedActId: uuid('performed_act_id').references(() => performedActs.id),
    /** The line of the issued invoice a credit-note line corrects. */
    creditedLineId: uuid('credited_line_id'),
    quantity: integer('quantity').notNull(),
    unitPrice: money('unit_price').notNull(),
    discount: money('discount').notNull().default(0),
    discountReason: text('discount_reason'),
    discountBy: uuid('discount_by').references(() => users.id),
    total: money('total').notNull(),
    payerShare: money('payer_share').notNull().default(0),
    patientShare: money('patient_share').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: uuid('removed_by').references(() => users.id),
    removedReason: text('removed_reason'),
  },
  (t) => [
    uniqueIndex('invoice_lines_position_uq').on(t.invoiceId, t.position),
    // A performed act is on one live line at most (cancelling a draft removes its lines).
    uniqueIndex('invoice_lines_performed_uq')
      .on(t.performedActId)
      .where(sql`${t.performedActId} is not null and ${t.removedAt} is null`),
    check('invoice_lines_quantity_ck', sql`${t.quantity} > 0`),
    check(
      'invoice_lines_discount_ck',
      sql`${t.discount} >= 0 and ${t.discount} <= abs(${t.quantity} * ${t.unitPrice})`,
    ),
    check('invoice_lines_discount_reason_ck', sql`${t.discount} = 0 or ${t.discountReason} is not null`),
    check(
      'invoice_lines_total_ck',
      sql`(${t.removedAt} is not null and ${t.total} = 0) or (${t.removedAt} is null and ${t.total} = ${t.quantity} * ${t.unitPrice} - sign(${t.unitPrice}) * ${t.discount})`,
    ),
    check('invoice_lines_shares_ck', sql`${t.payerShare} + ${t.patientShare} = ${t.total}`),
    check('invoice_lines_removed_ck', sql`(${t.removedAt} is null) = (${t.removedReason} is null)`),
    index('invoice_lines_credited_idx').on(t.creditedLineId).where(sql`${t.creditedLineId} is not null`),
  ],
);

/** A cashier's session at the cash desk: float per currency when opened, counted cash when closed. */
export const cashSessions = pgTable(
  'cash_sessions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    cashierId: uuid('cashier_id')
      .notNull()
      .references(() => users.id),
    status: cashSessionStatus('status').notNull().default('open'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    floats: jsonb('floats').$type<{ currency: string; amount: number }[]>().notNull().default([]),
    counted: jsonb('counted').$type<{ currency: string; amount: number }[]>(),
    note: text('note'),
  },
  (t) => [
    // One open session per cashier and hospital.
    uniqueIndex('cash_sessions_open_uq').on(t.hospitalId, t.cashierId).where(sql`${t.status} = 'open'`),
    check(
      'cash_sessions_closed_ck',
      sql`(${t.status} = 'closed') = (${t.closedAt} is not null and ${t.counted} is not null)`,
    ),
    index('cash_sessions_hospital_idx').on(t.hospitalId, t.openedAt.desc()),
    index('cash_sessions_cashier_idx').on(t.cashierId, t.openedAt.desc()),
  ],
);

/**
 * Money in (payments) and out (refunds: negative amounts), append-only. `amount` is in `currency`;
 * `amount_invoice` in the invoice's currency at `rate` (null when the same currency).
 */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    hospitalId: hospitalRef(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    cashSessionId: uuid('cash_session_id')
      .notNull()
      .references(() => cashSessions.id),
    kind: paymentKind('kind').notNull().default('payment'),
    method: paymentMethod('method').notNull(),
    operator: mobileMoneyOperator('operator'),
    phone: text('phone'),
    reference: text('reference'),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    rate: numeric('rate', { precision: 20, scale: 8 }),
    amountInvoice: money('amount_invoice').notNull(),
    refundedPaymentId: uuid('refunded_payment_id'),
    note: text('note'),
    reason: text('reason'),
    /** A deposit (caution, avance) taken against a stay before its invoice is issued (decision 0036). */
    isDeposit: boolean('is_deposit').notNull().default(false),
    /** Cash only: what the patient handed over and the change given back (issue 37, decision 0079). */
    amountTendered: money('amount_tendered'),
    changeDue: money('change_due'),
    receivedBy: uuid('received_by')
      .notNull()
      .references(() => users.id),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The same transaction reference is never recorded twice: per hospital and operator (mobile money), per
    // hospital and method otherwise (card slip, transfer, cheque number).
    uniqueIndex('payments_mobile_reference_uq')
      .on(t.hospitalId, t.operator, t.reference)
      .where(sql`${t.kind} = 'payment' and ${t.method} = 'mobile_money'`),
    uniqueIndex('payments_reference_uq')
      .on(t.hospitalId, t.method, t.reference)
      .where(sql`${t.kind} = 'payment' and ${t.method} <> 'mobile_money' and ${t.reference} is not null`),
    check(
      'payments_sign_ck',
      sql`(${t.kind} = 'payment' and ${t.amount} > 0 and ${t.amountInvoice} >= 0 and ${t.refundedPaymentId} is null) or (${t.kind} = 'refund' and ${t.amount} < 0 and ${t.amountInvoice} <= 0 and ${t.refundedPaymentId} is not null and ${t.reason} is not null)`,
    ),
    check(
      'payments_mobile_ck',
      sql`${t.method} <> 'mobile_money' or (${t.operator} is not null and ${t.phone} is not null and ${t.reference} is not null)`,
    ),
    check('payments_operator_ck', sql`${t.operator} is null or ${t.method} = 'mobile_money'`),
    check('payments_rate_ck', sql`${t.rate} is null or ${t.rate} > 0`),
    check('payments_deposit_ck', sql`not ${t.isDeposit} or ${t.kind} = 'payment'`),
    check(
      'payments_tendered_ck',
      sql`(${t.amountTendered} is null and ${t.changeDue} is null) or (${t.method} = 'cash' and ${t.kind} = 'payment' and ${t.amountTendered} >= ${t.amount} and ${t.changeDue} = ${t.amountTendered} - ${t.amount})`,
    ),
    index('payments_invoice_idx').on(t.invoiceId, t.receivedAt),
    index('payments_session_idx').on(t.cashSessionId),
    index('payments_refunded_idx').on(t.refundedPaymentId).where(sql`${t.refundedPaymentId} is not null`),
    index('payments_hospital_time_idx').on(t.hospitalId, t.receivedAt.desc()),
  ],
);

/** The numbered receipt of every payment and refund (`REC-HGG-2026-000123`). */
export const receipts = pgTable(
  'receipts',
  {
    id: id(),
    hospitalId: hospitalRef(),
    number: text('number').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('receipts_number_uq').on(t.hospitalId, t.number),
    uniqueIndex('receipts_payment_uq').on(t.paymentId),
  ],
);

export const mobileMoneyRequestStatus = pgEnum('mobile_money_request_status', [
  'pending',
  'succeeded',
  'failed',
]);

/**
 * The secret a mobile-money operator signs its callbacks with, per hospital (decision 0040): encrypted with the
 * server's `SECRETS_KEY` (AES-256-GCM, `v1:<iv>:<tag>:<ciphertext>` in base64url), never stored or logged in clear.
 * An HMAC is checked with the secret itself, so it cannot be kept as a one-way hash.
 */
export const mobileMoneySecrets = pgTable(
  'mobile_money_secrets',
  {
    id: id(),
    hospitalId: hospitalRef(),
    operator: mobileMoneyOperator('operator').notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('mobile_money_secrets_uq').on(t.hospitalId, t.operator)],
);

/**
 * "Request payment on the phone" (decision 0040): the cashier's request, pending until the operator's signed
 * callback confirms or fails it. The provider's transaction id arrives with the callback and is unique per
 * hospital and operator (as a manual reference is); a confirmed request points at its payment.
 */
export const mobileMoneyRequests = pgTable(
  'mobile_money_requests',
  {
    id: id(),
    hospitalId: hospitalRef(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    operator: mobileMoneyOperator('operator').notNull(),
    phone: text('phone').notNull(),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    status: mobileMoneyRequestStatus('status').notNull().default('pending'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    cashSessionId: uuid('cash_session_id')
      .notNull()
      .references(() => cashSessions.id),
    /** The provider's transaction id (from its callback). */
    providerReference: text('provider_reference'),
    paymentId: uuid('payment_id').references(() => payments.id),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mobile_money_requests_reference_uq')
      .on(t.hospitalId, t.operator, t.providerReference)
      .where(sql`${t.providerReference} is not null`),
    index('mobile_money_requests_invoice_idx').on(t.invoiceId, t.createdAt.desc()),
    // Issue 36: one pending request per invoice and phone (the digits of the phone: "+225 05…" is "+22505…").
    uniqueIndex('mobile_money_requests_pending_uq')
      .on(t.invoiceId, sql`regexp_replace(${t.phone}, '[^0-9]', '', 'g')`)
      .where(sql`${t.status} = 'pending'`),
    index('mobile_money_requests_requester_idx').on(t.hospitalId, t.requestedBy, t.createdAt.desc()),
    check('mobile_money_requests_amount_ck', sql`${t.amount} > 0`),
    check(
      'mobile_money_requests_done_ck',
      sql`(${t.status} = 'pending') = (${t.completedAt} is null) and (${t.status} <> 'succeeded' or ${t.providerReference} is not null)`,
    ),
  ],
);

/**
 * The hospital's exchange rates (decision 0040): units of `quote` (the hospital's currency) for one major unit of
 * `base`, in force from `valid_on` until the next one. Rows are never changed: a correction is a new row of the
 * same day (the newest of a day wins), so the history stays.
 */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    id: id(),
    hospitalId: hospitalRef(),
    base: text('base').notNull(),
    quote: text('quote').notNull(),
    rate: numeric('rate', { precision: 20, scale: 8 }).notNull(),
    validOn: date('valid_on').notNull(),
    setBy: uuid('set_by')
      .notNull()
      .references(() => users.id),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('exchange_rates_lookup_idx').on(
      t.hospitalId,
      t.base,
      t.quote,
      t.validOn.desc(),
      t.createdAt.desc(),
    ),
    check('exchange_rates_rate_ck', sql`${t.rate} > 0`),
    check('exchange_rates_pair_ck', sql`${t.base} <> ${t.quote}`),
  ],
);
