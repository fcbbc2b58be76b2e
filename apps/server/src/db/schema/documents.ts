import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';
import { hospitalRef } from './structure.js';

/**
 * Document models, issued documents and patient documents (issue 19, docs/decisions/0023-documents.md).
 * The guarantees are in the database: one active model per hospital, kind and language (partial unique index);
 * an issued document's number is unique in its hospital (the numbers come from `hospital_sequences`, locked in
 * the issuing transaction: no gap, no duplicate); an issued document never changes except to be cancelled once,
 * and is never deleted (trigger of migration 0021).
 */

// The values of the contracts' lists (contracts/documents.ts); documents.test.ts checks they are the same.
const KINDS_SQL = sql.raw(
  `'consultation_report','medical_certificate','sick_leave_certificate','referral_letter','prescription',
   'discharge_summary','exam_results_report','invoice','receipt','free_letter'`,
);

/** A hospital's own model (Greensen's shipped models live in the code, not in this table). */
export const documentTemplates = pgTable(
  'document_templates',
  {
    id: id(),
    hospitalId: hospitalRef(),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    paper: text('paper').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    body: text('body').notNull(),
    /** The model it was copied from (a shipped model's fixed id, or another of the hospital's). */
    basedOn: uuid('based_on'),
    isActive: boolean('is_active').notNull().default(false),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    updatedBy: uuid('updated_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('document_templates_active_uq')
      .on(t.hospitalId, t.kind, t.language)
      .where(sql`${t.isActive}`),
    index('document_templates_hospital_idx').on(t.hospitalId, t.kind, t.language, t.name),
    check('document_templates_kind_ck', sql`${t.kind} in (${KINDS_SQL})`),
    check('document_templates_language_ck', sql`${t.language} in ('fr', 'en')`),
    check('document_templates_paper_ck', sql`${t.paper} in ('A4', 'A5')`),
    check('document_templates_active_ck', sql`not (${t.isActive} and ${t.archivedAt} is not null)`),
  ],
);

/** An issued document: signed, numbered, its PDF stored once (immutable; cancelling keeps it). */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    hospitalId: hospitalRef(),
    /** `CM-HGG-2026-000042` (hospital sequence `document:<year>`). */
    number: text('number').notNull(),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    paper: text('paper').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    /** The model used (a shipped model's fixed id or a hospital model's) and its name then. */
    templateId: uuid('template_id').notNull(),
    templateName: text('template_name').notNull(),
    templateShipped: boolean('template_shipped').notNull(),
    sourceType: text('source_type').notNull(),
    sourceId: uuid('source_id').notNull(),
    /** The signed text (Markdown subset). */
    body: text('body').notNull(),
    /** Where the PDF is in the file storage, its SHA-256 (hex) and size. */
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** 128 random bits, base64url: the public verification link. */
    verificationToken: text('verification_token').notNull(),
    /** The short code printed under the QR code. */
    verificationCode: text('verification_code').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** The day of issue in the hospital's time zone. */
    issuedOn: date('issued_on', { mode: 'string' }).notNull(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
  },
  (t) => [
    uniqueIndex('documents_number_uq').on(t.hospitalId, t.number),
    uniqueIndex('documents_token_uq').on(t.verificationToken),
    index('documents_hospital_idx').on(t.hospitalId, t.issuedAt.desc()),
    index('documents_hospital_kind_idx').on(t.hospitalId, t.kind, t.issuedAt.desc()),
    index('documents_patient_idx').on(t.patientId, t.issuedAt.desc()),
    index('documents_author_idx').on(t.authorId, t.issuedAt.desc()),
    index('documents_source_idx').on(t.sourceId),
    check('documents_kind_ck', sql`${t.kind} in (${KINDS_SQL})`),
    check(
      'documents_source_ck',
      sql`${t.sourceType} in ('consultation', 'prescription', 'exam', 'hospitalization', 'patient')`,
    ),
    check(
      'documents_cancel_ck',
      sql`(${t.cancelledAt} is null) = (${t.cancelledBy} is null) and (${t.cancelledAt} is null) = (${t.cancelReason} is null)`,
    ),
  ],
);

/** A file added to a patient's record (scan, photo, PDF); soft-deleted with a reason. */
export const patientDocuments = pgTable(
  'patient_documents',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    category: text('category').notNull(),
    documentDate: date('document_date', { mode: 'string' }),
    description: text('description'),
    fileName: text('file_name').notNull(),
    /** Recognised from the content (magic bytes), never from the name or the declared type. */
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedBy: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => users.id),
    deleteReason: text('delete_reason'),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('patient_documents_hospital_idx')
      .on(t.hospitalId, t.uploadedAt.desc())
      .where(sql`${t.deletedAt} is null`),
    index('patient_documents_patient_idx')
      .on(t.patientId, t.uploadedAt.desc())
      .where(sql`${t.deletedAt} is null`),
    check(
      'patient_documents_category_ck',
      sql`${t.category} in ('id_document', 'referral_letter', 'previous_results', 'imaging_report', 'consent_form', 'insurance', 'dictation', 'other')`,
    ),
    check(
      'patient_documents_type_ck',
      sql`${t.contentType} in ('image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf', 'audio/webm', 'audio/ogg', 'audio/wav', 'audio/mp4')`,
    ),
    check(
      'patient_documents_delete_ck',
      sql`(${t.deletedAt} is null) = (${t.deleteReason} is null) and (${t.deletedAt} is null) = (${t.deletedBy} is null)`,
    ),
  ],
);
