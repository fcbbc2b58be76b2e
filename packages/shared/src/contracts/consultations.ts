/**
 * Consultation contracts (issue 7): the list with its scopes and filters, direct creation, the record with
 * its sections (draft saves carry the optimistic `version`), completion, cancellation, addenda and coded
 * diagnoses. Who may read or edit is the consultation-access rule (domain/consultation-access.ts).
 *
 * `GET    /api/consultations/`                                  → ZConsultationList
 * `POST   /api/consultations/`                                  ZConsultationCreate → 201 ZConsultationDetail
 * `GET    /api/consultations/{id}/`                             → ZConsultationDetail
 * `PATCH  /api/consultations/{id}/`                             ZConsultationUpdate → ZConsultationDetail
 *                                                               (409 ZStaleVersion when `version` is old)
 * `POST   /api/consultations/{id}/complete/`                    ZConsultationComplete → ZConsultationDetail
 * `POST   /api/consultations/{id}/cancel/`                      ZConsultationCancel → ZConsultationDetail
 * `POST   /api/consultations/{id}/addenda/`                     ZAddendumCreate → 201 ZAddendum
 * `GET    /api/consultations/{id}/diagnoses/`                   → ZDiagnosisList
 * `POST   /api/consultations/{id}/diagnoses/`                   ZDiagnosisCreate → 201 ZDiagnosis
 * `PATCH  /api/consultations/{id}/diagnoses/{diagnosis_id}/`    ZDiagnosisUpdate → ZDiagnosis
 * `DELETE /api/consultations/{id}/diagnoses/{diagnosis_id}/`    → 204 (soft removal)
 * `GET    /api/patients/{id}/diagnoses/`                        → ZPatientDiagnosisList (readable ones only)
 */
import { z } from 'zod';
import { ADMISSION_STATUSES, ADMISSION_TYPES } from '../domain/admissions.js';
import {
  CONSULTATION_OUTCOMES,
  CONSULTATION_STATUSES,
  DIAGNOSIS_CERTAINTIES,
  DIAGNOSIS_RANKS,
} from '../domain/consultations.js';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';
import { ZIcd10CodeValue } from './icd10.js';
import { ZTriage, ZVitals } from './triage.js';

/** A day (`YYYY-MM-DD`) within what the database and the clinic can mean (zod alone accepts year 0000). */
const zDay = z.iso
  .date()
  .refine((d) => d >= '1900-01-01' && d <= '2199-12-31', { message: 'consultations.date_out_of_range' });

export const CONSULTATION_SCOPES = ['mine', 'department', 'all'] as const;
export type ConsultationScope = (typeof CONSULTATION_SCOPES)[number];

/** What the caller may do with a consultation they can see (the rule's 'none' never comes back). */
export const ZConsultationAccessLevel = z.enum(['edit', 'read']);

export const ZDiagnosisSummary = z.object({
  icd_code: z.string().nullable(),
  label: z.string(),
  coded: z.boolean(),
  certainty: z.enum(DIAGNOSIS_CERTAINTIES),
});
export type TDiagnosisSummary = z.infer<typeof ZDiagnosisSummary>;

/** A row of the consultation lists (and of the patient record's consultations tab). */
export const ZConsultationListItem = z.object({
  id: z.uuid(),
  status: z.enum(CONSULTATION_STATUSES),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  doctor: ZPersonRef,
  /** The visit it belongs to; null for a consultation created directly for a patient. */
  admission_id: z.uuid().nullable(),
  admission_type: z.enum(ADMISSION_TYPES).nullable(),
  reason: z.string().nullable(),
  started_at: zDateTime,
  completed_at: zDateTime.nullable(),
  primary_diagnosis: ZDiagnosisSummary.nullable(),
  outcome: z.enum(CONSULTATION_OUTCOMES).nullable(),
  access: ZConsultationAccessLevel,
});
export type TConsultationListItem = z.infer<typeof ZConsultationListItem>;

const commaList = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.enum(values)).max(values.length).optional());

export const ZConsultationListQuery = ZPageQuery.extend({
  /** mine: I am the doctor; department: my departments; all (default): every consultation I may read. */
  scope: z.enum(CONSULTATION_SCOPES).default('all'),
  /** Started today (hospital time zone). */
  today: zQueryBoolean.optional(),
  /** Comma list of statuses. */
  status: commaList(CONSULTATION_STATUSES),
  /** Day the consultation started (hospital time zone). */
  date: zDay.optional(),
  doctor: z.uuid().optional(),
  department: z.uuid().optional(),
  patient: z.uuid().optional(),
  admission: z.uuid().optional(),
  /** An ICD-10 code prefix (`B50`, `b50.9`): consultations with an active diagnosis under it. */
  diagnosis: z
    .string()
    .trim()
    .min(1)
    .max(10)
    .regex(/^[A-Za-z][0-9A-Za-z.]*$/, 'consultations.diagnosis_filter_invalid')
    .transform((v) => v.toUpperCase())
    .optional(),
  /** Patient name or record number. */
  ...zSearch(),
  ordering: z.enum(['-started_at', 'started_at']).default('-started_at'),
});
export type TConsultationListQuery = z.input<typeof ZConsultationListQuery>;
export const ZConsultationList = zPage(ZConsultationListItem);
export type TConsultationList = z.infer<typeof ZConsultationList>;

export const ZConsultationCreate = z.object({
  patient: z.uuid(),
  /** Defaults to the author's department in the hospital (400 when they have none). */
  department: z.uuid().nullish(),
  reason: z.string().trim().min(1).max(1000),
});
export type TConsultationCreate = z.input<typeof ZConsultationCreate>;

const section = z
  .string()
  .max(20_000)
  .nullish()
  .transform((v) => (v?.trim() ? v : null));

/** The sections of the record; a draft save sends any subset of them with the version it started from. */
export const ZConsultationSections = z.object({
  reason: section,
  history: section,
  current_treatment: section,
  /** The allergies confirmed with the patient (copied to the patient record on completion when confirmed). */
  allergies: z.array(z.string().trim().min(1).max(200)).max(50).nullish(),
  allergies_confirmed: z.boolean(),
  examination: section,
  vitals: ZVitals.nullish(),
  conclusion: section,
  plan: section,
  outcome: z.enum(CONSULTATION_OUTCOMES).nullish(),
  outcome_notes: section,
  follow_up_date: zDay.nullish(),
});

export const ZConsultationUpdate = ZConsultationSections.partial().extend({
  /** The version the client's draft was based on; an older one is refused (409 with the current one). */
  version: z.number().int().min(1),
});
export type TConsultationUpdate = z.input<typeof ZConsultationUpdate>;

/**
 * A 409: a state conflict (`{detail}`), or a draft save based on an older version
 * (`{detail, code: 'stale_version', version}` with the current version).
 */
export const ZConsultationConflict = z.object({
  detail: z.string(),
  code: z.literal('stale_version').optional(),
  version: z.number().int().optional(),
});
export type TConsultationConflict = z.infer<typeof ZConsultationConflict>;

export const ZConsultationComplete = z.object({
  /** When given, the completion is refused (409) unless the record is still at this version. */
  version: z.number().int().min(1).optional(),
});
export const ZConsultationCancel = z.object({ reason: z.string().trim().min(3).max(500) });

export const ZAddendumCreate = z.object({ text: z.string().trim().min(1).max(5000) });
export const ZAddendum = z.object({
  id: z.uuid(),
  author: ZPersonRef,
  text: z.string(),
  created_at: zDateTime,
});
export type TAddendum = z.infer<typeof ZAddendum>;

export const ZDiagnosis = z.object({
  id: z.uuid(),
  consultation_id: z.uuid(),
  icd_code: z.string().nullable(),
  /** The ICD-10 label in the author's language when recorded, or the free text. */
  label: z.string(),
  /** False for a free-text diagnosis ("non codé / uncoded"). */
  coded: z.boolean(),
  rank: z.enum(DIAGNOSIS_RANKS),
  certainty: z.enum(DIAGNOSIS_CERTAINTIES),
  notes: z.string().nullable(),
  created_by: ZPersonRef,
  created_at: zDateTime,
  updated_at: zDateTime,
});
export type TDiagnosis = z.infer<typeof ZDiagnosis>;
export const ZDiagnosisList = zPage(ZDiagnosis);
export const ZDiagnosisListQuery = ZPageQuery.extend({
  page_size: ZPageQuery.shape.page_size.default(100),
});

const notes = z
  .string()
  .trim()
  .max(1000)
  .nullish()
  .transform((v) => (v ? v : null));

/** A coded diagnosis (`icd_code`, which must exist in the catalogue) or a free-text one — exactly one. */
export const ZDiagnosisCreate = z
  .object({
    icd_code: ZIcd10CodeValue.nullish(),
    free_text: z
      .string()
      .trim()
      .max(500)
      .nullish()
      .transform((v) => (v ? v : null)),
    rank: z.enum(DIAGNOSIS_RANKS).default('secondary'),
    certainty: z.enum(DIAGNOSIS_CERTAINTIES).default('confirmed'),
    notes,
  })
  .superRefine((v, ctx) => {
    if (!v.icd_code && !v.free_text)
      ctx.addIssue({ code: 'custom', path: ['icd_code'], message: 'consultations.diagnosis_code_or_text' });
    if (v.icd_code && v.free_text)
      ctx.addIssue({ code: 'custom', path: ['free_text'], message: 'consultations.diagnosis_code_and_text' });
  });
export type TDiagnosisCreate = z.input<typeof ZDiagnosisCreate>;

export const ZDiagnosisUpdate = z.object({
  rank: z.enum(DIAGNOSIS_RANKS).optional(),
  certainty: z.enum(DIAGNOSIS_CERTAINTIES).optional(),
  notes: notes.optional(),
});
export type TDiagnosisUpdate = z.input<typeof ZDiagnosisUpdate>;
export const ZDiagnosisParams = z.object({ id: z.uuid(), diagnosis_id: z.uuid() });

/** The full record. */
export const ZConsultationDetail = ZConsultationListItem.extend({
  admission: z
    .object({
      id: z.uuid(),
      status: z.enum(ADMISSION_STATUSES),
      admission_type: z.enum(ADMISSION_TYPES),
      queue_number: z.number().int(),
    })
    .nullable(),
  history: z.string().nullable(),
  current_treatment: z.string().nullable(),
  /** Null until the doctor records them (the patient's list is then the starting point). */
  allergies: z.array(z.string()).nullable(),
  allergies_confirmed: z.boolean(),
  examination: z.string().nullable(),
  vitals: ZVitals.nullable(),
  conclusion: z.string().nullable(),
  plan: z.string().nullable(),
  outcome_notes: z.string().nullable(),
  follow_up_date: z.iso.date().nullable(),
  version: z.number().int(),
  completed_by: ZPersonRef.nullable(),
  cancel_reason: z.string().nullable(),
  cancelled_at: zDateTime.nullable(),
  updated_at: zDateTime,
  /** The caller may add a dated addendum (completed, and responsible for it). */
  may_add_addendum: z.boolean(),
  addenda: z.array(ZAddendum),
  /** The active diagnoses, primary first. */
  diagnoses: z.array(ZDiagnosis),
  /**
   * The visit's triage, so that the nurse's vital signs reach the doctor (issue 25): when, by whom, the level
   * and the vitals; null without a visit or before triage.
   */
  triage: ZTriage.pick({
    id: true,
    scale: true,
    level: true,
    vitals: true,
    recorded_by: true,
    recorded_at: true,
  }).nullable(),
});
export type TConsultationDetail = z.infer<typeof ZConsultationDetail>;

/** A diagnosis on the patient's history ("previous diagnoses"), with the consultation it was made in. */
export const ZPatientDiagnosis = ZDiagnosis.extend({
  consultation: z.object({
    id: z.uuid(),
    status: z.enum(CONSULTATION_STATUSES),
    started_at: zDateTime,
    doctor: ZPersonRef,
    department: ZDepartmentRef,
  }),
});
export type TPatientDiagnosis = z.infer<typeof ZPatientDiagnosis>;
export const ZPatientDiagnosisQuery = ZPageQuery.extend({
  /** Leave out this consultation's diagnoses (the one being written). */
  exclude_consultation: z.uuid().optional(),
});
export const ZPatientDiagnosisList = zPage(ZPatientDiagnosis);
export type TPatientDiagnosisList = z.infer<typeof ZPatientDiagnosisList>;
