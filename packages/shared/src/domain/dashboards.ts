/**
 * Dashboard configuration per dashboard kind (specification §3 and the §6 dashboards table).
 */
import type { LocalizedText } from './constants.js';
import { type DashboardKind, dashboardGroupsOf, type RoleHolder } from './roles.js';

export interface DashboardConfig {
  readonly kind: DashboardKind;
  /** Name of the web component that renders the dashboard. */
  readonly component: string;
  readonly title: LocalizedText;
  readonly subtitle: LocalizedText;
  /** Label of the main button, or null when the dashboard has none. */
  readonly primaryAction: LocalizedText | null;
  /** Tab ids, in display order. */
  readonly allowedTabs: readonly string[];
  /** API paths the dashboard reads; `{id}` stands for the user's doctor, department or nurse id. */
  readonly apiEndpoints: readonly string[];
  /** Automatic refresh period of the dashboard data. */
  readonly refreshInterval: number;
  readonly features: readonly string[];
}

export const DASHBOARDS: Readonly<Record<DashboardKind, DashboardConfig>> = {
  doctor: {
    kind: 'doctor',
    component: 'DoctorDashboard',
    title: { fr: 'Mes patients du jour', en: 'My Patients Today' },
    subtitle: {
      fr: 'Votre file de consultations, les patients vus et votre planning',
      en: 'Your consultation queue, the patients seen and your schedule',
    },
    primaryAction: { fr: 'Démarrer la prochaine consultation', en: 'Start Next Consultation' },
    allowedTabs: ['my-queue', 'completed', 'schedule'],
    apiEndpoints: ['/api/doctors/{id}/execution-queue/', '/api/doctors/{id}/workload/'],
    refreshInterval: 30_000,
    features: ['execution-queue', 'start-next-consultation', 'workload', 'schedule'],
  },
  secretary: {
    kind: 'secretary',
    component: 'SecretaryDashboard',
    title: { fr: 'Affectation des patients', en: 'Patient Assignment' },
    subtitle: {
      fr: 'Affectez les patients en attente et suivez la charge des médecins',
      en: "Assign waiting patients and follow the doctors' workloads",
    },
    primaryAction: { fr: 'Affecter un patient', en: 'Assign Patient' },
    allowedTabs: ['unassigned', 'doctor-workloads', 'departments'],
    apiEndpoints: ['/api/assign-patient/', '/api/departments/{id}/execution-queue/', '/api/admissions/'],
    refreshInterval: 15_000,
    features: ['patient-assignment', 'doctor-workloads', 'department-queues'],
  },
  nurse: {
    kind: 'nurse',
    component: 'NurseDashboard',
    title: { fr: "Vue d'ensemble du service", en: 'Unit Overview' },
    subtitle: {
      fr: 'Vos patients, les soins à réaliser et les transmissions',
      en: 'Your patients, the care tasks to do and the shift handoffs',
    },
    primaryAction: null,
    allowedTabs: ['my-patients', 'tasks', 'handoffs'],
    apiEndpoints: ['/api/nurses/{id}/patients/', '/api/nurses/{id}/tasks/'],
    refreshInterval: 60_000,
    features: ['assigned-patients', 'care-tasks', 'shift-handoffs'],
  },
  admin: {
    kind: 'admin',
    component: 'AdminDashboard',
    title: { fr: "Vue d'ensemble de l'hôpital", en: 'Hospital Overview' },
    subtitle: {
      fr: "Activité, flux des patients et indicateurs clés de l'hôpital",
      en: 'Activity, patient flow and key indicators of the hospital',
    },
    primaryAction: null,
    allowedTabs: ['dashboard', 'waiting', 'outpatient', 'inpatient', 'discharged', 'analytics'],
    apiEndpoints: ['/api/dashboard/', '/api/stats/'],
    refreshInterval: 120_000,
    features: ['hospital-stats', 'patient-flow', 'bed-occupancy', 'analytics'],
  },
  // Decision 0070: the pharmacist's and the cashier's home screens, beside the specification's four.
  pharmacist: {
    kind: 'pharmacist',
    component: 'PharmacistHome',
    title: { fr: 'Pharmacie du jour', en: "Today's Pharmacy" },
    subtitle: {
      fr: 'Les ordonnances à délivrer (urgentes d’abord), les alertes de stock et les péremptions',
      en: 'Prescriptions to dispense (urgent first), stock alerts and expiries',
    },
    primaryAction: null,
    allowedTabs: ['to-dispense', 'stock-alerts', 'expiries'],
    apiEndpoints: ['/api/prescriptions/', '/api/pharmacy/alerts/'],
    refreshInterval: 60_000,
    features: ['dispensing-queue', 'stock-alerts', 'expiries'],
  },
  cashier: {
    kind: 'cashier',
    component: 'CashierHome',
    title: { fr: 'Caisse du jour', en: "Today's Cash Desk" },
    subtitle: {
      fr: 'Les factures en attente de paiement et votre session de caisse',
      en: 'Invoices waiting for payment and your cash session',
    },
    primaryAction: null,
    allowedTabs: ['invoices-waiting', 'cash-session'],
    apiEndpoints: ['/api/invoices/', '/api/cash-sessions/'],
    refreshInterval: 30_000,
    features: ['invoices-waiting', 'cash-session'],
  },
};

/**
 * The dashboard a user starts on: the hospital overview when they have it beside another (a head doctor holds the
 * doctor's and the administrator's: the specification leaves the order open, issue 37 starts him on the overview),
 * else the first in display order.
 */
export function homeDashboard(dashboards: readonly DashboardConfig[]): DashboardConfig | undefined {
  return dashboards.find((dashboard) => dashboard.kind === 'admin') ?? dashboards[0];
}

/** The dashboards of a user, in display order (see `dashboardGroupsOf`). */
export function dashboardsForUser(user: RoleHolder | null | undefined): DashboardConfig[] {
  return dashboardGroupsOf(user).map((kind) => DASHBOARDS[kind]);
}

/** An endpoint of a dashboard with `{id}` replaced by the given id. */
export function dashboardEndpoint(template: string, id: string | number): string {
  return template.replaceAll('{id}', encodeURIComponent(String(id)));
}
