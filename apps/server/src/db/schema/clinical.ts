import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';
import { departments, hospitalRef, triageScale } from './structure.js';

/**
 * The patient journey, part 1 (DESIGN §5 items 1–4): patients, admissions, triage, executions and the
 * minimal consultation that a doctor starts. Every row carries its hospital; every query is scoped by it.
 */

export const sex = pgEnum('sex', ['F', 'M']);
export const admissionType = pgEnum('admission_type', ['outpatient', 'emergency', 'maternity', 'inpatient']);
export const admissionStatus = pgEnum('admission_status', [
  'waiting',
  'assigned',
  'in_consultation',
  'completed',
  'hospitalized',
  'transferred',
  'cancelled',
]);
export const executionKind = pgEnum('execution_kind', ['consultation']);
export const executionStatus = pgEnum('execution_status', [
  'assigned',
  'in_progress',
  'completed',
  'cancelled',
]);
export const consultationStatus = pgEnum('consultation_status', ['in_progress', 'completed', 'cancelled']);
export const consultationOutcome = pgEnum('consultation_outcome', [
  'discharge',
  'hospitalize',
  'refer',
  'follow_up',
  'deceased',
]);

/**
 * Per-hospital readable sequences (`patient_record`, `queue:2026-05-04`, later `invoice`…). The next value is
 * taken with one `INSERT … ON CONFLICT DO UPDATE … RETURNING`, which locks the row: two concurrent takers get
 * two different numbers. The increment belongs to the caller's transaction: a rollback gives the number back.
 */
export const hospitalSequences = pgTable(
  'hospital_sequences',
  {
    hospitalId: hospitalRef(),
    name: text('name').notNull(),
    value: integer('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.name] })],
);

/** The unaccented, lower-cased "last first" name that search and duplicate detection compare. */
export const PATIENT_NAME_EXPR = sql`f_unaccent(lower(last_name || ' ' || first_name))`;

export const patients = pgTable(
  'patients',
  {
    id: id(),
    hospitalId: hospitalRef(),
    /** `HGG-000123`: hospital code and a per-hospital sequence. */
    recordNumber: text('record_number').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    sex: sex('sex').notNull(),
    birthDate: date('birth_date'),
    /** The date was computed from an age given at registration (unknown date of birth). */
    birthDateEstimated: boolean('birth_date_estimated').notNull().default(false),
    /** Digits with an optional leading +. */
    phone: text('phone'),
    /** For appointment reminders (issue 22). */
    email: text('email'),
    /** The language of the texts sent to the patient (appointment reminders): `fr` or `en`; null is French. */
    preferredLanguage: text('preferred_language'),
    address: text('address'),
    nationalId: text('national_id'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactPhone: text('emergency_contact_phone'),
    bloodGroup: text('blood_group'),
    allergies: text('allergies').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Whether someone asked: false with no allergies is "not asked" (shown as such, never as "none known"), true
     * with none is "no known allergy" (issue 25). A list of allergies implies it (the server sets it).
     */
    allergiesRecorded: boolean('allergies_recorded').notNull().default(false),
    insuranceProvider: text('insurance_provider'),
    insuranceNumber: text('insurance_number'),
    /** Recorded by a discharge with mode `deceased` (issue 17): shown wherever the patient appears. */
    deceasedAt: timestamp('deceased_at', { withTimezone: true }),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedReason: text('archived_reason'),
    archivedBy: uuid('archived_by').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    /** Bumped by every change of the record: the FHIR `meta.versionId` and ETag, checked by `If-Match` (issue 39). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('patients_hospital_record_uq').on(t.hospitalId, t.recordNumber),
    index('patients_hospital_created_idx').on(t.hospitalId, t.createdAt.desc(), t.id.desc()),
    index('patients_hospital_national_id_idx').on(t.hospitalId, t.nationalId),
    // FHIR `_lastUpdated` (issue 39).
    index('patients_hospital_updated_idx').on(t.hospitalId, t.updatedAt),
    // Name search by prefix in index order (docs/performance.md): the unaccented lower-cased "last first" and
    // "first last" names in the "C" collation, so that the names starting with a term are one ordered range;
    // the columns the search reads come after the id, for index-only counts.
    index('patients_name_last_first_idx').on(
      t.hospitalId,
      sql`(f_unaccent(lower(last_name || ' ' || first_name)) collate "C")`,
      t.id,
      t.archivedAt,
      t.lastName,
      t.firstName,
    ),
    index('patients_name_first_last_idx').on(
      t.hospitalId,
      sql`(f_unaccent(lower(first_name || ' ' || last_name)) collate "C")`,
      t.id,
      t.archivedAt,
      t.firstName,
      t.lastName,
    ),
    // Name search (accent, case and typo insensitive): trigram GIN on the unaccented lower-cased name.
    index('patients_name_trgm_idx').using(
      'gin',
      sql`f_unaccent(lower(last_name || ' ' || first_name)) gin_trgm_ops`,
    ),
    // Phone search by any part of the number (LIKE '%…%' uses the trigram index).
    index('patients_phone_trgm_idx').using('gin', sql`phone gin_trgm_ops`),
  ],
);

/**
 * How many visits a patient has (issue 38, migration 0051, decision 0084): kept by a trigger on `admissions` in the
 * writer's transaction, read by the record instead of counting the history. No row: no visit.
 */
export const patientVisitCounts = pgTable('patient_visit_counts', {
  patientId: uuid('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  visits: integer('visits').notNull(),
});

export const admissions = pgTable(
  'admissions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    admissionType: admissionType('admission_type').notNull(),
    reason: text('reason').notNull(),
    status: admissionStatus('status').notNull().default('waiting'),
    /** Day (hospital time zone) and number of the visit in that day's queue. */
    queueDate: date('queue_date').notNull(),
    queueNumber: integer('queue_number').notNull(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }).notNull().defaultNow(),
    /** The latest triage, copied here so that every queue orders by an indexed column. */
    triageId: uuid('triage_id'),
    triageLevel: text('triage_level'),
    triageRank: smallint('triage_rank'),
    triageTargetMinutes: integer('triage_target_minutes'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('admissions_hospital_queue_uq').on(t.hospitalId, t.queueDate, t.queueNumber),
    index('admissions_hospital_admitted_idx').on(t.hospitalId, t.admittedAt.desc()),
    index('admissions_hospital_status_queue_idx').on(t.hospitalId, t.status, t.triageRank, t.admittedAt),
    index('admissions_department_status_idx').on(t.departmentId, t.status, t.triageRank, t.admittedAt),
    // The record's latest visits as it orders them (`admitted_at desc, id desc`: nulls first, as Postgres's default
    // desc), read from the index's first rows without a sort whatever the history's length (issue 38).
    index('admissions_patient_idx').on(
      t.patientId,
      t.admittedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // FHIR `_lastUpdated` (issue 39).
    index('admissions_hospital_updated_idx').on(t.hospitalId, t.updatedAt),
  ],
);

export const triageRecords = pgTable(
  'triage_records',
  {
    id: id(),
    hospitalId: hospitalRef(),
    admissionId: uuid('admission_id')
      .notNull()
      .references(() => admissions.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    scale: triageScale('scale').notNull(),
    temperature: numeric('temperature', { precision: 4, scale: 1, mode: 'number' }),
    heartRate: smallint('heart_rate'),
    respiratoryRate: smallint('respiratory_rate'),
    systolicBp: smallint('systolic_bp'),
    diastolicBp: smallint('diastolic_bp'),
    spo2: smallint('spo2'),
    weight: numeric('weight', { precision: 5, scale: 2, mode: 'number' }),
    height: numeric('height', { precision: 5, scale: 1, mode: 'number' }),
    /** mmol/L. */
    glycaemia: numeric('glycaemia', { precision: 4, scale: 1, mode: 'number' }),
    pain: smallint('pain'),
    gcs: smallint('gcs'),
    avpu: text('avpu'),
    confused: boolean('confused'),
    mobility: text('mobility'),
    trauma: boolean('trauma'),
    chiefComplaint: text('chief_complaint').notNull(),
    discriminators: text('discriminators').array().notNull().default(sql`'{}'::text[]`),
    tews: smallint('tews'),
    /** What the rules suggested and what the nurse chose; both kept. */
    suggestedLevel: text('suggested_level').notNull(),
    suggestionReasons: jsonb('suggestion_reasons').$type<string[]>().notNull().default([]),
    level: text('level').notNull(),
    levelRank: smallint('level_rank').notNull(),
    overrideReason: text('override_reason'),
    targetMinutes: integer('target_minutes'),
    notes: text('notes'),
    /** NEWS2 of the set (null for a child), computed as for every set of the series (issue 37, decision 0068). */
    news2Score: smallint('news2_score'),
    news2: jsonb('news2').$type<Record<string, unknown>>(),
    recordedBy: uuid('recorded_by')
      .notNull()
      .references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('triage_admission_idx').on(t.admissionId, t.recordedAt.desc()),
    index('triage_hospital_time_idx').on(t.hospitalId, t.recordedAt.desc()),
    index('triage_patient_idx').on(t.patientId, t.recordedAt.desc()),
  ],
);

/** A unit of work assigned to a provider (here: the consultation of an admission). */
export const executions = pgTable(
  'executions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    kind: executionKind('kind').notNull().default('consultation'),
    admissionId: uuid('admission_id')
      .notNull()
      .references(() => admissions.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => users.id),
    status: executionStatus('status').notNull().default('assigned'),
    /** Triage rank at assignment time (1 first); the queues order by the admission's current rank. */
    priority: smallint('priority'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    assignedBy: uuid('assigned_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open execution of a kind per admission (re-targeting updates it).
    uniqueIndex('executions_open_uq')
      .on(t.admissionId, t.kind)
      .where(sql`${t.status} in ('assigned', 'in_progress')`),
    index('executions_doctor_status_idx').on(t.doctorId, t.status, t.hospitalId),
    index('executions_doctor_completed_idx').on(t.doctorId, t.completedAt),
    index('executions_hospital_status_idx').on(t.hospitalId, t.status),
  ],
);

/**
 * A consultation: started from an admission's queue, or created directly for a patient (no admission). Its
 * sections are saved as drafts while `in_progress` (optimistic `version`); `completed` locks it, later changes
 * are addenda (records.ts). Diagnoses and exam orders are in records.ts.
 */
export const consultations = pgTable(
  'consultations',
  {
    id: id(),
    hospitalId: hospitalRef(),
    admissionId: uuid('admission_id').references(() => admissions.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** The department the consultation belongs to (the admission's, or the author's when created directly). */
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => users.id),
    executionId: uuid('execution_id').references(() => executions.id),
    status: consultationStatus('status').notNull().default('in_progress'),
    reason: text('reason'),
    history: text('history'),
    currentTreatment: text('current_treatment'),
    /** The allergies the doctor confirmed with the patient (copied to the patient on completion). */
    allergies: text('allergies').array(),
    allergiesConfirmed: boolean('allergies_confirmed').notNull().default(false),
    examination: text('examination'),
    /** Same model and bounds as triage (shared ZVitals). */
    vitals: jsonb('vitals').$type<Record<string, unknown>>(),
    /** NEWS2 of `vitals` (null for a child or no vitals), computed at each save (issue 37, decision 0068). */
    news2Score: smallint('news2_score'),
    news2: jsonb('news2').$type<Record<string, unknown>>(),
    conclusion: text('conclusion'),
    plan: text('plan'),
    outcome: consultationOutcome('outcome'),
    outcomeNotes: text('outcome_notes'),
    followUpDate: date('follow_up_date'),
    /** Incremented by every draft save; a save carrying an older version is a 409. */
    version: integer('version').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    completedBy: uuid('completed_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A visit has at most one consultation in progress: a second start is refused (409), even concurrently.
    uniqueIndex('consultations_admission_open_uq').on(t.admissionId).where(sql`${t.status} = 'in_progress'`),
    index('consultations_patient_idx').on(t.patientId, t.startedAt.desc()),
    index('consultations_doctor_idx').on(t.doctorId, t.startedAt.desc()),
    index('consultations_hospital_idx').on(t.hospitalId, t.startedAt.desc()),
    index('consultations_department_idx').on(t.departmentId, t.startedAt.desc()),
    // The reporting summaries' flow (a day's visits and their consultations).
    index('consultations_admission_idx').on(t.admissionId),
    // The Hospital Overview's consultations completed today (the admin dashboard's first load).
    index('consultations_hospital_completed_idx').on(t.hospitalId, t.completedAt),
  ],
);
