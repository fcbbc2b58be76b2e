import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { consultations, patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { hospitalizations } from './inpatient.js';
import { users } from './people.js';
import { departments, hospitalRef } from './structure.js';

/**
 * Pharmacy (issue 18, docs/decisions/0022-pharmacy-roles.md): the medication reference (global), prescriptions,
 * stock by lot and its append-only ledger. The guarantees are in the database: a lot's `on_hand` never goes
 * below zero (CHECK), it only moves through the ledger (the trigger of migration 0017 applies each movement to
 * its lot and to the per-presentation summary `stock_items`), and the ledger refuses UPDATE, DELETE, TRUNCATE.
 */

// The values of the contracts' lists (contracts/pharmacy.ts; drizzle-kit cannot load the shared package):
// pharmacy.reference.test.ts checks they are the same.
export const dosageForm = pgEnum('dosage_form', [
  'tablet',
  'dispersible_tablet',
  'capsule',
  'oral_solution',
  'oral_suspension',
  'syrup',
  'powder_oral',
  'injection',
  'infusion',
  'suppository',
  'cream',
  'ointment',
  'eye_drops',
  'ear_drops',
  'inhaler',
  'nebuliser_solution',
  'pessary',
  'implant',
  'other',
]);
export const medicationRoute = pgEnum('medication_route', [
  'oral',
  'iv',
  'im',
  'sc',
  'rectal',
  'topical',
  'ophthalmic',
  'otic',
  'inhaled',
  'vaginal',
  'sublingual',
  'other',
]);
export const prescriptionStatus = pgEnum('prescription_status', [
  'draft',
  'signed',
  'partially_dispensed',
  'dispensed',
  'cancelled',
]);
export const movementKind = pgEnum('stock_movement_kind', [
  'receipt',
  'dispense',
  'transfer_out',
  'transfer_in',
  'adjustment',
  'expiry_writeoff',
  'inventory',
]);

/** A substance or fixed-dose combination of the reference (shipped, or imported from a national list). */
export const medications = pgTable(
  'medications',
  {
    id: id(),
    /** Stable key of the reference (`paracetamol`, `artemether-lumefantrine`): what loads and imports upsert on. */
    code: text('code').notNull().unique(),
    innFr: text('inn_fr').notNull(),
    innEn: text('inn_en').notNull(),
    atcCode: text('atc_code'),
    groupFr: text('group_fr').notNull(),
    groupEn: text('group_en').notNull(),
    brands: text('brands').array().notNull().default(sql`'{}'::text[]`),
    allergyClasses: text('allergy_classes').array().notNull().default(sql`'{}'::text[]`),
    essential: boolean('essential').notNull().default(true),
    /** INNs, ATC code and brands in one text: what the trigram index searches (kept by the loaders). */
    searchText: text('search_text').notNull(),
    /** `shipped` (the reference of the product) or `imported` (a national list). */
    source: text('source').notNull().default('shipped'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    index('medications_search_trgm_idx').using('gin', sql`f_unaccent(lower(search_text)) gin_trgm_ops`),
    index('medications_atc_idx').on(sql`atc_code collate "C"`),
  ],
);

/** One way a medicine is supplied; its `unit` is what stock and dispensing count. */
export const medicationPresentations = pgTable(
  'medication_presentations',
  {
    id: id(),
    medicationId: uuid('medication_id')
      .notNull()
      .references(() => medications.id),
    /** Stable key (`paracetamol:tablet:500 mg`). */
    code: text('code').notNull().unique(),
    form: dosageForm('form').notNull(),
    strength: text('strength').notNull(),
    route: medicationRoute('route').notNull(),
    unit: text('unit').notNull(),
    paediatric: boolean('paediatric').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: smallint('sort_order').notNull().default(0),
  },
  (t) => [index('medication_presentations_medication_idx').on(t.medicationId, t.sortOrder)],
);

/** A prescription (ordonnance): `draft → signed → partially_dispensed | dispensed`, or `cancelled`. */
export const prescriptions = pgTable(
  'prescriptions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    /** `ORD-HGG-2026-000123` (hospital sequence `prescription:<year>`). */
    number: text('number').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    prescriberId: uuid('prescriber_id')
      .notNull()
      .references(() => users.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    consultationId: uuid('consultation_id').references(() => consultations.id),
    hospitalizationId: uuid('hospitalization_id').references(() => hospitalizations.id),
    status: prescriptionStatus('status').notNull().default('draft'),
    weightKg: numeric('weight_kg', { precision: 5, scale: 2, mode: 'number' }),
    notes: text('notes'),
    version: integer('version').notNull().default(1),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('prescriptions_number_uq').on(t.hospitalId, t.number),
    check(
      'prescriptions_origin_ck',
      sql`${t.consultationId} is not null or ${t.hospitalizationId} is not null`,
    ),
    check('prescriptions_signed_ck', sql`${t.status} in ('draft', 'cancelled') or ${t.signedAt} is not null`),
    index('prescriptions_hospital_status_idx').on(t.hospitalId, t.status, t.createdAt.desc()),
    index('prescriptions_patient_idx').on(t.patientId, t.createdAt.desc()),
    index('prescriptions_prescriber_idx').on(t.prescriberId, t.createdAt.desc()),
    index('prescriptions_consultation_idx').on(t.consultationId),
    index('prescriptions_hospitalization_idx').on(t.hospitalizationId),
  ],
);

export const prescriptionLines = pgTable(
  'prescription_lines',
  {
    id: id(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    position: smallint('position').notNull(),
    medicationId: uuid('medication_id')
      .notNull()
      .references(() => medications.id),
    presentationId: uuid('presentation_id')
      .notNull()
      .references(() => medicationPresentations.id),
    dose: numeric('dose', { precision: 10, scale: 3, mode: 'number' }).notNull(),
    doseUnit: text('dose_unit').notNull(),
    route: medicationRoute('route').notNull(),
    frequency: jsonb('frequency').$type<Record<string, unknown>>().notNull(),
    durationDays: smallint('duration_days'),
    quantity: integer('quantity').notNull(),
    /** Units handed out so far (all presentations of the line's medicine): never above `quantity`. */
    dispensedQuantity: integer('dispensed_quantity').notNull().default(0),
    instructions: text('instructions'),
    allergyOverrideReason: text('allergy_override_reason'),
    /**
     * A first dose given now ("stat", issue 34): the line's later doses are timed from it by its frequency
     * instead of from the signature and the ward's round times.
     */
    firstDoseAt: timestamp('first_dose_at', { withTimezone: true }),
    /**
     * The pharmacist's refusal to dispense the line (issue 34): who, when and why. A refused line is no longer
     * to dispense; dispensing it is refused (409).
     */
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    refusedBy: uuid('refused_by').references(() => users.id),
    refusalReason: text('refusal_reason'),
  },
  (t) => [
    uniqueIndex('prescription_lines_position_uq').on(t.prescriptionId, t.position),
    check(
      'prescription_lines_dispensed_ck',
      sql`${t.dispensedQuantity} >= 0 and ${t.dispensedQuantity} <= ${t.quantity}`,
    ),
    check('prescription_lines_quantity_ck', sql`${t.quantity} > 0`),
    check(
      'prescription_lines_refusal_ck',
      sql`(${t.refusedAt} is null and ${t.refusedBy} is null and ${t.refusalReason} is null)
        or (${t.refusedAt} is not null and ${t.refusedBy} is not null and length(${t.refusalReason}) >= 5)`,
    ),
    index('prescription_lines_medication_idx').on(t.medicationId),
  ],
);

/** A lot of a presentation in a pharmacy department; `on_hand` is the sum of its ledger rows. */
export const stockLots = pgTable(
  'stock_lots',
  {
    id: id(),
    hospitalId: hospitalRef(),
    pharmacyId: uuid('pharmacy_id')
      .notNull()
      .references(() => departments.id),
    presentationId: uuid('presentation_id')
      .notNull()
      .references(() => medicationPresentations.id),
    lotNumber: text('lot_number').notNull(),
    expiryDate: date('expiry_date').notNull(),
    /** Moved only by the ledger's trigger; never negative, whatever the code does. */
    onHand: integer('on_hand').notNull().default(0),
    unitCost: numeric('unit_cost', { precision: 14, scale: 2, mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('stock_lots_on_hand_ck', sql`${t.onHand} >= 0`),
    uniqueIndex('stock_lots_lot_uq').on(t.pharmacyId, t.presentationId, t.lotNumber),
    // First-expiry-first-out, and the stock of a pharmacy by presentation.
    index('stock_lots_fefo_idx').on(t.pharmacyId, t.presentationId, t.expiryDate),
    index('stock_lots_presentation_idx').on(t.presentationId).where(sql`${t.onHand} > 0`),
    index('stock_lots_expiry_idx').on(t.hospitalId, t.expiryDate).where(sql`${t.onHand} > 0`),
  ],
);

/**
 * One presentation in one pharmacy: the sums over its lots, kept by the ledger's trigger (so that the stock page
 * never scans lots or the ledger), and the reorder level set by the pharmacy.
 */
export const stockItems = pgTable(
  'stock_items',
  {
    hospitalId: hospitalRef(),
    pharmacyId: uuid('pharmacy_id')
      .notNull()
      .references(() => departments.id),
    presentationId: uuid('presentation_id')
      .notNull()
      .references(() => medicationPresentations.id),
    onHand: integer('on_hand').notNull().default(0),
    /** Lots with units left. */
    lots: integer('lots').notNull().default(0),
    /** The nearest expiry among lots with units left. */
    nearestExpiry: date('nearest_expiry'),
    reorderLevel: integer('reorder_level'),
    /** The medicine's unaccented French INN and the presentation's order: the stock page's order (trigger). */
    sortKey: text('sort_key').notNull().default(''),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.pharmacyId, t.presentationId] }),
    // A page of a pharmacy's stock in name order is an index range, however many presentations it holds.
    index('stock_items_pharmacy_sort_idx').on(t.pharmacyId, t.sortKey, t.presentationId),
    check('stock_items_on_hand_ck', sql`${t.onHand} >= 0`),
    index('stock_items_presentation_idx').on(t.presentationId),
  ],
);

/** The ledger: append-only (migration 0017 refuses UPDATE, DELETE and TRUNCATE), signed quantities. */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: id(),
    hospitalId: hospitalRef(),
    pharmacyId: uuid('pharmacy_id')
      .notNull()
      .references(() => departments.id),
    lotId: uuid('lot_id')
      .notNull()
      .references(() => stockLots.id),
    presentationId: uuid('presentation_id')
      .notNull()
      .references(() => medicationPresentations.id),
    kind: movementKind('kind').notNull(),
    quantity: integer('quantity').notNull(),
    reference: text('reference'),
    reason: text('reason'),
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id),
    prescriptionLineId: uuid('prescription_line_id').references(() => prescriptionLines.id),
    byId: uuid('by_id')
      .notNull()
      .references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // An inventory count that finds the expected quantity is recorded too (0); every other movement moves units.
    check('stock_movements_quantity_ck', sql`${t.quantity} <> 0 or ${t.kind} = 'inventory'`),
    check(
      'stock_movements_sign_ck',
      sql`(${t.kind} in ('receipt', 'transfer_in') and ${t.quantity} > 0) or (${t.kind} in ('dispense', 'transfer_out', 'expiry_writeoff') and ${t.quantity} < 0) or ${t.kind} in ('adjustment', 'inventory')`,
    ),
    index('stock_movements_lot_idx').on(t.lotId, t.at.desc()),
    index('stock_movements_pharmacy_idx').on(t.pharmacyId, t.at.desc()),
    index('stock_movements_presentation_idx').on(t.presentationId, t.at.desc()),
    index('stock_movements_prescription_idx').on(t.prescriptionId),
    // The reporting summaries (a hospital's movements of a day).
    index('stock_movements_hospital_at_idx').on(t.hospitalId, t.at),
  ],
);
