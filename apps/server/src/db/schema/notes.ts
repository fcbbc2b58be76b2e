import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { patientDocuments } from './documents.js';
import { users } from './people.js';
import { hospitalRef } from './structure.js';

/**
 * Notes (issue 23, decision 0034): personal ones (`patient_id` null, seen by their author only) and notes about a
 * patient (seen by those who may read the patient's clinical record). Soft-deleted by their author.
 */
export const notes = pgTable(
  'notes',
  {
    id: id(),
    hospitalId: hospitalRef(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id').references(() => patients.id),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** Lower-case labels, no duplicates (the API normalises them). */
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    pinned: boolean('pinned').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // A person's personal notes, pinned first then the newest.
    index('notes_personal_idx')
      .on(t.hospitalId, t.authorId, t.pinned.desc(), t.updatedAt.desc())
      .where(sql`${t.patientId} is null and ${t.deletedAt} is null`),
    // A patient's notes.
    index('notes_patient_idx')
      .on(t.patientId, t.pinned.desc(), t.updatedAt.desc())
      .where(sql`${t.patientId} is not null and ${t.deletedAt} is null`),
    index('notes_tags_idx').using('gin', t.tags),
    check('notes_title_ck', sql`length(${t.title}) between 1 and 200`),
    check('notes_body_ck', sql`length(${t.body}) <= 20000`),
  ],
);

/**
 * A dictation no engine typed (issue 23): the audio is a patient document; the recording waits in its author's
 * list until someone marks it typed.
 */
export const dictationRecordings = pgTable(
  'dictation_recordings',
  {
    id: id(),
    hospitalId: hospitalRef(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    documentId: uuid('document_id')
      .notNull()
      .references(() => patientDocuments.id),
    language: text('language').notNull(),
    context: text('context'),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: createdAt(),
    typedAt: timestamp('typed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('dictation_recordings_author_idx').on(t.hospitalId, t.authorId, t.createdAt.desc()),
    check('dictation_recordings_language_ck', sql`${t.language} in ('fr', 'en')`),
  ],
);
