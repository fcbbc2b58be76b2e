import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
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
import { icd10Codes } from './records.js';
import { beds, departments, hospitalRef, hospitals, wards } from './structure.js';

/**
 * Inpatient stays (issue 17). The rules that protect patients are constraints here, not only checks in code:
 * a patient has at most one open stay, a bed at most one current occupant, a stay at most one current bed, a
 * stay at most one open transfer (docs/decisions/0019-inpatient-stays.md).
 */

export const hospitalizationStatus = pgEnum('hospitalization_status', [
  'pending_bed',
  'admitted',
  'discharged',
  'transferred_out',
  'deceased',
]);
export const dischargeMode = pgEnum('discharge_mode', ['home', 'against_advice', 'transferred', 'deceased']);

export const hospitalizations = pgTable(
  'hospitalizations',
  {
    id: id(),
    hospitalId: hospitalRef(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** The visit the patient came in by (it is `hospitalized`), and the consultation that decided it. */
    admissionId: uuid('admission_id').references(() => admissions.id),
    consultationId: uuid('consultation_id').references(() => consultations.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    /** The doctor in charge. */
    doctorId: uuid('doctor_id')
      .notNull()
      .references(() => users.id),
    status: hospitalizationStatus('status').notNull().default('pending_bed'),
    reason: text('reason').notNull(),
    provisionalIcdCode: text('provisional_icd_code').references(() => icd10Codes.code),
    expectedDays: smallint('expected_days'),
    /** The current bed (also in `bed_assignments`, whose open row is the constraint). */
    bedId: uuid('bed_id').references(() => beds.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    dischargeMode: dischargeMode('discharge_mode'),
    dischargeIcdCodes: text('discharge_icd_codes').array(),
    dischargeSummary: text('discharge_summary'),
    dischargeTreatments: text('discharge_treatments'),
    followUpDate: date('follow_up_date'),
    deathAt: timestamp('death_at', { withTimezone: true }),
    deathIcdCode: text('death_icd_code').references(() => icd10Codes.code),
    dischargedBy: uuid('discharged_by').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One open stay per patient: a patient is never admitted twice, so never in two beds.
    uniqueIndex('hospitalizations_patient_open_uq')
      .on(t.patientId)
      .where(sql`${t.status} in ('pending_bed', 'admitted')`),
    // One stay per bed at a time (the bed board reads the stay by its bed).
    uniqueIndex('hospitalizations_bed_uq').on(t.bedId).where(sql`${t.bedId} is not null`),
    check('hospitalizations_bed_state_ck', sql`(${t.status} = 'admitted') = (${t.bedId} is not null)`),
    check(
      'hospitalizations_closed_ck',
      sql`${t.status} in ('pending_bed', 'admitted') or (${t.endedAt} is not null and ${t.dischargeMode} is not null)`,
    ),
    // The lists and the census: open stays of a hospital by status, department, doctor.
    index('hospitalizations_hospital_status_idx').on(t.hospitalId, t.status, t.requestedAt),
    index('hospitalizations_department_status_idx').on(t.departmentId, t.status),
    index('hospitalizations_doctor_status_idx').on(t.doctorId, t.status),
    index('hospitalizations_patient_idx').on(t.patientId, t.requestedAt.desc()),
    index('hospitalizations_admission_idx').on(t.admissionId),
    // The stays ended since a moment (the dashboard's discharges of the day, the inpatient indicators): ended
    // stays only, so that it never competes with the status index for the open stays.
    index('hospitalizations_hospital_ended_idx')
      .on(t.hospitalId, t.endedAt)
      .where(sql`${t.endedAt} is not null`),
  ],
);

/** The timeline of beds of a stay; the open row (`ended_at` null) is the current bed. */
export const bedAssignments = pgTable(
  'bed_assignments',
  {
    id: id(),
    hospitalId: hospitalRef(),
    hospitalizationId: uuid('hospitalization_id')
      .notNull()
      .references(() => hospitalizations.id),
    bedId: uuid('bed_id')
      .notNull()
      .references(() => beds.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    assignedBy: uuid('assigned_by').references(() => users.id),
    /** The guardrails a charge nurse overrode for this placement (issue 37), with her reason. */
    overridden: text('overridden').array().notNull().default(sql`'{}'::text[]`),
    overrideReason: text('override_reason'),
  },
  (t) => [
    check(
      'bed_assignments_override_ck',
      sql`(cardinality(${t.overridden}) = 0) = (${t.overrideReason} is null)`,
    ),
    // A bed holds at most one patient, a stay lies in at most one bed: two nurses assigning the same bed at
    // the same moment get one success and one unique violation (409), never two occupants.
    uniqueIndex('bed_assignments_bed_open_uq').on(t.bedId).where(sql`${t.endedAt} is null`),
    uniqueIndex('bed_assignments_stay_open_uq').on(t.hospitalizationId).where(sql`${t.endedAt} is null`),
    index('bed_assignments_stay_idx').on(t.hospitalizationId, t.startedAt),
  ],
);

/** A doctor's daily progress note, signed when written; `addendumOf` points to the note it corrects. */
export const progressNotes = pgTable(
  'progress_notes',
  {
    id: id(),
    hospitalId: hospitalRef(),
    hospitalizationId: uuid('hospitalization_id')
      .notNull()
      .references(() => hospitalizations.id),
    addendumOf: uuid('addendum_of'),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('progress_notes_stay_idx').on(t.hospitalizationId, t.signedAt.desc()),
    index('progress_notes_addendum_idx').on(t.addendumOf),
  ],
);

export const transferKind = pgEnum('transfer_kind', ['internal', 'external']);
export const transferStatus = pgEnum('transfer_status', [
  'requested',
  'accepted',
  'rejected',
  'completed',
  'cancelled',
]);

export const transfers = pgTable(
  'transfers',
  {
    id: id(),
    /** The sending hospital (the stay's). */
    hospitalId: hospitalRef(),
    hospitalizationId: uuid('hospitalization_id')
      .notNull()
      .references(() => hospitalizations.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    kind: transferKind('kind').notNull(),
    status: transferStatus('status').notNull().default('requested'),
    fromDepartmentId: uuid('from_department_id')
      .notNull()
      .references(() => departments.id),
    toDepartmentId: uuid('to_department_id').references(() => departments.id),
    toWardId: uuid('to_ward_id').references(() => wards.id),
    /** External: another hospital of this installation (it receives the request), or a facility in words. */
    toHospitalId: uuid('to_hospital_id').references(() => hospitals.id),
    facilityName: text('facility_name'),
    reason: text('reason').notNull(),
    summary: text('summary'),
    treatments: text('treatments'),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    rejectReason: text('reject_reason'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('transfers_stay_open_uq')
      .on(t.hospitalizationId)
      .where(sql`${t.status} in ('requested', 'accepted')`),
    check(
      'transfers_target_ck',
      sql`(${t.kind} = 'internal' and ${t.toDepartmentId} is not null) or (${t.kind} = 'external' and (${t.toHospitalId} is not null or ${t.facilityName} is not null))`,
    ),
    index('transfers_hospital_status_idx').on(t.hospitalId, t.status, t.requestedAt.desc()),
    index('transfers_to_hospital_idx').on(t.toHospitalId, t.status).where(sql`${t.toHospitalId} is not null`),
    index('transfers_stay_idx').on(t.hospitalizationId, t.requestedAt.desc()),
  ],
);
