/**
 * Module access by environment and role (specification §5 route guards and §6 restrictions).
 * The server enforces these rules; the web app uses them to hide what the user may not open.
 */
import type { Language, LocalizedText } from './constants.js';
import {
  type AppEnvironment,
  isModuleEnabled,
  MODULES,
  type ModuleDefinition,
  type ModuleName,
  moduleByName,
} from './modules.js';
import { ACTION_GROUPS, type Action } from './permissions.js';
import { DASHBOARD_GROUPS, type DashboardGroup, type RoleHolder, userRoleGroups } from './roles.js';

/** The clinical modules, closed to the pharmacist and the cashier (decision 0070). */
const CLINICAL_MODULES: readonly ModuleName[] = [
  'admissions',
  'consultations',
  'exams',
  'analytics',
  'doctors',
  'triage',
  'hospitalizations',
  'care',
  'appointments',
  'admin',
  'templates',
];

/**
 * Modules a role group may not open: secretaries no consultations or exams, midwives no exams (§6). Decision 0070
 * adds the pharmacist (every clinical module and the cash desk) and the cashier (every clinical module and the
 * pharmacy): the server refuses their routes as it refuses a secretary's consultations.
 */
export const ROLE_RESTRICTIONS: Readonly<Partial<Record<DashboardGroup, readonly ModuleName[]>>> = {
  secretary: ['consultations', 'exams'],
  midwife: ['exams'],
  pharmacist: [...CLINICAL_MODULES, 'billing', 'medical_acts'],
  cashier: [...CLINICAL_MODULES, 'pharmacy'],
};

const EVERYONE: readonly DashboardGroup[] = DASHBOARD_GROUPS;
/** Every group but those `ROLE_RESTRICTIONS` bars from the module. */
const unrestricted = (moduleName: ModuleName): readonly DashboardGroup[] =>
  EVERYONE.filter((group) => !ROLE_RESTRICTIONS[group]?.includes(moduleName));
const CLINICAL_STAFF: readonly DashboardGroup[] = ['head_doctor', 'doctor', 'midwife', 'nurse', 'admin'];

/**
 * The action that reading a module's pages is (issue 36): where one exists, the module's audience IS that
 * action's groups, so that the navigation, the module guard and the page's own check cannot disagree (an
 * administrator saw "Rendez-vous" in the navigation and the page then said it was not open to her role).
 */
export const MODULE_ENTRY_ACTION: Readonly<Partial<Record<ModuleName, Action>>> = {
  analytics: 'stats.read',
  // The care team's records (decision 0025): not administrators, secretaries or laboratory staff.
  care: 'care.read',
  // The bookers (decision 0028). Administrators keep schedules and holidays on /calendar, outside the module.
  appointments: 'appointment.read',
};

/**
 * The module × role table (issue 25, docs/security.md "Modules by role"): the role groups that have something to
 * do in each module. The navigation shows a module only to them and the module guard refuses the others with
 * the specification's text; a page inside a module relies on the guard and checks nothing of its own. It
 * includes the specification's two restrictions (`ROLE_RESTRICTIONS`), and the modules of `MODULE_ENTRY_ACTION`
 * take their entry action's groups. The API does not read it: each route lets through the groups of the reviewed
 * access policy (apps/server/src/modules/access-matrix.ts), which may be wider (a secretary reads the hospitals
 * she works in).
 */
export const MODULE_AUDIENCE: Readonly<Record<ModuleName, readonly DashboardGroup[]>> = {
  dashboard: unrestricted('dashboard'),
  patients: unrestricted('patients'),
  admissions: unrestricted('admissions'),
  consultations: unrestricted('consultations'),
  exams: unrestricted('exams'),
  analytics: ACTION_GROUPS[MODULE_ENTRY_ACTION.analytics as Action],
  doctors: unrestricted('doctors'),
  triage: unrestricted('triage'),
  hospitalizations: unrestricted('hospitalizations'),
  care: ACTION_GROUPS[MODULE_ENTRY_ACTION.care as Action],
  medical_acts: [...CLINICAL_STAFF, 'cashier'],
  // The cash desk's cashiers (secretary or queue-manager roles in a billing department) and the management
  // (decision 0027); the API further requires the billing department's membership for the cash desk.
  billing: ['head_doctor', 'admin', 'secretary', 'queue_manager', 'cashier'],
  // Administrators change the structure; head doctors read it (wards and beds of their services).
  hospitals: ['head_doctor', 'admin'],
  pharmacy: [...CLINICAL_STAFF, 'pharmacist'],
  appointments: ACTION_GROUPS[MODULE_ENTRY_ACTION.appointments as Action],
  admin: ['admin'],
  templates: unrestricted('templates'),
  chat: unrestricted('chat'),
};

/** Whether none of the user's role groups has anything to do in a module (`MODULE_AUDIENCE`). */
export function isOutsideAudience(user: RoleHolder | null | undefined, moduleName: ModuleName): boolean {
  return !userRoleGroups(user).some((group) => MODULE_AUDIENCE[moduleName].includes(group));
}

/** Refusal text when no more precise one applies. */
export const DEFAULT_REFUSAL: LocalizedText = { fr: 'Accès refusé', en: 'Access denied' };

export type AccessDecision =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      readonly reason: 'environment' | 'role';
      readonly message: LocalizedText;
    };

export function roleRefusal(title: string, lang: Language): string {
  return lang === 'fr'
    ? `L'accès au module "${title}" n'est pas autorisé pour votre rôle`
    : `Access to the "${title}" module is not allowed for your role`;
}

export function environmentRefusal(title: string, env: string, lang: Language): string {
  return lang === 'fr'
    ? `L'accès au module "${title}" n'est pas autorisé dans l'environnement ${env}`
    : `Access to the "${title}" module is not allowed in the ${env} environment`;
}

/** Whether a role group alone is barred from a module. */
export function isGroupRestricted(group: DashboardGroup, moduleName: ModuleName): boolean {
  return ROLE_RESTRICTIONS[group]?.includes(moduleName) ?? false;
}

/**
 * Whether the user's roles bar them from a module.
 *
 * The specification derives one group from the first active role. A user may hold several roles,
 * though, and a restriction exists to keep a role away from clinical content that another of the
 * user's roles legitimately needs. So a user is restricted only when EVERY active role's group is
 * restricted for the module: a secretary who is also a doctor keeps consultations and exams.
 * For a user with a single role this is exactly the specification's rule. No user counts as admin
 * and a user without active roles as an unknown code (doctor), as in `userRoleGroups`.
 */
export function isRoleRestricted(user: RoleHolder | null | undefined, moduleName: ModuleName): boolean {
  return userRoleGroups(user).every((group) => isGroupRestricted(group, moduleName));
}

function titleOf(moduleName: string, module: ModuleDefinition | undefined): LocalizedText {
  return module?.title ?? { fr: moduleName, en: moduleName };
}

/**
 * Decides whether a user may open a module in an environment.
 * The environment is checked first, then the role restrictions.
 */
export function canAccessModule(input: {
  moduleName: ModuleName;
  environment: AppEnvironment;
  /** Modules the installation adds to the environment's set (`EXTRA_MODULES`). */
  extraModules?: readonly ModuleName[] | undefined;
  user: RoleHolder | null | undefined;
}): AccessDecision {
  const { moduleName, environment, user } = input;
  const module = moduleByName(moduleName) as ModuleDefinition | undefined;
  const title = titleOf(moduleName, module);
  if (!module || !isModuleEnabled(moduleName, environment, input.extraModules)) {
    return {
      allowed: false,
      reason: 'environment',
      message: {
        fr: environmentRefusal(title.fr, environment, 'fr'),
        en: environmentRefusal(title.en, environment, 'en'),
      },
    };
  }
  if (isRoleRestricted(user, moduleName)) {
    return {
      allowed: false,
      reason: 'role',
      message: { fr: roleRefusal(title.fr, 'fr'), en: roleRefusal(title.en, 'en') },
    };
  }
  return { allowed: true };
}

/**
 * Whether a user may open a module's pages: `canAccessModule`, then the module × role table. Used by the web's
 * navigation and module guard; the API checks `canAccessModule` and each route's own groups.
 */
export function canOpenModule(input: Parameters<typeof canAccessModule>[0]): AccessDecision {
  const decision = canAccessModule(input);
  if (!decision.allowed || !isOutsideAudience(input.user, input.moduleName)) return decision;
  const title = titleOf(input.moduleName, moduleByName(input.moduleName) as ModuleDefinition | undefined);
  return {
    allowed: false,
    reason: 'role',
    message: { fr: roleRefusal(title.fr, 'fr'), en: roleRefusal(title.en, 'en') },
  };
}

/** The modules a user may open in an environment, in navigation order. */
export function allowedModules(
  environment: AppEnvironment,
  user: RoleHolder | null | undefined,
  extraModules: readonly ModuleName[] = [],
): ModuleDefinition[] {
  return MODULES.filter(
    (module) => canOpenModule({ moduleName: module.name, environment, extraModules, user }).allowed,
  );
}

/** Where a refused user is sent: the dashboard, with the refusal text. */
export function accessDeniedRedirect(message: string): string {
  return `/?access_denied=true&message=${encodeURIComponent(message)}`;
}
