/**
 * Reporting (issue 24, docs/decisions/0035-reporting.md): the indicators of a period for the current hospital,
 * their drill-down to the consultations behind a number (within the consultations list's own rule), and the
 * Hospital Overview of today. The figures carry no patient data and are not audited; the drill-down is a list
 * of patient records and is audited like the consultations list.
 */
import type { TStatsDrilldownQuery, TStatsQuery } from '@greensen/shared/contracts/stats';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { listReadEntry } from '../../lib/queries.js';
import {
  activityStats,
  billingStats,
  diagnosisStats,
  drilldown,
  flowStats,
  hospitalInfo,
  inpatientStats,
  laboratoryStats,
  overview,
  type Period,
} from './stats.repository.js';

export const STATS_SECTIONS = [
  'activity',
  'flow',
  'diagnoses',
  'laboratory',
  'inpatient',
  'billing',
] as const;
export type StatsSection = (typeof STATS_SECTIONS)[number];

export class StatsService {
  constructor(private readonly app: FastifyInstance) {}

  /** The period of a request, its department checked to be one of the hospital's (404 otherwise). */
  private async period(q: Queryable, ctx: ServiceContext, query: TStatsQuery) {
    const scope = scopedHospital(ctx);
    const hospital = await hospitalInfo(q, scope.id);
    if (!hospital) throw notFound();
    if (query.department) {
      const found = await q.execute(
        sql`select 1 from departments where id = ${query.department} and hospital_id = ${scope.id}`,
      );
      if (found.rows.length === 0) throw notFound('stats.department_unknown');
    }
    const period: Period = {
      hospitalId: hospital.id,
      from: query.from,
      to: query.to,
      department: query.department ?? null,
      timeZone: hospital.time_zone,
    };
    const described = {
      from: query.from,
      to: query.to,
      department: query.department ?? null,
      hospital: { id: hospital.id, code: hospital.code, name: hospital.name },
    };
    return { period, described };
  }

  async section(ctx: ServiceContext, section: StatsSection, query: TStatsQuery) {
    const db = this.app.db;
    const { period, described } = await this.period(db, ctx, query);
    const figures = await (async () => {
      switch (section) {
        case 'activity':
          return activityStats(db, period);
        case 'flow':
          return flowStats(db, period);
        case 'diagnoses':
          return diagnosisStats(db, period, ctx.lang);
        case 'laboratory':
          return laboratoryStats(db, period, ctx.lang);
        case 'inpatient':
          return inpatientStats(db, period);
        case 'billing':
          return billingStats(db, period);
      }
    })();
    return { period: described, ...figures };
  }

  /** The consultations behind a diagnoses figure: the rows the caller may read in the consultations list. */
  async drilldown(ctx: ServiceContext, query: TStatsDrilldownQuery) {
    const { page, page_size, disease, code, age_group, ...range } = query;
    const hospital = scopedHospital(ctx);
    const user = { id: actingUser(ctx).id, groups: hospital.groups, departmentIds: hospital.departmentIds };
    // Not about one patient: the audit row carries the filters only.
    const filters = {
      patient: null,
      ...range,
      disease: disease ?? null,
      code: code ?? null,
      age_group: age_group ?? null,
    };
    return this.app.db.transaction(async (tx) => {
      const { period } = await this.period(tx, ctx, range);
      const result = await drilldown(
        tx,
        period,
        user,
        { disease, code, ageGroup: age_group },
        page_size,
        (page - 1) * page_size,
      );
      await this.app.audit.record(
        ctx,
        listReadEntry('consultation.list', 'consultation', filters, page, result.rows.length),
        tx,
      );
      return result;
    });
  }

  async overview(ctx: ServiceContext) {
    const scope = scopedHospital(ctx);
    const hospital = await hospitalInfo(this.app.db, scope.id);
    if (!hospital) throw notFound();
    const figures = await overview(this.app.db, hospital.id, hospital.time_zone);
    return { generated_at: new Date().toISOString(), ...figures };
  }
}
