import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { admissions, patients } from './clinical.js';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';
import { departments, hospitalRef } from './structure.js';

/**
 * Appointments (issue 22, docs/decisions/0028-appointments.md): providers' weekly schedules, their exceptions, the
 * hospital's public holidays, the appointments with their moves, the per-slot capacity counter that the database
 * enforces (`check (booked <= capacity)`, updated in the booking transaction), reminders sent (one per appointment,
 * time and channel), the SMS outbox and the personal iCalendar feed links (hashed).
 */

export const appointmentType = pgEnum('appointment_type', [
  'new',
  'follow_up',
  'antenatal',
  'vaccination',
  'procedure',
  'other',
]);
export const appointmentStatus = pgEnum('appointment_status', [
  'booked',
  'confirmed',
  'checked_in',
  'completed',
  'no_show',
  'cancelled',
]);
export const scheduleExceptionKind = pgEnum('schedule_exception_kind', ['leave', 'training', 'other']);

export const providerSchedules = pgTable(
  'provider_schedules',
  {
    id: id(),
    hospitalId: hospitalRef(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    /** `[{weekday: "mon", start: "08:00", end: "12:00"}, …]` in the hospital's time zone (checked by the API). */
    sessions: jsonb('sessions').$type<{ weekday: string; start: string; end: string }[]>().notNull(),
    slotMinutes: smallint('slot_minutes').notNull(),
    capacity: smallint('capacity').notNull(),
    types: appointmentType('types').array().notNull(),
    validFrom: date('valid_from').notNull(),
    validUntil: date('valid_until'),
    note: text('note'),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
  },
  (t) => [
    check('provider_schedules_slot_ck', sql`${t.slotMinutes} between 5 and 240`),
    check('provider_schedules_capacity_ck', sql`${t.capacity} between 1 and 50`),
    check(
      'provider_schedules_validity_ck',
      sql`${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`,
    ),
    index('provider_schedules_department_idx').on(t.hospitalId, t.departmentId).where(sql`${t.active}`),
    index('provider_schedules_provider_idx').on(t.hospitalId, t.providerId),
  ],
);

export const scheduleExceptions = pgTable(
  'schedule_exceptions',
  {
    id: id(),
    hospitalId: hospitalRef(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    kind: scheduleExceptionKind('kind').notNull(),
    reason: text('reason'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('schedule_exceptions_dates_ck', sql`${t.endDate} >= ${t.startDate}`),
    index('schedule_exceptions_provider_idx').on(t.hospitalId, t.providerId, t.endDate),
    index('schedule_exceptions_hospital_idx').on(t.hospitalId, t.endDate),
  ],
);

export const hospitalHolidays = pgTable(
  'hospital_holidays',
  {
    id: id(),
    hospitalId: hospitalRef(),
    date: date('date').notNull(),
    name: text('name').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('hospital_holidays_date_uq').on(t.hospitalId, t.date)],
);

/**
 * The capacity counter of one provider's slot: `booked` counts the appointments holding a place (not cancelled, not
 * overbooked), and the check makes a booking beyond `capacity` fail in the database whatever the concurrency (the
 * upsert locks the row). Overbookings by a head doctor are counted apart.
 */
export const appointmentSlots = pgTable(
  'appointment_slots',
  {
    hospitalId: hospitalRef(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    capacity: smallint('capacity').notNull(),
    booked: smallint('booked').notNull().default(0),
    overbooked: smallint('overbooked').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'appointment_slots_pk', columns: [t.hospitalId, t.providerId, t.startAt] }),
    // The free-slot search reads a department's counters of a day or a week: one range of time for all its
    // providers (the key's order, provider first, made it 50 probes or a scan of the table: decision 0041).
    index('appointment_slots_start_idx').on(t.hospitalId, t.startAt),
    check('appointment_slots_capacity_ck', sql`${t.booked} <= ${t.capacity}`),
    check('appointment_slots_positive_ck', sql`${t.booked} >= 0 and ${t.overbooked} >= 0`),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => users.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    scheduleId: uuid('schedule_id').references(() => providerSchedules.id),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    appointmentType: appointmentType('appointment_type').notNull(),
    reason: text('reason').notNull(),
    notes: text('notes'),
    status: appointmentStatus('status').notNull().default('booked'),
    overbooked: boolean('overbooked').notNull().default(false),
    overbookedBy: uuid('overbooked_by').references(() => users.id),
    bookedBy: uuid('booked_by').references(() => users.id),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    noShowAt: timestamp('no_show_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    cancelReason: text('cancel_reason'),
    /** The visit check-in opened. */
    admissionId: uuid('admission_id').references(() => admissions.id),
    rescheduleCount: smallint('reschedule_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('appointments_times_ck', sql`${t.endAt} > ${t.startAt}`),
    check(
      'appointments_cancel_reason_ck',
      sql`${t.status} <> 'cancelled' or (${t.cancelReason} is not null and ${t.cancelledAt} is not null)`,
    ),
    check('appointments_overbooked_ck', sql`not ${t.overbooked} or ${t.overbookedBy} is not null`),
    uniqueIndex('appointments_admission_uq').on(t.admissionId).where(sql`${t.admissionId} is not null`),
    // A patient holds one place of a provider's slot at most.
    uniqueIndex('appointments_patient_slot_uq')
      .on(t.providerId, t.startAt, t.patientId)
      .where(sql`${t.status} <> 'cancelled'`),
    index('appointments_provider_start_idx').on(t.hospitalId, t.providerId, t.startAt),
    index('appointments_department_start_idx').on(t.hospitalId, t.departmentId, t.startAt),
    index('appointments_patient_start_idx').on(t.hospitalId, t.patientId, t.startAt),
    index('appointments_hospital_start_idx').on(t.hospitalId, t.startAt),
  ],
);

/** A move of an appointment (a row per reschedule): where it was and where it went. */
export const appointmentMoves = pgTable(
  'appointment_moves',
  {
    id: id(),
    hospitalId: hospitalRef(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    fromStart: timestamp('from_start', { withTimezone: true }).notNull(),
    fromEnd: timestamp('from_end', { withTimezone: true }).notNull(),
    fromProviderId: uuid('from_provider_id')
      .notNull()
      .references(() => users.id),
    fromDepartmentId: uuid('from_department_id')
      .notNull()
      .references(() => departments.id),
    toStart: timestamp('to_start', { withTimezone: true }).notNull(),
    toEnd: timestamp('to_end', { withTimezone: true }).notNull(),
    toProviderId: uuid('to_provider_id')
      .notNull()
      .references(() => users.id),
    toDepartmentId: uuid('to_department_id')
      .notNull()
      .references(() => departments.id),
    reason: text('reason'),
    movedBy: uuid('moved_by').references(() => users.id),
    movedAt: createdAt(),
  },
  (t) => [index('appointment_moves_appointment_idx').on(t.appointmentId, t.movedAt)],
);

/** Reminders sent: one per appointment, start time and channel (the job's idempotency). */
export const appointmentReminders = pgTable(
  'appointment_reminders',
  {
    id: id(),
    hospitalId: hospitalRef(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    channel: text('channel').notNull(),
    language: text('language').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('appointment_reminders_channel_ck', sql`${t.channel} in ('email', 'sms')`),
    uniqueIndex('appointment_reminders_uq').on(t.appointmentId, t.startAt, t.channel),
  ],
);

/**
 * Text messages waiting for an SMS provider (the default `SmsSender` writes here; decision 0028). A provider's
 * sender delivers them and sets `sent_at` / `provider_ref`, or `error`.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: id(),
    hospitalId: hospitalRef(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    language: text('language').notNull(),
    /** What sent it (`appointments.reminder`). */
    purpose: text('purpose').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    providerRef: text('provider_ref'),
    error: text('error'),
  },
  (t) => [
    index('sms_outbox_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null`),
    index('sms_outbox_hospital_idx').on(t.hospitalId, t.createdAt),
  ],
);

/** A person's revocable iCalendar feed link (the token is shown once; only its SHA-256 is kept). */
export const icsLinks = pgTable(
  'ics_links',
  {
    id: id(),
    hospitalId: hospitalRef(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ics_links_token_uq').on(t.tokenHash),
    uniqueIndex('ics_links_active_uq').on(t.hospitalId, t.userId).where(sql`${t.revokedAt} is null`),
  ],
);
