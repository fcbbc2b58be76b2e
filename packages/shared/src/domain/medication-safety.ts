/**
 * Medication safety's plain values (issue 34): the alerts' codes, severities and steps, where an allergy or a weight
 * was read, the timing window and the shortest override reason. Apart from the request and answer schemas
 * (contracts/medication-safety.ts, which re-exports them) so that a screen that only shows alerts does not load
 * and build every schema (issue 38: the pharmacist's home evaluated ~140 KB of schemas for this one number).
 */

export const SAFETY_ALERT_CODES = [
  /** A recorded allergy names the substance (or a synonym of it). */
  'allergy',
  /** A recorded allergy names a class the medicine belongs to (penicillins → amoxicilline). */
  'allergy_class',
  /** A recorded allergy to a class that cross-reacts (penicillins → cephalosporins; aspirin → NSAIDs). */
  'allergy_cross_reactivity',
  /** Nobody ever asked the patient about allergies ("not asked", distinct from "no known allergy"). */
  'allergies_not_recorded',
  /** One administration above the largest single dose (adult, or the child's ceiling). */
  'dose_single_max',
  /** The 24-hour total of a substance (all lines and active prescriptions) above the largest daily total. */
  'dose_daily_max',
  /** Above the mg/kg per dose or per day of a weight-dosed rule. */
  'dose_mg_per_kg',
  /** The dose could not be converted to the limit's unit (e.g. "1 ampoule" of an unknown volume): not checked. */
  'dose_unverifiable',
  /** The rule needs the weight and none is known (none recorded, none in the request). */
  'weight_required',
  /** Two medicines of the same therapeutic class (ATC level 4) at once. */
  'duplicate_class',
  /** The same substance twice (another line, or an active prescription). */
  'duplicate_substance',
  /** A listed high-priority interaction (data file with source and advice). */
  'interaction',
  /** A medicine contraindicated in pregnancy for a pregnant patient. */
  'pregnancy',
  /** The patient has left: stay discharged or visit closed (dispensing a prescription that waits). */
  'patient_left',
  /** A dose recorded more than the window (`TIMING_WINDOW_MINUTES`) before its scheduled time. */
  'timing_early',
  /** A dose recorded more than the window after its scheduled time. */
  'timing_late',
] as const;
export type SafetyAlertCode = (typeof SAFETY_ALERT_CODES)[number];

export const SAFETY_SEVERITIES = ['info', 'warning', 'blocking'] as const;
export type SafetySeverity = (typeof SAFETY_SEVERITIES)[number];

/** The steps that run the checks (an override is recorded at one of them). */
export const SAFETY_STAGES = ['prescribe', 'dispense', 'administer'] as const;
export type SafetyStage = (typeof SAFETY_STAGES)[number];

/** Where an allergy was read. */
export const ALLERGY_SOURCES = ['patient', 'consultation'] as const;
/** Where the weight used was read. */
export const WEIGHT_SOURCES = ['request', 'prescription', 'triage', 'consultation', 'care_vitals'] as const;

/** A dose given more than this many minutes before or after its scheduled time is flagged (early/late). */
export const TIMING_WINDOW_MINUTES = 60;
/** An override's reason: at least this many characters. */
export const OVERRIDE_REASON_MIN = 5;
