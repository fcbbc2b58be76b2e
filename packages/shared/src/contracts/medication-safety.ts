/**
 * Medication safety (issue 34): one set of checks run by the server when a prescription is checked live,
 * signed, dispensed, and when a dose is recorded on the MAR. Every step answers the same alerts; a blocking
 * alert refuses the step (409, `ZSafetyConflict`) unless the request carries a written override reason for it.
 *
 * Lines are named either by their index in the draft (`0`, `1`…, the order of `lines`) or, once stored, by the
 * prescription line's id (uuid). Messages are already translated by the request's Accept-Language.
 */
import { z } from 'zod';
import {
  ALLERGY_SOURCES,
  OVERRIDE_REASON_MIN,
  SAFETY_ALERT_CODES,
  SAFETY_SEVERITIES,
  SAFETY_STAGES,
  WEIGHT_SOURCES,
} from '../domain/medication-safety.js';
import { ZAdministrationCreate, ZDose, ZDoseRecord, ZMar, ZMarLine } from './care.js';
import { zDateTime } from './common.js';
import { ROUTES, ZDispenseCreate, ZFrequency, ZPrescription, ZPrescriptionSign } from './pharmacy.js';

// Alerts -------------------------------------------------------------------------------------------------

export type { SafetyAlertCode, SafetySeverity, SafetyStage } from '../domain/medication-safety.js';
export {
  ALLERGY_SOURCES,
  OVERRIDE_REASON_MIN,
  SAFETY_ALERT_CODES,
  SAFETY_SEVERITIES,
  SAFETY_STAGES,
  TIMING_WINDOW_MINUTES,
  WEIGHT_SOURCES,
} from '../domain/medication-safety.js';

/** An override already recorded (who, when, why, at which step). */
export const ZSafetyOverride = z.object({
  id: z.uuid(),
  code: z.enum(SAFETY_ALERT_CODES),
  stage: z.enum(SAFETY_STAGES),
  /** The prescription line it concerns (null: the whole prescription). */
  prescription_line: z.uuid().nullable(),
  reason: z.string(),
  by: z.object({ id: z.uuid(), full_name: z.string() }),
  at: zDateTime,
});
export type TSafetyOverride = z.infer<typeof ZSafetyOverride>;

export const ZSafetyAlert = z.object({
  code: z.enum(SAFETY_ALERT_CODES),
  severity: z.enum(SAFETY_SEVERITIES),
  /** In the request's language. */
  message: z.string(),
  /** Index of the line in the request's `lines` (a draft), or null. */
  line: z.number().int().nullable(),
  /** The stored prescription line, or null (a draft, or the whole prescription). */
  prescription_line: z.uuid().nullable(),
  medication: z.object({ id: z.uuid(), inn_fr: z.string(), inn_en: z.string() }).nullable(),
  /** The figures behind the alert (those that apply). */
  details: z.object({
    /** Computed amount (per dose, or per 24 h for `dose_daily_max`, or per kg for `dose_mg_per_kg`). */
    value: z.number().nullable().optional(),
    limit: z.number().nullable().optional(),
    /** `mg`, `µg`, `UI`, `mg/kg`… */
    unit: z.string().nullable().optional(),
    /** `dose` or `day`. */
    per: z.enum(['dose', 'day']).nullable().optional(),
    weight_kg: z.number().nullable().optional(),
    /** The recorded allergy's text and where it was read. */
    allergy: z.string().nullable().optional(),
    allergy_source: z.enum(ALLERGY_SOURCES).nullable().optional(),
    /** The other medicine (duplicate, interaction) and the prescription it is in (null: this draft). */
    other_medication: z.string().nullable().optional(),
    other_prescription: z.string().nullable().optional(),
    /** The advice of an interaction, in the request's language. */
    advice: z.string().nullable().optional(),
    /** The reference the rule comes from (WHO Model Formulary 2008…). */
    source: z.string().nullable().optional(),
    /** Timing alerts: the scheduled time and the minutes off (negative: early). */
    scheduled_at: zDateTime.nullable().optional(),
    minutes_off: z.number().int().nullable().optional(),
  }),
  /** A written reason is needed to proceed (the blocking alerts). */
  requires_reason: z.boolean(),
  /**
   * The override of this step if recorded, else the latest of an earlier step (the prescriber's reason shown to
   * the pharmacist and the nurse).
   */
  override: ZSafetyOverride.nullable(),
  /** Every override recorded for this alert, all steps, oldest first. */
  overrides: z.array(ZSafetyOverride).optional(),
});
export type TSafetyAlert = z.infer<typeof ZSafetyAlert>;

/** An override sent with a step: the alert's code, its line (index in a draft, or line id) and the reason. */
export const ZSafetyOverrideInput = z
  .object({
    code: z.enum(SAFETY_ALERT_CODES),
    line: z.union([z.number().int().min(0).max(29), z.uuid()]).nullable(),
    reason: z.string().trim().min(OVERRIDE_REASON_MIN).max(500),
  })
  .strict();
export type TSafetyOverrideInput = z.infer<typeof ZSafetyOverrideInput>;
export const ZSafetyOverrideInputs = z.array(ZSafetyOverrideInput).max(100);

// The live check -----------------------------------------------------------------------------------------

export const ZSafetyCheckLine = z
  .object({
    presentation: z.uuid(),
    dose: z.number().positive().max(100_000),
    dose_unit: z.string().trim().min(1).max(20),
    route: z.enum(ROUTES),
    frequency: ZFrequency,
    duration_days: z.number().int().min(1).max(365).nullish(),
  })
  .strip();
export type TSafetyCheckLine = z.input<typeof ZSafetyCheckLine>;

/**
 * `POST /api/medication-safety/check/`: a draft line or a whole draft prescription for a patient. The
 * consultation's (even unfinished) allergies are read when `consultation` is given; `prescription`: the
 * prescription being edited (its own stored lines are not counted twice); `weight_kg`: the weight typed in the
 * form (else the latest recorded).
 */
export const ZSafetyCheckRequest = z
  .object({
    patient: z.uuid(),
    consultation: z.uuid().nullish(),
    hospitalization: z.uuid().nullish(),
    prescription: z.uuid().nullish(),
    weight_kg: z.number().positive().max(300).nullish(),
    lines: z.array(ZSafetyCheckLine).min(1).max(30),
    overrides: ZSafetyOverrideInputs.optional(),
  })
  .strict();
export type TSafetyCheckRequest = z.input<typeof ZSafetyCheckRequest>;

export const ZSafetyWeight = z.object({
  kg: z.number(),
  /** When it was measured (null: typed in the request). */
  recorded_at: zDateTime.nullable(),
  source: z.enum(WEIGHT_SOURCES),
});
export type TSafetyWeight = z.infer<typeof ZSafetyWeight>;

export const ZSafetyAllergies = z.object({
  /** `not_asked`: never recorded; `none_known`: asked, none; `recorded`: at least one. */
  state: z.enum(['not_asked', 'none_known', 'recorded']),
  items: z.array(z.object({ text: z.string(), source: z.enum(ALLERGY_SOURCES) })),
});

export const ZSafetyCheckResult = z.object({
  alerts: z.array(ZSafetyAlert),
  /** The weight the dose rules used, or null when none is known. */
  weight: ZSafetyWeight.nullable(),
  allergies: ZSafetyAllergies,
  /** The patient is pregnant (an open maternity visit or stay). */
  pregnant: z.boolean(),
  /** Blocking alerts without an override reason: the step would be refused. */
  blocked: z.boolean(),
});
export type TSafetyCheckResult = z.infer<typeof ZSafetyCheckResult>;

/** The 409 of a step refused by blocking alerts without an override (sign, dispense, administer). */
export const ZSafetyConflict = z.object({
  detail: z.string(),
  /** Always `medication_safety`: tells this 409 from a version conflict. */
  code: z.literal('medication_safety'),
  alerts: z.array(ZSafetyAlert),
});
export type TSafetyConflict = z.infer<typeof ZSafetyConflict>;

// The steps' requests carry overrides --------------------------------------------------------------------

/** `POST /api/prescriptions/:id/sign/`: the version and the prescriber's overrides (lines by index or id). */
export const ZPrescriptionSignSafe = ZPrescriptionSign.extend({
  overrides: ZSafetyOverrideInputs.optional(),
}).strict();
/** `POST /api/prescriptions/:id/dispense/`: the pharmacist's overrides (lines by id). */
export const ZDispenseCreateSafe = ZDispenseCreate.extend({
  overrides: ZSafetyOverrideInputs.optional(),
}).strict();

/** `POST /api/care/mar/administrations/`: the nurse's overrides (lines by id), besides the dose. */
export const ZAdministrationCreateSafe = z.discriminatedUnion('outcome', [
  ZAdministrationCreate.options[0].extend({ overrides: ZSafetyOverrideInputs.optional() }).strict(),
  ZAdministrationCreate.options[1].safeExtend({ overrides: ZSafetyOverrideInputs.optional() }),
]);
export type TAdministrationCreateSafe = z.input<typeof ZAdministrationCreateSafe>;

/**
 * `POST /api/care/mar/stat/`: a first dose given now for a line whose first scheduled dose is later; the
 * following doses are re-timed from it by the line's frequency.
 */
export const ZStatDoseCreate = z
  .object({
    prescription_line: z.uuid(),
    idempotency_key: z.uuid(),
    dose: z.number().positive().max(100_000),
    dose_unit: z.string().trim().min(1).max(20),
    route: z.enum(ROUTES),
    site: z.string().trim().max(100).nullish(),
    note: z.string().trim().max(1000).nullish(),
    overrides: ZSafetyOverrideInputs.optional(),
  })
  .strict();
export type TStatDoseCreate = z.input<typeof ZStatDoseCreate>;

// The steps' answers -------------------------------------------------------------------------------------

/** Where a dose was given against its time (window: `TIMING_WINDOW_MINUTES`). */
export const ZDoseRecordSafe = ZDoseRecord.extend({
  timing: z.enum(['on_time', 'early', 'late']).optional(),
  /** Minutes from the scheduled time (negative: early); null when not given. */
  minutes_off: z.number().int().nullable().optional(),
  /** The non-blocking alerts of the check at the time of recording (and the overrides given). */
  alerts: z.array(ZSafetyAlert).optional(),
});
export type TDoseRecordSafe = z.infer<typeof ZDoseRecordSafe>;

/** The patient of the five rights, shown in the administration dialog. */
export const ZFiveRightsPatient = z.object({
  id: z.uuid(),
  full_name: z.string(),
  record_number: z.string(),
  birth_date: z.iso.date().nullable(),
  sex: z.string(),
  /** Null: no photo stored. */
  photo_url: z.string().nullable(),
  allergies: ZSafetyAllergies,
  weight: ZSafetyWeight.nullable(),
});
export type TFiveRightsPatient = z.infer<typeof ZFiveRightsPatient>;

/** `GET /api/care/plans/:id/mar/`: the MAR with the patient of the five rights and each line's alerts. */
export const ZMarSafe = ZMar.extend({
  patient: ZFiveRightsPatient.optional(),
  lines: z.array(
    ZMarLine.extend({
      doses: z.array(ZDose.extend({ record: ZDoseRecordSafe.nullable() })),
      /** The alerts of the line now, each with the prescriber's override if any. */
      alerts: z.array(ZSafetyAlert).optional(),
      /** The line has a stat first dose; its schedule follows from it. */
      first_dose_at: zDateTime.nullable().optional(),
    }),
  ),
});
export type TMarSafe = z.infer<typeof ZMarSafe>;

/** The dispense view's safety: the alerts of the prescription as it stands now, with the overrides. */
export const ZPrescriptionSafety = z.object({
  alerts: z.array(ZSafetyAlert),
  overrides: z.array(ZSafetyOverride),
  /** The stay is discharged or the visit closed (also an alert `patient_left`). */
  patient_left: z.boolean(),
  weight: ZSafetyWeight.nullable(),
  allergies: ZSafetyAllergies,
  pregnant: z.boolean(),
  /** Line ids under a blocking alert without an override: never pre-ticked in the dispense dialog. */
  blocked_lines: z.array(z.uuid()),
});
export type TPrescriptionSafety = z.infer<typeof ZPrescriptionSafety>;

/** `GET /api/prescriptions/:id/`: the prescription with its safety (for prescriptions not dispensed yet). */
export const ZPrescriptionWithSafety = ZPrescription.extend({
  safety: ZPrescriptionSafety.nullable().optional(),
});
export type TPrescriptionWithSafety = z.infer<typeof ZPrescriptionWithSafety>;
