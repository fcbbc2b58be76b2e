/**
 * Triage contracts (issue 6): vital signs with physiological bounds, the level on the hospital's scale.
 */
import { z } from 'zod';
import { AVPU, MOBILITY, SATS_DISCRIMINATOR_CODES, VITAL_BOUNDS } from '../domain/triage.js';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage } from './common.js';

/** One vital sign within its physiological bounds (shared with the ward vitals of the care module). */
export const zVital = (key: keyof typeof VITAL_BOUNDS) => {
  const b = VITAL_BOUNDS[key];
  const n = b.integer ? z.number().int() : z.number();
  return n.min(b.min).max(b.max).nullish();
};

/** The diastolic pressure must stay below the systolic one. */
export function checkBloodPressure(
  v: { systolic_bp?: number | null; diastolic_bp?: number | null },
  ctx: z.RefinementCtx,
): void {
  if (
    typeof v.systolic_bp === 'number' &&
    typeof v.diastolic_bp === 'number' &&
    v.diastolic_bp >= v.systolic_bp
  )
    ctx.addIssue({ code: 'custom', path: ['diastolic_bp'], message: 'triage.diastolic_above_systolic' });
}

export const ZVitals = z
  .object({
    temperature: zVital('temperature'),
    heart_rate: zVital('heart_rate'),
    respiratory_rate: zVital('respiratory_rate'),
    systolic_bp: zVital('systolic_bp'),
    diastolic_bp: zVital('diastolic_bp'),
    spo2: zVital('spo2'),
    weight: zVital('weight'),
    height: zVital('height'),
    glycaemia: zVital('glycaemia'),
    pain: zVital('pain'),
    gcs: zVital('gcs'),
    avpu: z.enum(AVPU).nullish(),
    confused: z.boolean().nullish(),
    mobility: z.enum(MOBILITY).nullish(),
    trauma: z.boolean().nullish(),
  })
  .superRefine(checkBloodPressure);
export type TVitals = z.infer<typeof ZVitals>;

export const ZTriageCreate = z.object({
  admission: z.uuid(),
  vitals: ZVitals,
  chief_complaint: z.string().trim().min(1).max(1000),
  /** SATS emergency / very urgent / urgent signs observed. */
  discriminators: z
    .array(z.enum(SATS_DISCRIMINATOR_CODES as [string, ...string[]]))
    .max(20)
    .default([]),
  /** The nurse's level on the hospital's scale; absent = the suggested level. */
  level: z.string().max(10).nullish(),
  /** Required when `level` differs from the suggestion. */
  override_reason: z.string().trim().max(500).nullish(),
  notes: z.string().trim().max(2000).nullish(),
});
export type TTriageCreate = z.input<typeof ZTriageCreate>;

export const ZTriageSuggestBody = z.object({
  vitals: ZVitals,
  discriminators: z
    .array(z.enum(SATS_DISCRIMINATOR_CODES as [string, ...string[]]))
    .max(20)
    .default([]),
});

export const ZTriageSuggestion = z.object({
  scale: z.enum(['FRENCH', 'SATS']),
  level: z.string(),
  target_minutes: z.number().int().nullable(),
  tews: z.number().int().nullable(),
  reasons: z.array(z.string()),
});

export const ZTriage = z.object({
  id: z.uuid(),
  admission: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  scale: z.enum(['FRENCH', 'SATS']),
  vitals: ZVitals,
  chief_complaint: z.string(),
  discriminators: z.array(z.string()),
  tews: z.number().int().nullable(),
  suggested_level: z.string(),
  level: z.string(),
  overridden: z.boolean(),
  override_reason: z.string().nullable(),
  notes: z.string().nullable(),
  target_minutes: z.number().int().nullable(),
  recorded_by: ZPersonRef,
  recorded_at: zDateTime,
});
export type TTriage = z.infer<typeof ZTriage>;

export const ZTriageListQuery = ZPageQuery.extend({
  admission: z.uuid().optional(),
  patient: z.uuid().optional(),
});
export const ZTriageList = zPage(ZTriage);

/** One line of the live waiting room. */
export const ZWaitingRoomEntry = z.object({
  admission_id: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  status: z.enum(['waiting', 'assigned']),
  queue_number: z.number().int(),
  admitted_at: zDateTime,
  /** Why the patient came, as registered at admission: the triage form starts from it (issue 25). */
  reason: z.string(),
  triage: z
    .object({
      id: z.uuid(),
      level: z.string(),
      rank: z.number().int(),
      target_minutes: z.number().int().nullable(),
      chief_complaint: z.string(),
    })
    .nullable(),
  doctor: ZPersonRef.nullable(),
  waited_minutes: z.number().int(),
  /** Waited longer than the level's target delay. */
  target_exceeded: z.boolean(),
});
export const ZWaitingRoomQuery = ZPageQuery.extend({ department: z.uuid().optional() });
export const ZWaitingRoom = zPage(ZWaitingRoomEntry).extend({ scale: z.enum(['FRENCH', 'SATS']) });
