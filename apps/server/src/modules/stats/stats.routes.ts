import {
  ZActivityStats,
  ZBillingStats,
  ZDashboardIndex,
  ZDashboardOverview,
  ZDiagnosisStats,
  ZFlowStats,
  ZInpatientStats,
  ZLaboratoryStats,
  ZPharmacyStats,
  ZStatsDrilldown,
  ZStatsDrilldownQuery,
  ZStatsIndex,
  ZStatsQuery,
} from '@greensen/shared/contracts/stats';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { dashboardIndex, statsIndex } from './dashboard-index.js';
import { type StatsSection, StatsService } from './stats.service.js';

defineMessages({
  'stats.period_order': {
    fr: 'La fin de la période doit suivre son début.',
    en: 'The period must end after it starts.',
  },
  'stats.period_too_long': {
    fr: 'La période ne peut dépasser un an.',
    en: 'The period cannot be longer than a year.',
  },
  'stats.drilldown_target': {
    fr: 'Indiquez une maladie ou un code CIM-10, pas les deux.',
    en: 'Give a disease or an ICD-10 code, not both.',
  },
  'stats.hospital_forbidden': {
    fr: 'Vous ne pouvez pas lire les indicateurs de l’un de ces hôpitaux.',
    en: 'You may not read the figures of one of these hospitals.',
  },
  'stats.department_unknown': {
    fr: 'Ce service n’existe pas dans cet hôpital.',
    en: 'This department does not exist in this hospital.',
  },
});

const SECTIONS: Record<StatsSection, { schema: z.ZodType; summary: string }> = {
  activity: {
    schema: ZActivityStats,
    summary:
      'Admissions per day by type, consultations per doctor, new vs returning patients, age/sex pyramid',
  },
  flow: {
    schema: ZFlowStats,
    summary: 'Waiting times arrival → triage → doctor → end by triage level, against the target delays',
  },
  diagnoses: {
    schema: ZDiagnosisStats,
    summary: 'Top ICD-10 codes and chapters; the IDSR notifiable diseases by age group',
  },
  laboratory: {
    schema: ZLaboratoryStats,
    summary: 'Exams per type, turnaround request → validation, malaria test positivity',
  },
  pharmacy: {
    schema: ZPharmacyStats,
    summary:
      'Stock-outs and presentations under their reorder level now; consumption by medicine over the period',
  },
  inpatient: {
    schema: ZInpatientStats,
    summary: 'Stays admitted and ended, deaths, average length of stay, bed occupancy',
  },
  billing: { schema: ZBillingStats, summary: 'Payments by method and invoices by payer category' },
};

/**
 * Reporting (issue 24, decision 0035): `/api/stats/…` for `/analytics`, `/api/dashboard/overview/`; the
 * specification's `/api/dashboard/` and `/api/stats/` indexes (issue 36, decision 0061).
 */
export async function statsRoutes(app: FastifyInstance) {
  const service = new StatsService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['stats'];

  // The summaries' marked days, rebuilt in the background (decision 0038); reads rebuild what is left.
  app.jobs.define({
    name: 'stats.refresh',
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 30_000, maxMs: 5 * 60_000 },
    rule: 'stats.refresh',
    async run(_payload, { ctx }) {
      const days = await service.refreshAll();
      if (days > 0) ctx.log.info({ days }, 'reporting summaries rebuilt');
    },
  });
  app.jobs.schedule({ name: 'stats.refresh', cron: '* * * * *' });

  r.get(
    '/api/stats/',
    {
      config: { access: { scope: 'hospital', module: 'analytics', roles: ACTION_GROUPS['stats.read'] } },
      schema: {
        tags,
        summary: 'The statistics sections (name, title in the request’s language, link), in display order',
        response: { 200: ZStatsIndex },
      },
    },
    async (request) => statsIndex(contextOf(request)),
  );

  for (const [section, { schema, summary }] of Object.entries(SECTIONS) as [
    StatsSection,
    (typeof SECTIONS)[StatsSection],
  ][]) {
    r.get(
      `/api/stats/${section}/`,
      {
        config: { access: { scope: 'hospital', module: 'analytics', roles: ACTION_GROUPS['stats.read'] } },
        schema: {
          tags,
          summary: `${summary} (period from/to in the hospital's days, optional department, hospitals=all|ids)`,
          querystring: ZStatsQuery,
          response: { 200: schema },
        },
      },
      async (request) => service.section(contextOf(request), section, request.query),
    );
  }

  r.get(
    '/api/stats/drilldown/',
    {
      config: {
        access: { scope: 'hospital', module: 'analytics', roles: ACTION_GROUPS['stats.drilldown'] },
      },
      schema: {
        tags,
        summary:
          'The consultations behind a diagnoses figure (an IDSR disease or an ICD-10 prefix, optional age group), ' +
          'within the consultations list’s access rule; audited as a consultations list',
        querystring: ZStatsDrilldownQuery,
        response: { 200: ZStatsDrilldown },
      },
    },
    async (request) => {
      const result = await service.drilldown(contextOf(request), request.query);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.get(
    '/api/dashboard/',
    {
      config: { access: { scope: 'hospital', module: 'dashboard', roles: 'any' } },
      schema: {
        tags: ['dashboard'],
        summary:
          'The signed-in user’s dashboards in this hospital (specification §6: by the groups of their roles), each ' +
          'with its title, tabs, refresh period and the endpoints it reads, resolved for the user',
        response: { 200: ZDashboardIndex },
      },
    },
    async (request) => dashboardIndex(contextOf(request)),
  );

  r.get(
    '/api/dashboard/overview/',
    {
      config: { access: { scope: 'hospital', module: 'dashboard', roles: ACTION_GROUPS['stats.read'] } },
      schema: {
        tags: ['dashboard'],
        summary:
          'The Hospital Overview (admin and head doctor): today’s figures and alerts, the waiting room by level, ' +
          'outpatients and inpatients by department, today’s discharges; no patient names',
        response: { 200: ZDashboardOverview },
      },
    },
    async (request) => service.overview(contextOf(request)),
  );
}
