/**
 * Which role groups may take each clinical action. The server's routes declare exactly these lists in
 * their access policy; the web app reads the same lists only to hide what the user may not do.
 */
import type { DashboardGroup } from './roles.js';

export type Action =
  | 'patient.register'
  | 'patient.archive'
  | 'admission.create'
  | 'admission.status'
  | 'admission.cancel'
  | 'triage.record'
  | 'patient.assign'
  | 'consultation.start'
  | 'consultation.create'
  | 'consultation.edit'
  | 'consultation.addendum'
  | 'exam.order'
  | 'exam.perform'
  | 'exam.validate'
  | 'exam.cancel'
  | 'exam.acknowledge'
  | 'structure.manage'
  | 'hospitalization.read'
  | 'hospitalization.admit'
  | 'hospitalization.bed'
  | 'hospitalization.bed_override'
  | 'hospitalization.note'
  | 'hospitalization.discharge'
  | 'transfer.request'
  | 'transfer.decide'
  | 'staff.manage'
  | 'audit.read'
  | 'patient.access_log'
  | 'prescription.write'
  | 'prescription.read'
  | 'pharmacy.manage'
  | 'care.read'
  | 'care.write'
  | 'medical_act.read'
  | 'medical_act.manage'
  | 'medical_act.record'
  | 'billing.read'
  | 'billing.work'
  | 'billing.credit'
  | 'billing.manage'
  | 'billing.balance'
  | 'appointment.read'
  | 'appointment.book'
  | 'appointment.check_in'
  | 'appointment.overbook'
  | 'schedule.manage'
  | 'holiday.manage'
  | 'patient_note.read'
  | 'patient_note.write'
  | 'stats.read'
  | 'stats.drilldown'
  | 'stats.dhis2_mapping';

const CARE: readonly DashboardGroup[] = ['nurse', 'doctor', 'head_doctor', 'midwife'];

export const ACTION_GROUPS: Readonly<Record<Action, readonly DashboardGroup[]>> = {
  'patient.register': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'patient.archive': ['secretary', 'queue_manager', 'head_doctor', 'admin'],
  'admission.create': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'admission.status': ['doctor', 'head_doctor', 'midwife', 'queue_manager'],
  'admission.cancel': ['secretary', 'queue_manager', ...CARE],
  'triage.record': ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
  'patient.assign': ['secretary', 'queue_manager', 'head_doctor'],
  'consultation.start': ['doctor', 'head_doctor', 'midwife'],
  // Practitioners only; on each consultation the consultation-access rule then decides (docs/consultation-access.md).
  'consultation.create': ['doctor', 'head_doctor', 'midwife'],
  /** Draft saves, diagnoses, completion and cancellation. */
  'consultation.edit': ['doctor', 'head_doctor', 'midwife'],
  'consultation.addendum': ['doctor', 'head_doctor', 'midwife'],
  // Exams (docs/decisions/0007-exam-roles.md): these groups pass the route; the order's performing department
  // and requester decide the rest (domain/exams.ts, examActionPermitted).
  'exam.order': ['doctor', 'head_doctor'],
  'exam.perform': ['nurse', 'doctor', 'head_doctor'],
  'exam.validate': ['doctor', 'head_doctor'],
  'exam.cancel': ['nurse', 'doctor', 'head_doctor'],
  'exam.acknowledge': ['doctor', 'head_doctor'],
  /** Departments, wards, rooms and beds (issue 15): the structure routes allow administrators only. */
  'structure.manage': ['admin'],
  // Inpatient stays (issue 17). The bed board, lists and census are read by every member; a stay's clinical
  // page (diagnoses, progress notes) by the care team, the charge nurse and administrators.
  'hospitalization.read': [...CARE, 'queue_manager', 'admin'],
  /** Admit (create a stay), change its department, doctor, reason or provisional diagnosis. */
  'hospitalization.admit': ['doctor', 'head_doctor', 'midwife'],
  /** Put a patient in a bed, move them, and the housekeeping of freed beds. */
  'hospitalization.bed': [...CARE, 'queue_manager'],
  /**
   * Place a patient despite the ward's and room's guardrails, with a reason (issue 37, decision 0069): the charge
   * nurse (CHARGE_NURSE is in the queue-manager group).
   */
  'hospitalization.bed_override': ['queue_manager'],
  'hospitalization.note': ['doctor', 'head_doctor', 'midwife'],
  'hospitalization.discharge': ['doctor', 'head_doctor', 'midwife'],
  'transfer.request': ['doctor', 'head_doctor', 'midwife'],
  /** Accept or reject: the receiving department's head or doctors (the service checks the department). */
  'transfer.decide': ['doctor', 'head_doctor', 'midwife'],
  /** Staff, memberships, invitations and account actions of the hospital (issue 15, decision 0020). */
  'staff.manage': ['admin'],
  /** The audit viewer and its CSV export. */
  'audit.read': ['admin'],
  /** Who opened a patient's record (the patient page's "Accès au dossier"; decision 0020). */
  'patient.access_log': ['head_doctor', 'admin'],
  // Pharmacy (issue 18, docs/decisions/0022-pharmacy-roles.md). Practitioners prescribe; the stock and the
  // dispensing are the work of the members of a pharmacy department among these groups (the service checks the
  // department, as the laboratory's does for exams); every member reads the medication reference.
  'prescription.write': ['doctor', 'head_doctor', 'midwife'],
  /** Prescriptions are read (and printed) by the care team, the charge nurse and administrators, not secretaries. */
  'prescription.read': ['nurse', 'doctor', 'head_doctor', 'midwife', 'queue_manager', 'admin', 'pharmacist'],
  /** Decision 0070: the pharmacist is a pharmacy's staff like the others (the service checks the membership). */
  'pharmacy.manage': ['nurse', 'doctor', 'head_doctor', 'queue_manager', 'pharmacist'],
  // Nursing care (issue 20, decision 0025). The care team of the patient's department (the service checks the
  // department): nurses, the charge nurse (queue-manager group), doctors, the head doctor and midwives read the
  // plans, write orders, assign executions and record executions, vitals, doses and handoffs. Administrators,
  // secretaries and laboratory staff have no access to nursing records.
  'care.read': ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
  'care.write': ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
  // Medical acts and billing (issue 21, docs/decisions/0027-billing-roles.md). "Billing staff" are the members of
  // a department of kind `billing` among BILLING_STAFF_GROUPS: for the secretary and queue-manager groups (and
  // for `billing.work`, every group) the service checks that membership, as the pharmacy's does.
  /** The catalogue and its tariffs: every member (act labels and prices, no patient data). */
  'medical_act.read': ['secretary', 'queue_manager', ...CARE, 'admin', 'cashier'],
  /** Acts, tariffs and payers: the hospital's management. */
  'medical_act.manage': ['head_doctor', 'admin'],
  /** Record or cancel a performed act: clinicians, and billing staff (checked by the service). */
  'medical_act.record': [...CARE, 'secretary', 'queue_manager'],
  /** Invoices, receipts, payers, statements, cash-session reports: billing staff and the management. */
  'billing.read': ['secretary', 'queue_manager', 'nurse', 'head_doctor', 'admin', 'cashier'],
  /** Assemble, edit, issue, cancel drafts; payments and refunds (with an open cash session): billing staff only. */
  'billing.work': ['secretary', 'queue_manager', 'nurse', 'head_doctor', 'cashier'],
  /** Credit notes: billing staff, the head doctor and administrators. */
  'billing.credit': ['secretary', 'queue_manager', 'nurse', 'head_doctor', 'admin', 'cashier'],
  /** Payers and their coverage rules: the hospital's management. */
  'billing.manage': ['head_doctor', 'admin'],
  /** A patient's balance: clinicians, billing staff and the management; not the cash desk's details. */
  'billing.balance': ['secretary', 'queue_manager', ...CARE, 'admin', 'cashier'],
  // Appointments (issue 22, decision 0028). Bookers read, book, confirm, reschedule, cancel, record a no-show or a
  // completion; the desk (secretaries, queue managers) checks patients in; only a head doctor books beyond a slot's
  // capacity; head doctors and administrators manage every provider's schedule (a provider reads their own);
  // administrators keep the hospital's public holidays.
  'appointment.read': ['secretary', 'queue_manager', 'nurse', 'doctor', 'head_doctor', 'midwife'],
  'appointment.book': ['secretary', 'queue_manager', 'nurse', 'doctor', 'head_doctor', 'midwife'],
  'appointment.check_in': ['secretary', 'queue_manager'],
  'appointment.overbook': ['head_doctor'],
  'schedule.manage': ['head_doctor', 'admin'],
  'holiday.manage': ['admin'],
  // Notes about a patient (issue 23, decision 0034): read by those who read the patient's clinical record (as the
  // patient's diagnoses: not secretaries), written by the clinical staff. Personal notes are every member's own.
  'patient_note.read': ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse', 'admin'],
  'patient_note.write': ['head_doctor', 'doctor', 'midwife', 'queue_manager', 'nurse'],
  // Reporting (issue 24, docs/decisions/0035-reporting.md): the figures (no patient data) for the hospital's
  // management; the records behind a figure only for those whose consultations list holds them all.
  'stats.read': ['head_doctor', 'admin'],
  'stats.drilldown': ['head_doctor'],
  // The DHIS2 mapping (decision 0039): the hospital's administrators; the export itself is a figure reader's.
  'stats.dhis2_mapping': ['admin'],
};

/** Role groups that count as billing staff when they are members of a department of kind `billing`. */
export const BILLING_STAFF_GROUPS: readonly DashboardGroup[] = [
  'secretary',
  'queue_manager',
  'nurse',
  'head_doctor',
  // Decision 0070: a cashier is billing staff as a member of a billing department, like a secretary there.
  'cashier',
];
/** Groups that pass `billing.read` / `billing.credit` / `billing.balance` without a billing membership. */
export const BILLING_MANAGER_GROUPS: readonly DashboardGroup[] = ['head_doctor', 'admin'];
