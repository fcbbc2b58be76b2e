/**
 * Admission (visit) contracts (issue 6).
 */
import { z } from 'zod';
import { ADMISSION_STATUSES, ADMISSION_TYPES } from '../domain/admissions.js';
import { ZPageQuery, zDateTime, zPage, zSearch } from './common.js';
import { SEXES } from './patients.js';

export const ZAdmissionCreate = z.object({
  patient: z.uuid(),
  department: z.uuid(),
  admission_type: z.enum(ADMISSION_TYPES),
  reason: z.string().trim().min(1).max(1000),
});
export type TAdmissionCreate = z.input<typeof ZAdmissionCreate>;

export const ZAdmissionUpdate = z.object({
  department: z.uuid().optional(),
  admission_type: z.enum(ADMISSION_TYPES).optional(),
  reason: z.string().trim().min(1).max(1000).optional(),
});

/** Ends a visit after its consultation (or cancels it, with a reason). */
export const ZAdmissionStatusBody = z
  .object({
    status: z.enum(['completed', 'hospitalized', 'transferred', 'cancelled', 'waiting']),
    reason: z.string().trim().max(500).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'cancelled' && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'admissions.reason_required' });
  });
export const ZCancelBody = z.object({ reason: z.string().trim().min(3).max(500) });

export const ZPersonRef = z.object({ id: z.uuid(), full_name: z.string() });
export const ZDepartmentRef = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.string(),
});
export const ZPatientRef = z.object({
  id: z.uuid(),
  record_number: z.string(),
  full_name: z.string(),
  sex: z.enum(SEXES),
  age: z.number().int().nullable(),
  /** Shown prominently wherever the patient appears. */
  allergies: z.array(z.string()),
  /** Whether someone asked: no allergies and false is "not asked", never "no known allergy" (issue 25). */
  allergies_recorded: z.boolean(),
  /** Set when a stay ended with the patient's death (issue 17): shown wherever the patient appears. */
  deceased_at: zDateTime.nullish(),
});
export type TPatientRef = z.infer<typeof ZPatientRef>;

export const ZTriageRef = z.object({
  id: z.uuid(),
  scale: z.enum(['FRENCH', 'SATS']),
  level: z.string(),
  /** Queue order of the level (1 first). */
  rank: z.number().int(),
  target_minutes: z.number().int().nullable(),
  recorded_at: zDateTime,
});

export const ZAdmission = z.object({
  id: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  admission_type: z.enum(ADMISSION_TYPES),
  reason: z.string(),
  status: z.enum(ADMISSION_STATUSES),
  /** Number of the day in the hospital (1, 2, …), reset every day. */
  queue_number: z.number().int(),
  queue_date: z.iso.date(),
  admitted_at: zDateTime,
  triage: ZTriageRef.nullable(),
  /** The doctor of the open consultation execution; once the visit is over, the doctor who saw the patient. */
  doctor: ZPersonRef.nullable(),
  cancel_reason: z.string().nullable(),
  cancelled_at: zDateTime.nullable(),
  closed_at: zDateTime.nullable(),
  /** When the patient left the stay the visit led to (issue 37); null otherwise. */
  discharged_at: zDateTime.nullable(),
  /** Minutes since arrival (until the end of the visit when it has ended). */
  waited_minutes: z.number().int(),
});
export type TAdmission = z.infer<typeof ZAdmission>;

export const ZAdmissionListQuery = ZPageQuery.extend({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',') : undefined))
    .pipe(z.array(z.enum(ADMISSION_STATUSES)).optional()),
  department: z.uuid().optional(),
  admission_type: z.enum(ADMISSION_TYPES).optional(),
  /** Day of arrival (hospital time zone). */
  date: z.iso.date().optional(),
  doctor: z.uuid().optional(),
  patient: z.uuid().optional(),
  /** Patient name or record number. */
  ...zSearch(),
  ordering: z.enum(['queue', '-admitted_at', 'admitted_at']).default('-admitted_at'),
});
export type TAdmissionListQuery = z.input<typeof ZAdmissionListQuery>;
export const ZAdmissionList = zPage(ZAdmission);
