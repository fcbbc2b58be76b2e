/**
 * The chunks of the home dashboards, one per role (a doctor never downloads the assignment tables, a secretary never
 * the consultation queue), and of the doctor's abnormal results card. Shared by the dashboard page, which renders
 * them (lib/lazy-component.tsx), and by app/page-prefetch.ts, which asks for the user's own as the app starts: the
 * page then renders it at once, without a loader (issue 38).
 */
export const loadDoctorDashboard = () =>
  import('./DoctorDashboard').then((m) => ({ default: m.DoctorDashboard }));
export const loadNurseDashboard = () =>
  import('./NurseDashboard').then((m) => ({ default: m.NurseDashboard }));
export const loadAdminDashboard = () =>
  import('./AdminDashboard').then((m) => ({ default: m.AdminDashboard }));
export const loadSecretaryDashboard = () =>
  import('./SecretaryDashboard').then((m) => ({ default: m.SecretaryDashboard }));
/** Kept out of the signed-in screen's budget: it loads after the doctor's dashboard, or beside it by path. */
export const loadUrgentResultsCard = () =>
  import('../../../lib/clinical/components/UrgentResultsCard').then((m) => ({
    default: m.UrgentResultsCard,
  }));
