import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { admissions, consultations, patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';
import { departments, hospitalRef } from './structure.js';

/**
 * The patient journey, part 2 (DESIGN §5 items 5–6): the consultation's record (its sections live on
 * `consultations`, see clinical.ts), dated addenda, coded diagnoses against a shipped ICD-10 catalogue, and exam
 * orders against a shipped exam catalogue with structured results.
 */

/** A dated note added by its author to a completed (locked) consultation. */
export const consultationAddenda = pgTable(
  'consultation_addenda',
  {
    id: id(),
    hospitalId: hospitalRef(),
    consultationId: uuid('consultation_id')
      .notNull()
      .references(() => consultations.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('consultation_addenda_consultation_idx').on(t.consultationId, t.createdAt)],
);

export const icd10Kind = pgEnum('icd10_kind', ['chapter', 'block', 'category', 'code']);

/**
 * The ICD-10 / CIM-10 catalogue (global, not per hospital): chapters, blocks, three-character categories and
 * four-character codes, with French and English labels. `common` marks the codes frequent in our hospitals;
 * they rank first in search.
 */
export const icd10Codes = pgTable(
  'icd10_codes',
  {
    code: text('code').primaryKey(),
    kind: icd10Kind('kind').notNull(),
    parentCode: text('parent_code'),
    /** The chapter's roman numeral (I–XXII). */
    chapter: text('chapter'),
    labelFr: text('label_fr').notNull(),
    labelEn: text('label_en').notNull(),
    common: boolean('common').notNull().default(false),
    /** A code from an imported file that the shipped catalogue did not have. */
    imported: boolean('imported').notNull().default(false),
  },
  (t) => [
    index('icd10_parent_idx').on(t.parentCode),
    // Search in either language, accent, case and typo insensitive.
    index('icd10_search_trgm_idx').using(
      'gin',
      sql`f_unaccent(lower(code || ' ' || label_fr || ' ' || label_en)) gin_trgm_ops`,
    ),
  ],
);

export const diagnosisRank = pgEnum('diagnosis_rank', ['primary', 'secondary']);
export const diagnosisCertainty = pgEnum('diagnosis_certainty', ['confirmed', 'suspected']);

/**
 * A diagnosis of a consultation: an ICD-10 code, or free text marked as uncoded. At most one primary diagnosis
 * per consultation. Removed diagnoses are kept (removed_at) — clinical records are never hard-deleted.
 */
export const consultationDiagnoses = pgTable(
  'consultation_diagnoses',
  {
    id: id(),
    hospitalId: hospitalRef(),
    consultationId: uuid('consultation_id')
      .notNull()
      .references(() => consultations.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    icdCode: text('icd_code').references(() => icd10Codes.code),
    /** The label as shown when recorded (ICD label in the author's language, or the free text). */
    label: text('label').notNull(),
    coded: boolean('coded').notNull(),
    rank: diagnosisRank('rank').notNull(),
    certainty: diagnosisCertainty('certainty').notNull(),
    notes: text('notes'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedBy: uuid('removed_by').references(() => users.id),
  },
  (t) => [
    index('diagnoses_consultation_idx').on(t.consultationId, t.createdAt),
    index('diagnoses_patient_idx').on(t.patientId, t.createdAt.desc()),
    index('diagnoses_hospital_code_idx').on(t.hospitalId, t.icdCode),
    // FHIR Condition search across the hospital, the latest first (issue 39).
    index('diagnoses_hospital_created_idx').on(t.hospitalId, t.createdAt.desc()),
    uniqueIndex('diagnoses_one_primary_uq')
      .on(t.consultationId)
      .where(sql`${t.rank} = 'primary' and ${t.removedAt} is null`),
  ],
);

export const examKind = pgEnum('exam_kind', ['lab', 'imaging']);

/** One result field of a catalogue exam (stored as JSON on the catalogue row). */
export interface ExamFieldDefinition {
  key: string;
  label_fr: string;
  label_en: string;
  type: 'number' | 'text' | 'choice';
  unit?: string | null;
  /** For `choice`: the allowed values, and which of them are abnormal. */
  choices?: { value: string; label_fr: string; label_en: string; abnormal?: boolean }[];
  /** For `number`: reference ranges, the first matching one applies (sex and age in years). */
  ranges?: { sex?: 'F' | 'M'; age_min?: number; age_max?: number; low?: number; high?: number }[];
}

/** The exam catalogue (global): lab analyses and imaging studies with their result fields. */
export const examCatalogue = pgTable(
  'exam_catalogue',
  {
    id: id(),
    code: text('code').notNull(),
    kind: examKind('kind').notNull(),
    /** hematology, biochemistry, parasitology, serology, urinalysis, microbiology, radiology, ultrasound… */
    category: text('category').notNull(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    specimen: text('specimen'),
    /** The LOINC code of the exam as a whole, when certain (FHIR DiagnosticReport.code; migration 0050). */
    loinc: text('loinc'),
    fields: jsonb('fields').$type<ExamFieldDefinition[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    sortOrder: smallint('sort_order').notNull().default(0),
  },
  (t) => [
    uniqueIndex('exam_catalogue_code_uq').on(t.code),
    index('exam_catalogue_search_trgm_idx').using(
      'gin',
      sql`f_unaccent(lower(code || ' ' || name_fr || ' ' || name_en)) gin_trgm_ops`,
    ),
  ],
);

export const examUrgency = pgEnum('exam_urgency', ['routine', 'urgent']);
export const examStatus = pgEnum('exam_status', [
  'requested',
  'in_progress',
  'completed',
  'validated',
  'cancelled',
]);

/** A value entered for one result field, with its flag against the reference range. */
export interface ExamResultValue {
  value: number | string | null;
  flag: 'low' | 'high' | 'abnormal' | null;
}

/** An exam ordered for a patient (from a consultation or directly), performed by the lab or imaging. */
export const examOrders = pgTable(
  'exam_orders',
  {
    id: id(),
    hospitalId: hospitalRef(),
    /** Per-hospital readable number (`HGG-EX-000042`), printed on specimen labels. */
    orderNumber: text('order_number').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    consultationId: uuid('consultation_id').references(() => consultations.id),
    admissionId: uuid('admission_id').references(() => admissions.id),
    examId: uuid('exam_id')
      .notNull()
      .references(() => examCatalogue.id),
    /** The performing department (the hospital's laboratory or imaging department). */
    departmentId: uuid('department_id').references(() => departments.id),
    urgency: examUrgency('urgency').notNull().default('routine'),
    clinicalInfo: text('clinical_info'),
    status: examStatus('status').notNull().default('requested'),
    results: jsonb('results').$type<Record<string, ExamResultValue>>(),
    report: text('report'),
    /** Some result is outside its reference range or an abnormal choice. */
    abnormal: boolean('abnormal').notNull().default(false),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedBy: uuid('started_by').references(() => users.id),
    startedAt: timestamp('started_at', { withTimezone: true }),
    resultedBy: uuid('resulted_by').references(() => users.id),
    resultedAt: timestamp('resulted_at', { withTimezone: true }),
    validatedBy: uuid('validated_by').references(() => users.id),
    validatedAt: timestamp('validated_at', { withTimezone: true }),
    /** The requesting doctor has seen the validated (urgent abnormal) result. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Optimistic concurrency for result entry. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('exam_orders_hospital_number_uq').on(t.hospitalId, t.orderNumber),
    // Worklist: by status then urgency then age.
    index('exam_orders_worklist_idx').on(t.hospitalId, t.status, t.urgency, t.requestedAt),
    index('exam_orders_department_idx').on(t.departmentId, t.status, t.urgency, t.requestedAt),
    index('exam_orders_patient_idx').on(t.patientId, t.requestedAt.desc()),
    // The reporting summaries (a hospital's orders of a day).
    index('exam_orders_hospital_requested_idx').on(t.hospitalId, t.requestedAt),
    index('exam_orders_consultation_idx').on(t.consultationId),
    // The requesting doctor's results to see (dashboard).
    index('exam_orders_requester_idx').on(t.requestedBy, t.status, t.acknowledgedAt),
  ],
);

/**
 * The retry key of a laboratory value an instrument or a reference laboratory posted through FHIR (issue 39,
 * decision 0085): the identifier's name-based uuid, once per hospital, and the order field it went into. A retry
 * of the same identifier answers that value and writes nothing.
 */
export const examResultPosts = pgTable(
  'exam_result_posts',
  {
    id: id(),
    hospitalId: hospitalRef(),
    idempotencyKey: uuid('idempotency_key').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => examOrders.id),
    fieldKey: text('field_key').notNull(),
    postedBy: uuid('posted_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('exam_result_posts_key_uq').on(t.hospitalId, t.idempotencyKey),
    index('exam_result_posts_order_idx').on(t.orderId),
  ],
);
