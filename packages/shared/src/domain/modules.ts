/**
 * The application modules (specification §2), the modules of each environment (§5)
 * and the mapping of a route path to its module.
 */
import { ENGLISH_PATH_PREFIX, type LocalizedText } from './constants.js';

export type ModuleName =
  | 'dashboard'
  | 'patients'
  | 'admissions'
  | 'consultations'
  | 'exams'
  | 'analytics'
  | 'doctors'
  | 'triage'
  | 'hospitalizations'
  | 'care'
  | 'medical_acts'
  | 'billing'
  | 'hospitals'
  | 'pharmacy'
  | 'appointments'
  | 'admin'
  | 'templates'
  | 'chat';

export interface ModuleDefinition {
  readonly name: ModuleName;
  /** French (unprefixed) route path of the module. */
  readonly path: string;
  /** Name of a `@tabler/icons-react` component. */
  readonly icon: string;
  readonly title: LocalizedText;
  readonly description: LocalizedText;
}

/** The 18 modules, in the order of the specification's table (also the navigation order). */
export const MODULES: readonly ModuleDefinition[] = [
  {
    name: 'dashboard',
    path: '/',
    icon: 'IconLayoutDashboard',
    title: { fr: 'Tableau de bord', en: 'Dashboard' },
    description: {
      fr: "Votre travail du jour selon votre rôle, en un coup d'œil.",
      en: "Your day's work for your role, at a glance.",
    },
  },
  {
    name: 'patients',
    path: '/patients',
    icon: 'IconUsers',
    title: { fr: 'Patients', en: 'Patients' },
    description: {
      fr: 'Dossiers des patients : identité, contacts, assurance, allergies et historique.',
      en: 'Patient records: identity, contacts, insurance, allergies and history.',
    },
  },
  {
    name: 'admissions',
    path: '/admissions',
    icon: 'IconClipboardList',
    title: { fr: 'Admissions', en: 'Admissions' },
    description: {
      fr: "Venues des patients, de l'arrivée à la sortie du service.",
      en: 'Patient visits, from arrival to leaving the department.',
    },
  },
  {
    name: 'consultations',
    path: '/consultations',
    icon: 'IconStethoscope',
    title: { fr: 'Consultations', en: 'Consultations' },
    description: {
      fr: 'Consultations médicales : examen clinique, diagnostics, prescriptions et suites.',
      en: 'Medical consultations: examination, diagnoses, orders and outcome.',
    },
  },
  {
    name: 'exams',
    path: '/exams',
    icon: 'IconMicroscope',
    title: { fr: 'Examens', en: 'Exams' },
    description: {
      fr: "Demandes et résultats d'examens de laboratoire et d'imagerie.",
      en: 'Laboratory and imaging orders and their results.',
    },
  },
  {
    name: 'analytics',
    path: '/analytics',
    icon: 'IconChartBar',
    title: { fr: 'Reporting', en: 'Reporting' },
    description: {
      fr: "Indicateurs et statistiques d'activité de l'hôpital.",
      en: 'Hospital activity indicators and statistics.',
    },
  },
  {
    name: 'doctors',
    path: '/doctors',
    icon: 'IconUserHeart',
    title: { fr: 'Prestataires', en: 'Providers' },
    description: {
      fr: 'Médecins et autres prestataires : files, charge de travail et plannings.',
      en: 'Doctors and other providers: queues, workloads and schedules.',
    },
  },
  {
    name: 'triage',
    path: '/triage',
    icon: 'IconHeartRateMonitor',
    title: { fr: 'Triage', en: 'Triage' },
    description: {
      fr: "Constantes vitales et niveau d'urgence qui ordonnent la file d'attente.",
      en: 'Vital signs and urgency levels that order the waiting queue.',
    },
  },
  {
    name: 'hospitalizations',
    path: '/hospitalizations',
    icon: 'IconBed',
    title: { fr: 'Hospitalisations', en: 'Hospitalizations' },
    description: {
      fr: 'Séjours hospitaliers : lits, transferts et sorties.',
      en: 'Inpatient stays: beds, transfers and discharges.',
    },
  },
  {
    name: 'care',
    path: '/care',
    icon: 'IconNurse',
    title: { fr: 'Soins', en: 'Care' },
    description: {
      fr: 'Soins infirmiers, administration des médicaments et transmissions.',
      en: 'Nursing tasks, medication administration and shift handoffs.',
    },
  },
  {
    name: 'medical_acts',
    path: '/medical-acts',
    icon: 'IconMedicalCross',
    title: { fr: 'Actes médicaux', en: 'Medical acts' },
    description: {
      fr: 'Catalogue des actes médicaux, tarifs et actes réalisés.',
      en: 'Catalogue of medical acts, their tariffs and the acts performed.',
    },
  },
  {
    name: 'billing',
    path: '/billing',
    icon: 'IconReceipt',
    title: { fr: 'Facturation', en: 'Billing' },
    description: {
      fr: 'Factures, paiements et reçus des patients.',
      en: 'Patient invoices, payments and receipts.',
    },
  },
  {
    name: 'hospitals',
    path: '/hospitals',
    icon: 'IconBuildingHospital',
    title: { fr: 'Hôpitaux', en: 'Hospitals' },
    description: {
      fr: 'Hôpitaux, services, unités, chambres et lits.',
      en: 'Hospitals, departments, wards, rooms and beds.',
    },
  },
  {
    name: 'pharmacy',
    path: '/pharmacy',
    icon: 'IconPill',
    title: { fr: 'Pharmacie', en: 'Pharmacy' },
    description: {
      fr: 'Médicaments, stocks, ordonnances et dispensations.',
      en: 'Medications, stock, prescriptions and dispensing.',
    },
  },
  {
    name: 'appointments',
    path: '/appointments',
    icon: 'IconCalendarEvent',
    title: { fr: 'Rendez-vous', en: 'Appointments' },
    description: {
      fr: 'Plannings des prestataires et prise de rendez-vous.',
      en: 'Provider schedules and appointment booking.',
    },
  },
  {
    name: 'admin',
    path: '/admin',
    icon: 'IconUserCog',
    title: { fr: 'Administration', en: 'Administration' },
    description: {
      fr: "Personnel, rôles et paramètres de l'hôpital.",
      en: 'Staff, roles and hospital settings.',
    },
  },
  {
    name: 'templates',
    path: '/templates',
    icon: 'IconTemplate',
    title: { fr: 'Modèles', en: 'Templates' },
    description: {
      fr: 'Modèles de documents et de comptes rendus.',
      en: 'Document and report templates.',
    },
  },
  {
    name: 'chat',
    path: '/chat',
    icon: 'IconMessages',
    title: { fr: 'Messagerie', en: 'Messaging' },
    description: {
      fr: 'Messagerie interne entre membres du personnel.',
      en: 'Internal messaging between staff members.',
    },
  },
];

export const MODULE_NAMES: readonly ModuleName[] = MODULES.map((module) => module.name);

export type AppEnvironment = 'development' | 'test' | 'production';

export const APP_ENVIRONMENTS: readonly AppEnvironment[] = ['development', 'test', 'production'];

export const DEFAULT_ENVIRONMENT: AppEnvironment = 'development';

/** The modules enabled in each environment (specification §5). */
export const MODULES_BY_ENVIRONMENT: Readonly<Record<AppEnvironment, readonly ModuleName[]>> = {
  development: MODULE_NAMES,
  test: ['dashboard', 'patients', 'admissions', 'consultations', 'exams', 'templates', 'analytics'],
  production: ['dashboard', 'patients', 'admissions', 'consultations', 'exams', 'templates'],
};

export function isAppEnvironment(value: unknown): value is AppEnvironment {
  return typeof value === 'string' && (APP_ENVIRONMENTS as readonly string[]).includes(value);
}

export function isModuleName(value: unknown): value is ModuleName {
  return typeof value === 'string' && (MODULE_NAMES as readonly string[]).includes(value);
}

export function moduleByName(name: ModuleName): ModuleDefinition;
export function moduleByName(name: string): ModuleDefinition | undefined;
export function moduleByName(name: string): ModuleDefinition | undefined {
  return MODULES.find((module) => module.name === name);
}

/**
 * Whether a module is enabled: in the environment's set of the specification, or among the modules the
 * installation adds to it (`EXTRA_MODULES`, docs/decisions/0021-installation-setup-and-modules.md).
 */
export function isModuleEnabled(
  name: ModuleName,
  environment: AppEnvironment,
  extraModules: readonly ModuleName[] = [],
): boolean {
  return MODULES_BY_ENVIRONMENT[environment].includes(name) || extraModules.includes(name);
}

/** The modules enabled in an environment (plus the installation's extra ones), in navigation order. */
export function modulesForEnvironment(
  environment: AppEnvironment,
  extraModules: readonly ModuleName[] = [],
): ModuleDefinition[] {
  return MODULES.filter((module) => isModuleEnabled(module.name, environment, extraModules));
}

/**
 * Reads a comma- or space-separated list of module names (`EXTRA_MODULES=admin,hospitals`): the modules, in
 * navigation order and once each, and the names that are not modules. `all` stands for every module (a hospital
 * that uses them all: triage, beds, care, pharmacy, billing, appointments, messaging, reporting…).
 */
export function parseModuleList(value: string): { modules: ModuleName[]; unknown: string[] } {
  const names = value
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  const all = names.includes('all');
  return {
    modules: MODULE_NAMES.filter((name) => all || names.includes(name)),
    unknown: names.filter((name) => name !== 'all' && !isModuleName(name)),
  };
}

/**
 * Normalises an application path for matching: drops an origin, the query and the hash,
 * the English `/en` prefix and a trailing slash. The result always starts with '/'.
 */
export function normalizeAppPath(path: string): string {
  let result = path.trim();
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(result);
  if (origin) result = result.slice(origin[0].length);
  result = result.replace(/[?#].*$/s, '');
  if (!result.startsWith('/')) result = `/${result}`;
  result = result.replace(/\/{2,}/g, '/');
  if (result === ENGLISH_PATH_PREFIX || result.startsWith(`${ENGLISH_PATH_PREFIX}/`)) {
    result = result.slice(ENGLISH_PATH_PREFIX.length) || '/';
  }
  if (result.length > 1 && result.endsWith('/')) result = result.slice(0, -1);
  return result;
}

/** Whether a normalised path is `prefix` itself or lies under it (segment boundary). */
export function pathIsUnder(path: string, prefix: string): boolean {
  if (prefix === '/') return path === '/';
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Whether a path (any form) is the home page: '/' or '/dashboard…'. */
export function isDashboardPath(path: string): boolean {
  const normalized = normalizeAppPath(path);
  return normalized === '/' || pathIsUnder(normalized, '/dashboard');
}

/**
 * The module a route belongs to: the module whose path is the longest matching prefix,
 * on segment boundaries. '/' and '/dashboard…' are the dashboard; '/admin/templates' is admin;
 * routes outside the module table (/settings, /profile, /notes, /calendar, /error-404…) give null.
 * The '/en' prefix, query, hash and a trailing slash are ignored.
 */
export function moduleForPath(path: string): ModuleDefinition | null {
  const normalized = normalizeAppPath(path);
  if (isDashboardPath(normalized)) return moduleByName('dashboard');
  let best: ModuleDefinition | null = null;
  for (const module of MODULES) {
    if (module.path === '/') continue;
    if (pathIsUnder(normalized, module.path) && (!best || module.path.length > best.path.length)) {
      best = module;
    }
  }
  return best;
}
