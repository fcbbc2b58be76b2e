/**
 * Role codes, their dashboard groups, labels and title prefixes (specification §6, extended by
 * docs/decisions/0070-pharmacist-and-cashier-roles.md with the pharmacist and the cashier).
 */
import type { Language, LocalizedText } from './constants.js';

/** The group a role code belongs to; it decides the user's dashboard(s) and module restrictions. */
export type DashboardGroup =
  | 'head_doctor'
  | 'doctor'
  | 'midwife'
  | 'secretary'
  | 'queue_manager'
  | 'nurse'
  | 'admin'
  | 'pharmacist'
  | 'cashier';

/** The seven groups of the specification's role table (§6); decision 0070 adds the pharmacist and the cashier. */
export const SPECIFICATION_GROUPS: readonly DashboardGroup[] = [
  'head_doctor',
  'doctor',
  'midwife',
  'secretary',
  'queue_manager',
  'nurse',
  'admin',
];

export const DASHBOARD_GROUPS: readonly DashboardGroup[] = [...SPECIFICATION_GROUPS, 'pharmacist', 'cashier'];

/** The kinds of dashboard; a user may have several (a head doctor has the doctor and admin ones). */
export type DashboardKind = 'doctor' | 'secretary' | 'nurse' | 'admin' | 'pharmacist' | 'cashier';

/** Dashboard kinds in display order. */
export const DASHBOARD_KINDS: readonly DashboardKind[] = [
  'doctor',
  'secretary',
  'nurse',
  'admin',
  'pharmacist',
  'cashier',
];

/** Every role code the specification knows, with its group. */
export const ROLE_GROUPS = {
  HEAD_DOCTOR: 'head_doctor',
  DOCTOR: 'doctor',
  PHYSICIAN: 'doctor',
  MD: 'doctor',
  SAGE_FEMME: 'midwife',
  SECRETARY: 'secretary',
  ADMIN_ASSISTANT: 'secretary',
  RECEPTIONIST: 'secretary',
  QUEUE_MANAGER: 'queue_manager',
  CHARGE_NURSE: 'queue_manager',
  NURSE: 'nurse',
  ADMIN: 'admin',
  ADMINISTRATOR: 'admin',
  HOSPITAL_ADMIN: 'admin',
  // Decision 0070: not in the specification's table, which would make them doctors as unknown codes.
  PHARMACIST: 'pharmacist',
  CASHIER: 'cashier',
} as const satisfies Record<string, DashboardGroup>;

export type RoleCode = keyof typeof ROLE_GROUPS;

export const ROLE_CODES = Object.keys(ROLE_GROUPS) as readonly RoleCode[];

/** Group of an unknown role code. */
export const UNKNOWN_ROLE_GROUP: DashboardGroup = 'doctor';
/** Group when there is no user at all. */
export const NO_USER_GROUP: DashboardGroup = 'admin';

/** The part of a user that carries roles. */
export interface RoleHolder {
  readonly active_roles?: readonly { readonly role_code: string }[] | null;
}

function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export function isRoleCode(code: string): code is RoleCode {
  return Object.hasOwn(ROLE_GROUPS, code);
}

/** The known role code for any spelling of it (case-insensitive), or null. */
export function knownRoleCode(code: string): RoleCode | null {
  const normalized = normalizeCode(code);
  return isRoleCode(normalized) ? normalized : null;
}

/** Group of a role code (case-insensitive); an unknown code is a doctor. */
export function roleGroup(code: string): DashboardGroup {
  const known = knownRoleCode(code);
  return known ? ROLE_GROUPS[known] : UNKNOWN_ROLE_GROUP;
}

/**
 * The groups of all the user's active roles, in order, deduplicated.
 * No user → ['admin']; a user without active roles is treated as an unknown code → ['doctor'].
 */
export function userRoleGroups(user: RoleHolder | null | undefined): DashboardGroup[] {
  if (!user) return [NO_USER_GROUP];
  const roles = user.active_roles ?? [];
  if (roles.length === 0) return [UNKNOWN_ROLE_GROUP];
  return [...new Set(roles.map((role) => roleGroup(role.role_code)))];
}

/** The dashboard group of a user: the group of the first active role (§6). */
export function userDashboardGroup(user: RoleHolder | null | undefined): DashboardGroup {
  if (!user) return NO_USER_GROUP;
  const first = user.active_roles?.[0];
  return first ? roleGroup(first.role_code) : UNKNOWN_ROLE_GROUP;
}

/** Practitioners are doctors, head doctors and midwives. */
export function isPractitioner(group: DashboardGroup): boolean {
  return group === 'doctor' || group === 'head_doctor' || group === 'midwife';
}

const GROUP_DASHBOARDS: Record<DashboardGroup, readonly DashboardKind[]> = {
  head_doctor: ['doctor', 'admin'],
  doctor: ['doctor'],
  midwife: ['doctor'],
  secretary: ['secretary'],
  queue_manager: ['secretary'],
  nurse: ['nurse'],
  admin: ['admin'],
  pharmacist: ['pharmacist'],
  cashier: ['cashier'],
};

/**
 * The dashboards a user has, over all active roles, in display order (doctor, secretary, nurse, admin).
 * Doctor dashboard: doctor, midwife, head doctor. Admin dashboard: admin, head doctor.
 * Secretary dashboard: secretary, queue manager. Nurse dashboard: nurse. No user → ['admin'].
 * Pharmacist and cashier dashboards (decision 0070): their own group only.
 */
export function dashboardGroupsOf(user: RoleHolder | null | undefined): DashboardKind[] {
  const kinds = new Set(userRoleGroups(user).flatMap((group) => GROUP_DASHBOARDS[group]));
  return DASHBOARD_KINDS.filter((kind) => kinds.has(kind));
}

/** 'Dr.' for doctors (DOCTOR, PHYSICIAN, MD, HEAD_DOCTOR), 'Mme' for midwives, '' otherwise. */
export function titlePrefix(code: string): string {
  switch (knownRoleCode(code)) {
    case 'DOCTOR':
    case 'PHYSICIAN':
    case 'MD':
    case 'HEAD_DOCTOR':
      return 'Dr.';
    case 'SAGE_FEMME':
      return 'Mme';
    default:
      return '';
  }
}

export const ROLE_LABELS: Readonly<Record<RoleCode, LocalizedText>> = {
  HEAD_DOCTOR: { fr: 'Chef de Service', en: 'Head of Department' },
  DOCTOR: { fr: 'Médecin', en: 'Doctor' },
  PHYSICIAN: { fr: 'Médecin', en: 'Physician' },
  MD: { fr: 'Docteur en médecine', en: 'Medical Doctor' },
  SAGE_FEMME: { fr: 'Sage-femme', en: 'Midwife' },
  SECRETARY: { fr: 'Secrétaire', en: 'Secretary' },
  ADMIN_ASSISTANT: { fr: 'Assistant(e) administratif(ve)', en: 'Administrative assistant' },
  RECEPTIONIST: { fr: 'Réceptionniste', en: 'Receptionist' },
  QUEUE_MANAGER: { fr: 'Gestionnaire de file', en: 'Queue manager' },
  CHARGE_NURSE: { fr: 'Infirmier(ère) chef', en: 'Charge nurse' },
  NURSE: { fr: 'Infirmier(ère)', en: 'Nurse' },
  ADMIN: { fr: 'Administrateur', en: 'Administrator' },
  ADMINISTRATOR: { fr: 'Administrateur', en: 'Administrator' },
  HOSPITAL_ADMIN: { fr: "Administrateur de l'hôpital", en: 'Hospital administrator' },
  PHARMACIST: { fr: 'Pharmacien(ne)', en: 'Pharmacist' },
  CASHIER: { fr: 'Caissier(ère)', en: 'Cashier' },
};

/** An unknown code in capitalised words: 'LAB_TECH' → 'Lab Tech'. */
export function humanizeRoleCode(code: string): string {
  return code
    .trim()
    .split(/[\s_-]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}

/** Label of a role code in the given language; an unknown code is shown in capitalised words. */
export function roleLabel(code: string, lang: Language): string {
  const known = knownRoleCode(code);
  return known ? ROLE_LABELS[known][lang] : humanizeRoleCode(code);
}
