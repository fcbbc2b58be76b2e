/**
 * Exam contracts (issue 7): the catalogue, orders (several exams at once), the worklist, result entry,
 * validation, cancellation, acknowledgement and the requesting doctor's alerts.
 */
import { z } from 'zod';
import { EXAM_ACTIONS, EXAM_KINDS, EXAM_STATUSES, EXAM_URGENCIES, REPORT_MAX } from '../domain/exams.js';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

export const ZExamFieldChoice = z.object({
  value: z.string(),
  label_fr: z.string(),
  label_en: z.string(),
  abnormal: z.boolean().optional(),
});

export const ZExamReferenceRange = z.object({
  sex: z.enum(['F', 'M']).optional(),
  age_min: z.number().optional(),
  age_max: z.number().optional(),
  low: z.number().optional(),
  high: z.number().optional(),
});

export const ZExamField = z.object({
  key: z.string(),
  label_fr: z.string(),
  label_en: z.string(),
  type: z.enum(['number', 'text', 'choice']),
  unit: z.string().nullish(),
  choices: z.array(ZExamFieldChoice).optional(),
  ranges: z.array(ZExamReferenceRange).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  decimals: z.number().int().optional(),
  optional: z.boolean().optional(),
});
export type TExamField = z.infer<typeof ZExamField>;

/** A catalogue exam (list and order picker). */
export const ZCatalogueExam = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: z.enum(EXAM_KINDS),
  category: z.string(),
  name_fr: z.string(),
  name_en: z.string(),
  specimen: z.string().nullable(),
  fields: z.array(ZExamField),
});
export type TCatalogueExam = z.infer<typeof ZCatalogueExam>;

export const ZCatalogueQuery = ZPageQuery.extend({
  ...zSearch(),
  kind: z.enum(EXAM_KINDS).optional(),
  category: z.string().trim().max(40).optional(),
});
export const ZCatalogueList = zPage(ZCatalogueExam);

/** A catalogue exam by its id or its code (`NFS`, `GE`…). */
const zExamRef = z.string().trim().min(1).max(64);

/**
 * An order for a patient, from a consultation or directly: one exam (`exam`) or several at once (`exams`,
 * up to 20, all with the same urgency and clinical information). The answer lists the created orders.
 */
export const ZExamOrderCreate = z
  .object({
    patient: z.uuid(),
    consultation: z.uuid().nullish(),
    exam: zExamRef.optional(),
    exams: z.array(zExamRef).min(1).max(20).optional(),
    urgency: z.enum(EXAM_URGENCIES).default('routine'),
    clinical_info: z.string().trim().max(2000).nullish(),
  })
  .superRefine((v, ctx) => {
    if ((v.exam === undefined) === (v.exams === undefined))
      ctx.addIssue({ code: 'custom', path: ['exams'], message: 'exams.exam_required' });
    if (v.exams && new Set(v.exams.map((e) => e.toUpperCase())).size !== v.exams.length)
      ctx.addIssue({ code: 'custom', path: ['exams'], message: 'exams.exam_duplicate' });
  });
export type TExamOrderCreate = z.input<typeof ZExamOrderCreate>;

export const ZExamRef = z.object({
  id: z.uuid(),
  code: z.string(),
  kind: z.enum(EXAM_KINDS),
  category: z.string(),
  name_fr: z.string(),
  name_en: z.string(),
  specimen: z.string().nullable(),
});

export const ZExamFlag = z.enum(['low', 'high', 'abnormal']).nullable();
export const ZExamValue = z.union([z.number(), z.string()]).nullable();

export const ZExamResultLine = z.object({
  key: z.string(),
  label_fr: z.string(),
  label_en: z.string(),
  unit: z.string().nullable(),
  value: ZExamValue,
  value_label_fr: z.string().nullable(),
  value_label_en: z.string().nullable(),
  flag: ZExamFlag,
  /** The patient's reference range: `12 – 16`, `≤ 5`, `≥ 60`, or `absent` (normally none: at most 0). */
  reference: z.string().nullable(),
});
export type TExamResultLine = z.infer<typeof ZExamResultLine>;

/** An order as lists show it: status, urgency, who asked and when, the entered results in lines. */
export const ZExamOrder = z.object({
  id: z.uuid(),
  order_number: z.string(),
  patient: ZPatientRef,
  exam: ZExamRef,
  /** The performing department (laboratory or imaging). */
  department: ZDepartmentRef.nullable(),
  consultation: z.uuid().nullable(),
  admission: z.uuid().nullable(),
  urgency: z.enum(EXAM_URGENCIES),
  clinical_info: z.string().nullable(),
  status: z.enum(EXAM_STATUSES),
  abnormal: z.boolean(),
  /** The entered results (completed or validated orders), in the catalogue's order. */
  result_lines: z.array(ZExamResultLine),
  has_report: z.boolean(),
  requested_by: ZPersonRef,
  requested_at: zDateTime,
  started_at: zDateTime.nullable(),
  resulted_at: zDateTime.nullable(),
  validated_at: zDateTime.nullable(),
  acknowledged_at: zDateTime.nullable(),
  cancelled_at: zDateTime.nullable(),
  /** What the current user may do now (permitted by role and department, and allowed by the status). */
  actions: z.array(z.enum(EXAM_ACTIONS)),
  version: z.number().int(),
});
export type TExamOrder = z.infer<typeof ZExamOrder>;

export const ZExamResultEntry = z.object({ value: ZExamValue, flag: ZExamFlag });

/** One order in full: the field definitions for result entry, results, report, who did each step. */
export const ZExamOrderDetail = ZExamOrder.extend({
  fields: z.array(ZExamField),
  results: z.record(z.string(), ZExamResultEntry).nullable(),
  report: z.string().nullable(),
  /** The patient's age in whole years at the sampling date (start), used for the reference ranges. */
  reference_age: z.number().int().nullable(),
  started_by: ZPersonRef.nullable(),
  resulted_by: ZPersonRef.nullable(),
  validated_by: ZPersonRef.nullable(),
  cancelled_by: ZPersonRef.nullable(),
  cancel_reason: z.string().nullable(),
});
export type TExamOrderDetail = z.infer<typeof ZExamOrderDetail>;

export const ZExamOrderCreated = z.object({ orders: z.array(ZExamOrderDetail) });
export type TExamOrderCreated = z.infer<typeof ZExamOrderCreated>;

const zStatusList = z
  .string()
  .max(200)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(EXAM_STATUSES)).max(EXAM_STATUSES.length));

export const EXAM_ORDERINGS = ['priority', 'recent'] as const;

/**
 * The worklist: `status` (one or several, comma-separated), `urgency`, `department`, `kind`, `patient`,
 * `consultation`, `requested_by` (`me` or a user id), `abnormal`, `date` (requested that day, hospital time)
 * and `search` (patient name or record number, order number, exam). `ordering=priority` (default): urgent
 * first, then the oldest; `recent`: the newest first (a patient's history).
 */
export const ZExamListQuery = ZPageQuery.extend({
  status: zStatusList.optional(),
  urgency: z.enum(EXAM_URGENCIES).optional(),
  department: z.uuid().optional(),
  kind: z.enum(EXAM_KINDS).optional(),
  patient: z.uuid().optional(),
  consultation: z.uuid().optional(),
  requested_by: z.union([z.literal('me'), z.uuid()]).optional(),
  abnormal: zQueryBoolean.optional(),
  date: z.iso.date().optional(),
  ...zSearch(),
  ordering: z.enum(EXAM_ORDERINGS).default('priority'),
});
export type TExamListQuery = z.input<typeof ZExamListQuery>;
export type TExamListFilters = z.output<typeof ZExamListQuery>;
export const ZExamList = zPage(ZExamOrder);
export type TExamList = z.infer<typeof ZExamList>;

/**
 * Result entry: values by field key (numbers as JSON numbers), the report, and the version read. Strict: a key
 * it does not know is refused (400), at the top as inside `results` (unknown fields of the exam).
 */
export const ZExamResultsBody = z
  .object({
    results: z.record(z.string().max(64), z.union([z.number(), z.string().max(5000), z.null()])).default({}),
    report: z
      .string()
      .max(REPORT_MAX + 1000)
      .nullish(),
    version: z.number().int().min(1),
  })
  .strict();
export type TExamResultsBody = z.input<typeof ZExamResultsBody>;

/** Start and validate carry the version read (409 when someone changed the order meanwhile). */
export const ZExamVersionBody = z.object({ version: z.number().int().min(1).optional() });
export const ZExamCancelBody = z.object({ reason: z.string().trim().min(3).max(500) });

/** The requesting doctor's validated abnormal results not yet acknowledged (urgent first). */
export const ZExamAlerts = zPage(ZExamOrder).extend({ urgent_count: z.number().int() });
export type TExamAlerts = z.infer<typeof ZExamAlerts>;
