/**
 * The consultation-access rule (specification §2 names the middleware; its rules are ours — docs/
 * consultation-access.md). The server applies it to every consultation route; the web's route guard of
 * `/consultations/{id}` and its buttons read the same function.
 *
 * - edit: the consultation's doctor, any head doctor of the hospital, and midwives for a maternity admission —
 *   while the consultation is in progress. Once completed (or cancelled) nobody edits; those who could edit it
 *   may add dated addenda to a completed one.
 * - read: everyone who may edit, plus the practitioners (doctor, head doctor, midwife) of the consultation's
 *   department.
 * - none: everyone else — secretaries always, nurses, queue managers and administrators, practitioners of
 *   other departments.
 */
import type { DashboardGroup } from './roles.js';

export type ConsultationAccess = 'edit' | 'read' | 'none';

export interface ConsultationAccessUser {
  readonly id: string;
  /** The user's role groups in the current hospital. */
  readonly groups: readonly DashboardGroup[];
  /** The departments of the user's memberships in the current hospital. */
  readonly departmentIds: readonly string[];
}

export interface ConsultationAccessFacts {
  readonly doctorId: string;
  readonly departmentId: string;
  readonly status: 'in_progress' | 'completed' | 'cancelled';
  /** The admission's type, or null for a consultation created directly for a patient. */
  readonly admissionType: string | null;
}

const PRACTITIONERS: readonly DashboardGroup[] = ['doctor', 'head_doctor', 'midwife'];

/** Whether the user is responsible for the consultation (may edit it while open, add addenda once completed). */
export function isConsultationResponsible(user: ConsultationAccessUser, c: ConsultationAccessFacts): boolean {
  if (user.groups.includes('secretary')) return false;
  if (c.doctorId === user.id && user.groups.some((g) => PRACTITIONERS.includes(g))) return true;
  if (user.groups.includes('head_doctor')) return true;
  return user.groups.includes('midwife') && c.admissionType === 'maternity';
}

export function consultationAccess(
  user: ConsultationAccessUser,
  c: ConsultationAccessFacts,
): ConsultationAccess {
  // Secretaries never see consultations (specification §6), whatever else they hold.
  if (user.groups.includes('secretary')) return 'none';
  if (isConsultationResponsible(user, c)) return c.status === 'in_progress' ? 'edit' : 'read';
  const practitioner = user.groups.some((g) => PRACTITIONERS.includes(g));
  if (practitioner && user.departmentIds.includes(c.departmentId)) return 'read';
  return 'none';
}

/** Whether the user may add an addendum: a completed consultation, by someone responsible for it. */
export function mayAddAddendum(user: ConsultationAccessUser, c: ConsultationAccessFacts): boolean {
  return c.status === 'completed' && isConsultationResponsible(user, c);
}
