/**
 * Pharmacy and medications (issue 18): the medication reference, prescriptions with their safety checks, stock
 * by lot with an append-only ledger, dispensing against signed prescriptions, alerts.
 */
import { z } from 'zod';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

// Reference ----------------------------------------------------------------------------------------------

export const DOSAGE_FORMS = [
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
] as const;
export const ROUTES = [
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
] as const;
export type MedicationRoute = (typeof ROUTES)[number];

/** One way a medicine is supplied: form, strength, route and the unit it is counted and dispensed in. */
export const ZPresentation = z.object({
  id: z.uuid(),
  form: z.enum(DOSAGE_FORMS),
  /** As printed: "500 mg", "20 mg/120 mg", "60 mg/vial", "250 mg/5 mL". */
  strength: z.string(),
  route: z.enum(ROUTES),
  /** The counting unit of stock and dispensing: tablet, capsule, vial, ampoule, bottle, sachet, tube… */
  unit: z.string(),
  /** A presentation meant for children (dispersible, paediatric suspension…). */
  paediatric: z.boolean(),
  is_active: z.boolean(),
});
export type TPresentation = z.infer<typeof ZPresentation>;

export const ZMedication = z.object({
  id: z.uuid(),
  /** International non-proprietary name (DCI) in French and English. */
  inn_fr: z.string(),
  inn_en: z.string(),
  /** ATC code of the substance or combination (e.g. P01BF01). */
  atc_code: z.string().nullable(),
  /** Therapeutic group, for browsing ("Antipaludiques", "Antibiotiques"…) in both languages. */
  group_fr: z.string(),
  group_en: z.string(),
  brands: z.array(z.string()),
  /**
   * Allergy classes the substance belongs to (penicillins, beta_lactams, sulfonamides, nsaids, …): a recorded
   * allergy matching the substance or one of its classes blocks prescribing without a reason.
   */
  allergy_classes: z.array(z.string()),
  /** On the national essential medicines list (or the WHO model list) shipped with Greensen. */
  essential: z.boolean(),
  presentations: z.array(ZPresentation),
});
export type TMedication = z.infer<typeof ZMedication>;
export const ZMedicationList = zPage(ZMedication);
export const ZMedicationQuery = ZPageQuery.extend({
  /** INN (fr/en, accents and small typos tolerated), brand or ATC code. */
  ...zSearch(),
  atc: z.string().trim().max(10).optional(),
  /** Only medicines with stock in this pharmacy (the prescriber's "available" filter). */
  in_stock_at: z.uuid().optional(),
});

// Prescriptions ----------------------------------------------------------------------------------------

export const PRESCRIPTION_STATUSES = [
  'draft',
  'signed',
  'partially_dispensed',
  'dispensed',
  'cancelled',
] as const;
export type PrescriptionStatus = (typeof PRESCRIPTION_STATUSES)[number];

/** How often: n times a day, every n hours, once at night, as needed (with a maximum per day), or once. */
export const ZFrequency = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('times_per_day'), times: z.number().int().min(1).max(12) }),
  z.object({ kind: z.literal('every_hours'), hours: z.number().int().min(1).max(72) }),
  z.object({ kind: z.literal('at_night') }),
  z.object({ kind: z.literal('as_needed'), max_per_day: z.number().int().min(1).max(24) }),
  z.object({ kind: z.literal('once') }),
]);
export type TFrequency = z.infer<typeof ZFrequency>;

export const ZPrescriptionLineInput = z.object({
  presentation: z.uuid(),
  /** Amount per administration, in `dose_unit` (e.g. 1 tablet, 500 mg, 5 mL). */
  dose: z.number().positive().max(100_000),
  dose_unit: z.string().trim().min(1).max(20),
  route: z.enum(ROUTES),
  frequency: ZFrequency,
  /** Days of treatment (null: as needed without a set end, or a single dose). */
  duration_days: z.number().int().min(1).max(365).nullish(),
  /** Units of the presentation to dispense; computed from dose × frequency × duration when left out. */
  quantity: z.number().int().min(1).max(10_000).nullish(),
  instructions: z.string().trim().max(500).nullish(),
  /** Required to keep a line that matches a recorded allergy; shown to the pharmacist. */
  allergy_override_reason: z.string().trim().min(5).max(500).nullish(),
});
export type TPrescriptionLineInput = z.input<typeof ZPrescriptionLineInput>;

export const ZPrescriptionCreate = z
  .object({
    patient: z.uuid(),
    /** The consultation (or the stay) it is written in; at least one of them. */
    consultation: z.uuid().nullish(),
    hospitalization: z.uuid().nullish(),
    /** Body weight for paediatric doses, kg (defaults to the latest recent vitals). */
    weight_kg: z.number().positive().max(300).nullish(),
    notes: z.string().trim().max(2000).nullish(),
    lines: z.array(ZPrescriptionLineInput).min(1).max(30),
  })
  .strict();
export type TPrescriptionCreate = z.input<typeof ZPrescriptionCreate>;
/** A draft's new content (the lines are replaced as a whole); `version` guards concurrent edits. */
export const ZPrescriptionUpdate = z
  .object({
    version: z.number().int(),
    weight_kg: z.number().positive().max(300).nullish(),
    notes: z.string().trim().max(2000).nullish(),
    lines: z.array(ZPrescriptionLineInput).min(1).max(30),
  })
  .strict();
export const ZPrescriptionSign = z.object({ version: z.number().int() }).strict();
export const ZPrescriptionCancel = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
/**
 * The pharmacist refuses to dispense lines not fully dispensed (`null`: every such line of the prescription),
 * with a written reason (issue 34); the prescriber is told.
 */
export const ZPrescriptionRefuse = z
  .object({
    lines: z.array(z.uuid()).min(1).max(30).nullable(),
    reason: z.string().trim().min(5).max(500),
  })
  .strict();
export type TPrescriptionRefuse = z.infer<typeof ZPrescriptionRefuse>;

/** A warning of the safety checks: `blocking` ones stop signing until overridden with a reason. */
export const ZPrescriptionWarning = z.object({
  /** Index of the line in `lines`, or null for the whole prescription. */
  line: z.number().int().nullable(),
  kind: z.enum([
    'allergy',
    'duplicate',
    'weight_required',
    'expired_only',
    'out_of_stock',
    // Issue 34 (the full alerts are in `safety.alerts` / `ZSafetyAlert`).
    'dose',
    'interaction',
    'pregnancy',
  ]),
  blocking: z.boolean(),
  message: z.string(),
});
export type TPrescriptionWarning = z.infer<typeof ZPrescriptionWarning>;
/** Checks lines before saving (the form shows the warnings as the prescriber types). */
export const ZPrescriptionCheck = z
  .object({
    patient: z.uuid(),
    weight_kg: z.number().positive().max(300).nullish(),
    lines: z.array(ZPrescriptionLineInput).min(1).max(30),
    /** The prescription being edited (its own lines are not duplicates of themselves). */
    prescription: z.uuid().nullish(),
  })
  .strict();
export const ZPrescriptionCheckResult = z.object({
  warnings: z.array(ZPrescriptionWarning),
  /** The computed quantity of each line (when not given). */
  quantities: z.array(z.number().int().nullable()),
  /** The weight used (given, or from vitals of the last 30 days), kg. */
  weight_kg: z.number().nullable(),
});

export const ZPrescriptionLine = z.object({
  id: z.uuid(),
  medication: z.object({
    id: z.uuid(),
    inn_fr: z.string(),
    inn_en: z.string(),
    atc_code: z.string().nullable(),
  }),
  presentation: ZPresentation,
  dose: z.number(),
  dose_unit: z.string(),
  route: z.enum(ROUTES),
  frequency: ZFrequency,
  duration_days: z.number().int().nullable(),
  quantity: z.number().int(),
  dispensed_quantity: z.number().int(),
  instructions: z.string().nullable(),
  allergy_override_reason: z.string().nullable(),
  /** The pharmacist's refusal to dispense the line (issue 34): no longer to dispense. */
  refusal: z.object({ at: zDateTime, by: ZPersonRef, reason: z.string() }).nullable(),
});
export type TPrescriptionLine = z.infer<typeof ZPrescriptionLine>;

export const ZPrescription = z.object({
  id: z.uuid(),
  /** `ORD-HGG-2026-000123`: per hospital and year. */
  number: z.string(),
  status: z.enum(PRESCRIPTION_STATUSES),
  patient: ZPatientRef,
  prescriber: ZPersonRef,
  department: ZDepartmentRef,
  consultation: z.uuid().nullable(),
  hospitalization: z.uuid().nullable(),
  weight_kg: z.number().nullable(),
  notes: z.string().nullable(),
  lines: z.array(ZPrescriptionLine),
  warnings: z.array(ZPrescriptionWarning),
  version: z.number().int(),
  created_at: zDateTime,
  signed_at: zDateTime.nullable(),
  cancelled_at: zDateTime.nullable(),
  cancel_reason: z.string().nullable(),
  can: z.object({ edit: z.boolean(), sign: z.boolean(), cancel: z.boolean(), dispense: z.boolean() }),
});
export type TPrescription = z.infer<typeof ZPrescription>;
export const ZPrescriptionListItem = ZPrescription.omit({ lines: true, warnings: true }).extend({
  line_count: z.number().int(),
  /** A line was signed despite a known allergy (its prescriber gave a reason): the pharmacist checks it first. */
  allergy_override: z.boolean(),
  /** INN names of the lines, for the list. */
  summary: z.string(),
  /** Lines the pharmacy refused to dispense (issue 34). */
  refused_lines: z.number().int(),
  /** The patient has left (the stay is over) or died: flagged in the pharmacy's worklist (issue 34). */
  patient_left: z.boolean(),
  /** When the patient left (the stay's end, or the death); null while the patient is here. */
  patient_left_at: z.string().nullable(),
  /**
   * Written for an emergency visit (the consultation's or the stay's admission): first in the dispensing queue,
   * with its « Urgent » badge (issue 37).
   */
  urgent: z.boolean(),
});
export const ZPrescriptionList = zPage(ZPrescriptionListItem);
export const ZPrescriptionQuery = ZPageQuery.extend({
  patient: z.uuid().optional(),
  consultation: z.uuid().optional(),
  hospitalization: z.uuid().optional(),
  /** `to_dispense`: signed or partially dispensed (the pharmacy's worklist). */
  status: z.enum(['all', 'to_dispense', ...PRESCRIPTION_STATUSES]).default('all'),
  mine: zQueryBoolean.optional(),
});

// Stock --------------------------------------------------------------------------------------------------

export const MOVEMENT_KINDS = [
  'receipt',
  'dispense',
  'transfer_out',
  'transfer_in',
  'adjustment',
  'expiry_writeoff',
  'inventory',
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const ZLot = z.object({
  id: z.uuid(),
  pharmacy: ZDepartmentRef,
  medication: z.object({ id: z.uuid(), inn_fr: z.string(), inn_en: z.string() }),
  presentation: ZPresentation,
  lot_number: z.string(),
  expiry_date: z.iso.date(),
  on_hand: z.number().int(),
  unit_cost: z.number().nullable(),
  expired: z.boolean(),
});
export type TLot = z.infer<typeof ZLot>;
export const ZLotList = zPage(ZLot);
export const ZLotQuery = ZPageQuery.extend({
  pharmacy: z.uuid().optional(),
  presentation: z.uuid().optional(),
  /** Lots with units left only (default true). */
  available: zQueryBoolean.optional(),
});

/** One line of the stock page: a presentation in a pharmacy, summed over its lots. */
export const ZStockItem = z.object({
  pharmacy: ZDepartmentRef,
  medication: z.object({
    id: z.uuid(),
    inn_fr: z.string(),
    inn_en: z.string(),
    atc_code: z.string().nullable(),
  }),
  presentation: ZPresentation,
  on_hand: z.number().int(),
  lots: z.number().int(),
  nearest_expiry: z.iso.date().nullable(),
  reorder_level: z.number().int().nullable(),
  flags: z.array(z.enum(['low', 'out', 'expiring', 'expired'])),
});
export type TStockItem = z.infer<typeof ZStockItem>;
export const ZStockList = zPage(ZStockItem);
export const ZStockQuery = ZPageQuery.extend({
  pharmacy: z.uuid().optional(),
  ...zSearch(),
  alert: z.enum(['low', 'out', 'expiring', 'expired']).optional(),
});

export const ZMovement = z.object({
  id: z.uuid(),
  kind: z.enum(MOVEMENT_KINDS),
  pharmacy: ZDepartmentRef,
  lot: z.object({ id: z.uuid(), lot_number: z.string(), expiry_date: z.iso.date() }),
  medication: z.object({ id: z.uuid(), inn_fr: z.string(), inn_en: z.string() }),
  presentation: z.object({
    id: z.uuid(),
    strength: z.string(),
    form: z.enum(DOSAGE_FORMS),
    unit: z.string(),
  }),
  /** Signed: + in, − out. */
  quantity: z.number().int(),
  /** Delivery note, prescription number, the other pharmacy… */
  reference: z.string().nullable(),
  reason: z.string().nullable(),
  prescription: z.uuid().nullable(),
  by: ZPersonRef,
  at: zDateTime,
});
export type TMovement = z.infer<typeof ZMovement>;
export const ZMovementList = zPage(ZMovement);
export const ZMovementQuery = ZPageQuery.extend({
  pharmacy: z.uuid().optional(),
  presentation: z.uuid().optional(),
  lot: z.uuid().optional(),
  kind: z.enum(MOVEMENT_KINDS).optional(),
});

export const ZStockByPharmacy = z.object({
  pharmacy: ZDepartmentRef,
  presentation: z.uuid(),
  on_hand: z.number().int(),
  lots: z.number().int(),
  nearest_expiry: z.iso.date().nullable(),
});
export const ZMedicationDetail = ZMedication.extend({
  stock: z.array(ZStockByPharmacy),
  /** The latest ledger rows of its presentations in the hospital (at most 50). */
  recent_movements: z.array(ZMovement),
});
export type TMedicationDetail = z.infer<typeof ZMedicationDetail>;

const lotNumber = z.string().trim().min(1).max(40);
export const ZReceiptCreate = z
  .object({
    pharmacy: z.uuid(),
    supplier: z.string().trim().min(2).max(200),
    delivery_note: z.string().trim().min(1).max(60),
    lines: z
      .array(
        z.object({
          presentation: z.uuid(),
          lot_number: lotNumber,
          expiry_date: z.iso.date(),
          quantity: z.number().int().min(1).max(1_000_000),
          unit_cost: z.number().min(0).max(100_000_000).nullish(),
        }),
      )
      .min(1)
      .max(200),
  })
  .strict();
export type TReceiptCreate = z.input<typeof ZReceiptCreate>;
/** An adjustment (with a reason), an inventory count, or an expiry write-off of a lot. */
export const ZLotCorrection = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('adjustment'),
    quantity: z.number().int(),
    reason: z.string().trim().min(3).max(500),
  }),
  z.object({
    kind: z.literal('inventory'),
    counted: z.number().int().min(0),
    reason: z.string().trim().max(500).nullish(),
  }),
  z.object({ kind: z.literal('expiry_writeoff'), reason: z.string().trim().max(500).nullish() }),
]);
export type TLotCorrection = z.infer<typeof ZLotCorrection>;
/** Moves units of a lot to another pharmacy (or a ward's stock department). */
export const ZStockTransferCreate = z
  .object({
    lot: z.uuid(),
    to_pharmacy: z.uuid(),
    quantity: z.number().int().min(1).max(1_000_000),
    reason: z.string().trim().max(500).nullish(),
  })
  .strict();
export const ZReorderLevel = z
  .object({
    pharmacy: z.uuid(),
    presentation: z.uuid(),
    level: z.number().int().min(0).max(1_000_000).nullable(),
  })
  .strict();

export const ZStockAlerts = z.object({
  low: z.array(ZStockItem),
  out: z.array(ZStockItem),
  /** Lots that will expire within the window (none already expired). */
  expiring: z.array(ZLot),
  /** Lots already expired with units left (to write off), a group of their own (issue 37). */
  expired: z.array(ZLot),
  /** Lots expiring within this many days count as expiring (hospital setting, default 90). */
  expiring_days: z.number().int(),
});

// Dispensing ---------------------------------------------------------------------------------------------

export const ZDispenseCreate = z
  .object({
    pharmacy: z.uuid(),
    lines: z
      .array(
        z.object({
          line: z.uuid(),
          quantity: z.number().int().min(1).max(10_000),
          /** Another presentation of the same INN (substitution); default: the prescribed one. */
          presentation: z.uuid().nullish(),
          /** Lots chosen by hand; default: first-expiry-first-out among unexpired lots. */
          lots: z
            .array(z.object({ lot: z.uuid(), quantity: z.number().int().min(1) }))
            .min(1)
            .max(20)
            .nullish(),
        }),
      )
      .min(1)
      .max(30),
  })
  .strict();
export type TDispenseCreate = z.input<typeof ZDispenseCreate>;
export const ZDispenseResult = z.object({
  prescription: ZPrescription,
  movements: z.array(ZMovement),
});

// Answers of the stock writes and the pharmacies ---------------------------------------------------------

/** The pharmacy departments of the hospital; `member`: the caller works in it (may manage its stock). */
export const ZPharmacyList = z.object({
  results: z.array(ZDepartmentRef.extend({ member: z.boolean() })),
});
export type TPharmacyList = z.infer<typeof ZPharmacyList>;
export const ZReceiptResult = z.object({ lots: z.array(ZLot), movements: z.array(ZMovement) });
export const ZStockTransferResult = z.object({ movements: z.array(ZMovement) });
/** A 409 of signing: the blocking warnings still without an override reason. */
export const ZPrescriptionSignConflict = z.object({
  detail: z.string(),
  warnings: z.array(ZPrescriptionWarning),
});
