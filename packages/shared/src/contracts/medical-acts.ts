/**
 * Medical acts (issue 21, decision 0027): the per-hospital catalogue of acts with their tariffs per payer
 * category and validity dates, and the acts performed for a visit (admission) or a stay (hospitalization).
 * Amounts are integer minor units of the hospital's currency (domain/money.ts).
 *
 * Routes (all under /api, Hospital-ID header; another hospital's id is 404). "Billing staff" = members of a
 * department of kind `billing` in the groups secretary, queue manager, nurse, head doctor (decision 0027):
 *
 * | Method | Path | Who |
 * |---|---|---|
 * | GET   | /medical-acts/                        | every member but secretaries outside billing: the catalogue (q, category, active) |
 * | POST  | /medical-acts/                        | head doctor, admin |
 * | GET   | /medical-acts/{id}/                   | as the list: the act with all its tariffs |
 * | PATCH | /medical-acts/{id}/                   | head doctor, admin (code, labels, category, active, links) |
 * | POST  | /medical-acts/{id}/tariffs/           | head doctor, admin: a new price from a date (closes the open one) |
 * | GET   | /medical-acts/performed/              | clinicians and billing staff: acts of a visit or a stay |
 * | POST  | /medical-acts/performed/              | clinicians (doctor, midwife, nurse, head doctor) and billing staff |
 * | POST  | /medical-acts/performed/{id}/cancel/  | the same, with a reason; not once billed on an issued invoice |
 */
import { z } from 'zod';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

/** Path of every medical-acts route (relative to /api). */
export const MEDICAL_ACT_ROUTES = {
  list: '/medical-acts/',
  detail: (id: string) => `/medical-acts/${id}/`,
  tariffs: (id: string) => `/medical-acts/${id}/tariffs/`,
  performed: '/medical-acts/performed/',
  performedCancel: (id: string) => `/medical-acts/performed/${id}/cancel/`,
} as const;

/** The categories, plus `medicine` for dispensed medicines priced per unit. */
export const ACT_CATEGORIES = [
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
] as const;
export type ActCategory = (typeof ACT_CATEGORIES)[number];

/** The price lists: a tariff is set per act and per payer category. */
export const PAYER_CATEGORIES = ['private', 'insured', 'staff', 'indigent'] as const;
export type PayerCategory = (typeof PAYER_CATEGORIES)[number];

/** Where a performed act comes from; `(source, source_id)` is unique, so deriving twice adds nothing. */
export const ACT_SOURCES = ['manual', 'consultation', 'exam', 'bed_day', 'dispensation'] as const;
export type ActSource = (typeof ACT_SOURCES)[number];

/**
 * What the act is automatically derived from: `consultation` (each completed consultation of a visit),
 * `bed_day` (each day of a stay); exams and medicines link through `exam` / `presentation`.
 */
export const ACT_AUTO_SOURCES = ['consultation', 'bed_day'] as const;

/** An amount in minor units of the hospital's currency. */
export const zMinor = z.number().int().min(0).max(1_000_000_000_000);

const label = (max: number) => z.string().trim().min(1).max(max);

export const ZTariff = z.object({
  id: z.uuid(),
  payer_category: z.enum(PAYER_CATEGORIES),
  /** Minor units of `currency`. */
  price: z.number().int(),
  currency: z.string(),
  valid_from: z.iso.date(),
  /** Last day it applies (inclusive); null: until further notice. */
  valid_to: z.iso.date().nullable(),
});
export type TTariff = z.infer<typeof ZTariff>;

export const ZMedicalAct = z.object({
  id: z.uuid(),
  /** Unique in the hospital (e.g. `CONS-GEN`, `LAB-TDR`). */
  code: z.string(),
  label_fr: z.string(),
  label_en: z.string(),
  category: z.enum(ACT_CATEGORIES),
  is_active: z.boolean(),
  auto_source: z.enum(ACT_AUTO_SOURCES).nullable(),
  /** The exam of the catalogue this act bills (validated exams derive it). */
  exam: z.object({ id: z.uuid(), code: z.string(), name: z.string() }).nullable(),
  /** The medicine presentation this act bills per unit dispensed. */
  presentation: z.uuid().nullable(),
  /** Today's tariffs, one per payer category that has one. */
  current_tariffs: z.array(ZTariff),
});
export type TMedicalAct = z.infer<typeof ZMedicalAct>;
export const ZMedicalActDetail = ZMedicalAct.extend({
  /** Every tariff, newest first (past ones stay: a price change never rewrites a past invoice). */
  tariffs: z.array(ZTariff),
  created_at: zDateTime,
  updated_at: zDateTime,
});
export type TMedicalActDetail = z.infer<typeof ZMedicalActDetail>;
export const ZMedicalActList = zPage(ZMedicalAct);

export const ZMedicalActQuery = ZPageQuery.extend({
  /** Code or label (fr/en), accents ignored. */
  ...zSearch(),
  category: z.enum(ACT_CATEGORIES).optional(),
  active: zQueryBoolean.optional(),
});

export const ZMedicalActCreate = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9][A-Z0-9._-]{0,29}$/, 'medical_acts.code_invalid'),
    label_fr: label(200),
    label_en: label(200),
    category: z.enum(ACT_CATEGORIES),
    is_active: z.boolean().default(true),
    auto_source: z.enum(ACT_AUTO_SOURCES).nullish(),
    exam: z.uuid().nullish(),
    presentation: z.uuid().nullish(),
    /** Optional first tariffs, valid from today (or `valid_from`). */
    tariffs: z
      .array(
        z.object({
          payer_category: z.enum(PAYER_CATEGORIES),
          price: zMinor,
          valid_from: z.iso.date().nullish(),
        }),
      )
      .max(PAYER_CATEGORIES.length)
      .optional(),
  })
  .strict();
export type TMedicalActCreate = z.input<typeof ZMedicalActCreate>;

export const ZMedicalActUpdate = z
  .object({
    code: ZMedicalActCreate.shape.code,
    label_fr: label(200),
    label_en: label(200),
    category: z.enum(ACT_CATEGORIES),
    is_active: z.boolean(),
    auto_source: z.enum(ACT_AUTO_SOURCES).nullable(),
    exam: z.uuid().nullable(),
    presentation: z.uuid().nullable(),
  })
  .partial()
  .strict();
export type TMedicalActUpdate = z.input<typeof ZMedicalActUpdate>;

/**
 * A new price for a payer category from `valid_from` (default today). The open tariff that started earlier is
 * closed the day before; a tariff overlapping another closed period is refused (409).
 */
export const ZTariffCreate = z
  .object({
    payer_category: z.enum(PAYER_CATEGORIES),
    price: zMinor,
    valid_from: z.iso.date().nullish(),
    valid_to: z.iso.date().nullish(),
  })
  .strict()
  .refine((v) => !v.valid_from || !v.valid_to || v.valid_to >= v.valid_from, {
    path: ['valid_to'],
    message: 'medical_acts.valid_to_before_from',
  });
export type TTariffCreate = z.input<typeof ZTariffCreate>;

// Performed acts -----------------------------------------------------------------------------------------

export const ZPerformedAct = z.object({
  id: z.uuid(),
  act: z.object({
    id: z.uuid(),
    code: z.string(),
    label_fr: z.string(),
    label_en: z.string(),
    category: z.enum(ACT_CATEGORIES),
  }),
  patient: z.uuid(),
  admission: z.uuid().nullable(),
  hospitalization: z.uuid().nullable(),
  quantity: z.number().int(),
  source: z.enum(ACT_SOURCES),
  performed_at: zDateTime,
  performed_by: z.object({ id: z.uuid(), full_name: z.string() }).nullable(),
  is_cancelled: z.boolean(),
  cancel_reason: z.string().nullable(),
  /** On an invoice line (of a draft or an issued invoice). */
  is_billed: z.boolean(),
});
export type TPerformedAct = z.infer<typeof ZPerformedAct>;
export const ZPerformedActList = zPage(ZPerformedAct);

export const ZPerformedActQuery = ZPageQuery.extend({
  admission: z.uuid().optional(),
  hospitalization: z.uuid().optional(),
  patient: z.uuid().optional(),
}).refine((v) => v.admission || v.hospitalization || v.patient, {
  path: ['admission'],
  message: 'medical_acts.performed_filter_required',
});

export const ZPerformedActCreate = z
  .object({
    act: z.uuid(),
    /** The visit or the stay (exactly one). */
    admission: z.uuid().nullish(),
    hospitalization: z.uuid().nullish(),
    quantity: z.number().int().min(1).max(1000).default(1),
    /** Default now; never in the future. */
    performed_at: zDateTime.nullish(),
  })
  .strict()
  .refine((v) => !!v.admission !== !!v.hospitalization, {
    path: ['admission'],
    message: 'medical_acts.visit_or_stay',
  });
export type TPerformedActCreate = z.input<typeof ZPerformedActCreate>;

export const ZPerformedActCancel = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
