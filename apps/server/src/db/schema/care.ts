import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { admissions, patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { hospitalizations } from './inpatient.js';
import { users } from './people.js';
import { medicationRoute, prescriptionLines } from './pharmacy.js';
import { hospitalRef } from './structure.js';

/**
 * Nursing care (issue 20, docs/decisions/0025-nursing-care.md). A plan per stay or per emergency visit; orders
 * generate care executions (their own table: the `executions` of clinical.ts are the doctors' consultation
 * queue); ward vitals with their NEWS2; intake/output; the medication administration record; SBAR handoffs.
 * What protects patients is a constraint: one plan per stay/visit, one execution per order slot, one record per
 * dose (and per idempotency key), a handoff per patient and shift acknowledged by someone other than its author.
 */

export const careOrderKind = pgEnum('care_order_kind', [
  'vitals',
  'dressing',
  'iv_line',
  'positioning',
  'feeding',
  'specimen',
  'custom',
]);
export const careOrderStatus = pgEnum('care_order_status', ['active', 'stopped', 'completed']);
export const carePriority = pgEnum('care_priority', ['urgent', 'high', 'normal']);
export const careExecutionStatus = pgEnum('care_execution_status', [
  'scheduled',
  'done',
  'not_done',
  'cancelled',
]);
export const doseOutcome = pgEnum('dose_outcome', ['given', 'not_given']);

export const carePlans = pgTable(
  'care_plans',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    hospitalizationId: uuid('hospitalization_id').references(() => hospitalizations.id),
    admissionId: uuid('admission_id').references(() => admissions.id),
    /** Hypercapnic respiratory failure: NEWS2 reads SpO₂ on scale 2. */
    hypercapnic: boolean('hypercapnic').notNull().default(false),
    goals: text('goals'),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('care_plans_hospitalization_uq')
      .on(t.hospitalizationId)
      .where(sql`${t.hospitalizationId} is not null`),
    uniqueIndex('care_plans_admission_uq').on(t.admissionId).where(sql`${t.admissionId} is not null`),
    check('care_plans_target_ck', sql`(${t.hospitalizationId} is null) <> (${t.admissionId} is null)`),
    index('care_plans_hospital_idx').on(t.hospitalId, t.createdAt),
    index('care_plans_patient_idx').on(t.patientId),
  ],
);

export const careOrders = pgTable(
  'care_orders',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    kind: careOrderKind('kind').notNull(),
    title: text('title').notNull(),
    instructions: text('instructions'),
    signs: text('signs').array().notNull().default(sql`'{}'::text[]`),
    priority: carePriority('priority').notNull().default('normal'),
    /** `ZCareSchedule` (checked by the API's schema). */
    schedule: jsonb('schedule').$type<Record<string, unknown>>().notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    /** Null: until stopped. */
    endAt: timestamp('end_at', { withTimezone: true }),
    status: careOrderStatus('status').notNull().default('active'),
    /** Executions exist up to this instant (the materialisation's horizon). */
    materializedUntil: timestamp('materialized_until', { withTimezone: true }),
    orderedBy: uuid('ordered_by')
      .notNull()
      .references(() => users.id),
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull().defaultNow(),
    stoppedBy: uuid('stopped_by').references(() => users.id),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    stopReason: text('stop_reason'),
  },
  (t) => [
    check('care_orders_end_ck', sql`${t.endAt} is null or ${t.endAt} >= ${t.startAt}`),
    check('care_orders_stopped_ck', sql`${t.status} <> 'stopped' or ${t.stoppedAt} is not null`),
    index('care_orders_plan_idx').on(t.planId, t.status, t.orderedAt),
    index('care_orders_active_idx').on(t.status, t.materializedUntil),
    index('care_orders_hospital_idx').on(t.hospitalId, t.orderedAt),
  ],
);

export const careExecutions = pgTable(
  'care_executions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => careOrders.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** The slot the order's schedule generated (never changes: the materialisation's key). */
    slotAt: timestamp('slot_at', { withTimezone: true }).notNull(),
    /** When it is due (the slot, or the time it was rescheduled to). */
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    /** 1 urgent, 2 high, 3 normal (the order's). */
    priority: smallint('priority').notNull().default(3),
    status: careExecutionStatus('status').notNull().default('scheduled'),
    assigneeId: uuid('assignee_id').references(() => users.id),
    assignedBy: uuid('assigned_by').references(() => users.id),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    doneBy: uuid('done_by').references(() => users.id),
    doneAt: timestamp('done_at', { withTimezone: true }),
    notDoneReason: text('not_done_reason'),
    note: text('note'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }),
    /** The client's key of the record (issue 40: a record queued offline is sent again until answered). */
    recordKey: uuid('record_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('care_executions_record_key_uq')
      .on(t.hospitalId, t.recordKey)
      .where(sql`${t.recordKey} is not null`),
    // Materialising twice (the job on two instances, an order saved while the job runs) makes one row.
    uniqueIndex('care_executions_slot_uq').on(t.orderId, t.slotAt),
    check(
      'care_executions_done_ck',
      sql`${t.status} <> 'done' or (${t.doneBy} is not null and ${t.doneAt} is not null)`,
    ),
    check('care_executions_not_done_ck', sql`${t.status} <> 'not_done' or ${t.notDoneReason} is not null`),
    index('care_executions_hospital_due_idx').on(t.hospitalId, t.status, t.scheduledAt),
    index('care_executions_assignee_idx').on(t.assigneeId, t.status, t.scheduledAt),
    index('care_executions_plan_idx').on(t.planId, t.scheduledAt),
  ],
);

export const careVitals = pgTable(
  'care_vitals',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    recordedBy: uuid('recorded_by')
      .notNull()
      .references(() => users.id),
    temperature: numeric('temperature', { precision: 4, scale: 1, mode: 'number' }),
    heartRate: smallint('heart_rate'),
    respiratoryRate: smallint('respiratory_rate'),
    systolicBp: smallint('systolic_bp'),
    diastolicBp: smallint('diastolic_bp'),
    spo2: smallint('spo2'),
    onOxygen: boolean('on_oxygen').notNull().default(false),
    oxygenFlow: numeric('oxygen_flow', { precision: 4, scale: 1, mode: 'number' }),
    avpu: text('avpu'),
    confused: boolean('confused'),
    pain: smallint('pain'),
    weight: numeric('weight', { precision: 5, scale: 2, mode: 'number' }),
    /** cm (issue 39: a scale-and-stadiometer or the ward's measure; FHIR 8302-2). Not part of NEWS2. */
    height: numeric('height', { precision: 4, scale: 1, mode: 'number' }),
    glycaemia: numeric('glycaemia', { precision: 4, scale: 1, mode: 'number' }),
    note: text('note'),
    /** Null for a child (NEWS2 is from 16 years). */
    news2Score: smallint('news2_score'),
    /** The whole `News2Result` (breakdown, risk, escalation). */
    news2: jsonb('news2').$type<Record<string, unknown>>(),
    /** The doctors notified of an escalation. */
    escalatedTo: uuid('escalated_to').array().notNull().default(sql`'{}'::uuid[]`),
    executionId: uuid('execution_id').references(() => careExecutions.id),
    /**
     * The client's key of the set (issue 40): a set queued offline and sent twice is one set. `recorded_at` is
     * when it was taken, `created_at` when the server received it.
     */
    idempotencyKey: uuid('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('care_vitals_key_uq')
      .on(t.hospitalId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('care_vitals_plan_idx').on(t.planId, t.recordedAt.desc()),
    index('care_vitals_patient_idx').on(t.patientId, t.recordedAt.desc()),
    index('care_vitals_hospital_idx').on(t.hospitalId, t.recordedAt.desc()),
    // The app's bounds (VITAL_BOUNDS.height of packages/shared, the triage's): 20–250 cm.
    check('care_vitals_height_ck', sql`${t.height} between 20 and 250`),
  ],
);

export const careFluids = pgTable(
  'care_fluids',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    direction: text('direction').notNull(),
    kind: text('kind').notNull(),
    volumeMl: integer('volume_ml').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    recordedBy: uuid('recorded_by')
      .notNull()
      .references(() => users.id),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    check('care_fluids_volume_ck', sql`${t.volumeMl} > 0 and ${t.volumeMl} <= 10000`),
    check('care_fluids_direction_ck', sql`${t.direction} in ('intake', 'output')`),
    index('care_fluids_plan_idx').on(t.planId, t.recordedAt),
  ],
);

/** One dose of a prescription line, given or not: recorded once (line × time), replayed by its key. */
export const medicationAdministrations = pgTable(
  'medication_administrations',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    prescriptionLineId: uuid('prescription_line_id')
      .notNull()
      .references(() => prescriptionLines.id),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    outcome: doseOutcome('outcome').notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }),
    dose: numeric('dose', { precision: 10, scale: 3, mode: 'number' }),
    doseUnit: text('dose_unit'),
    route: medicationRoute('route'),
    site: text('site'),
    reason: text('reason'),
    note: text('note'),
    late: boolean('late').notNull().default(false),
    /** The client's key of the submit: a repeated submit finds the first record. */
    idempotencyKey: uuid('idempotency_key').notNull(),
    recordedBy: uuid('recorded_by')
      .notNull()
      .references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('medication_administrations_dose_uq').on(t.prescriptionLineId, t.scheduledAt),
    uniqueIndex('medication_administrations_key_uq').on(t.idempotencyKey),
    check(
      'medication_administrations_given_ck',
      sql`${t.outcome} <> 'given' or (${t.givenAt} is not null and ${t.dose} is not null and ${t.route} is not null)`,
    ),
    check(
      'medication_administrations_not_given_ck',
      sql`${t.outcome} <> 'not_given' or ${t.reason} is not null`,
    ),
    index('medication_administrations_plan_idx').on(t.planId, t.scheduledAt),
    // FHIR MedicationAdministration searches: a patient's doses, the hospital's latest (issue 39, migration 0050).
    index('medication_administrations_patient_idx').on(t.patientId, t.scheduledAt.desc()),
    index('medication_administrations_hospital_idx').on(t.hospitalId, t.scheduledAt.desc()),
  ],
);

export const careHandoffs = pgTable(
  'care_handoffs',
  {
    id: id(),
    hospitalId: hospitalRef(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => carePlans.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    shiftStart: timestamp('shift_start', { withTimezone: true }).notNull(),
    shiftEnd: timestamp('shift_end', { withTimezone: true }).notNull(),
    shiftLabel: text('shift_label').notNull(),
    situation: text('situation').notNull(),
    background: text('background').notNull(),
    assessment: text('assessment').notNull(),
    recommendation: text('recommendation').notNull(),
    /** The changes of the shift as pre-filled (kind, at, text). */
    changes: jsonb('changes').$type<unknown[]>().notNull().default([]),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgeNote: text('acknowledge_note'),
  },
  (t) => [
    uniqueIndex('care_handoffs_shift_uq').on(t.planId, t.shiftStart),
    // The incoming nurse acknowledges: never the author.
    check(
      'care_handoffs_ack_ck',
      sql`${t.acknowledgedBy} is null or (${t.acknowledgedBy} <> ${t.authorId} and ${t.acknowledgedAt} is not null)`,
    ),
    index('care_handoffs_hospital_idx').on(t.hospitalId, t.shiftStart),
    index('care_handoffs_pending_idx').on(t.hospitalId, t.shiftStart).where(sql`${t.acknowledgedAt} is null`),
  ],
);
