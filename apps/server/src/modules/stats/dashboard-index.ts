/**
 * The specification's two index endpoints (§7's list; issue 36): `GET /api/dashboard/`, the signed-in user's
 * dashboards in the request's hospital, and `GET /api/stats/`, the statistics sections with their links. Both
 * are read from the shared dashboard and section definitions; nothing here touches the database.
 */
import type { TDashboardIndex, TStatsIndex } from '@greensen/shared/contracts/stats';
import { dashboardEndpoint, dashboardsForUser } from '@greensen/shared/domain/dashboards';
import { userDashboardGroup } from '@greensen/shared/domain/roles';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { STATS_SECTIONS, type StatsSection } from './stats.service.js';

/** The Hospital Overview's figures are the admin dashboard's `/api/dashboard/` read (decision 0035). */
const ADMIN_FIGURES = '/api/dashboard/overview/';

function resolve(template: string, ids: { user: string; departments: string[] }): string[] {
  if (template === '/api/dashboard/') return [ADMIN_FIGURES];
  if (!template.includes('{id}')) return [template];
  // The department queue is the secretary's departments' (one per department she works in, none without one).
  if (template.startsWith('/api/departments/')) {
    return ids.departments.map((department) => dashboardEndpoint(template, department));
  }
  return [dashboardEndpoint(template, ids.user)];
}

export function dashboardIndex(ctx: ServiceContext): TDashboardIndex {
  const user = actingUser(ctx);
  const hospital = scopedHospital(ctx);
  const roles = { active_roles: hospital.roleCodes.map((role_code) => ({ role_code })) };
  const ids = { user: user.id, departments: hospital.departmentIds };
  return {
    role_group: userDashboardGroup(roles),
    dashboards: dashboardsForUser(roles).map((d) => ({
      kind: d.kind,
      title: d.title[ctx.lang],
      subtitle: d.subtitle[ctx.lang],
      primary_action: d.primaryAction ? d.primaryAction[ctx.lang] : null,
      tabs: [...d.allowedTabs],
      endpoints: d.apiEndpoints.flatMap((template) => resolve(template, ids)),
      refresh_interval: d.refreshInterval,
      features: [...d.features],
    })),
  };
}

const SECTION_TITLES: Record<StatsSection, { fr: string; en: string }> = {
  activity: { fr: 'Activité', en: 'Activity' },
  flow: { fr: 'Flux', en: 'Flow' },
  diagnoses: { fr: 'Diagnostics', en: 'Diagnoses' },
  laboratory: { fr: 'Laboratoire', en: 'Laboratory' },
  pharmacy: { fr: 'Pharmacie', en: 'Pharmacy' },
  inpatient: { fr: 'Hospitalisation', en: 'Inpatients' },
  billing: { fr: 'Facturation', en: 'Billing' },
};

/** The sections in the analytics page's order; the drill-down and the DHIS2 export are reached from them. */
export function statsIndex(ctx: ServiceContext): TStatsIndex {
  return {
    sections: STATS_SECTIONS.map((name) => ({
      name,
      title: SECTION_TITLES[name][ctx.lang],
      url: `/api/stats/${name}/`,
    })),
  };
}
