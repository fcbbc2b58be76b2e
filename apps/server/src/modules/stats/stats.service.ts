/**
 * Reporting (issue 24, docs/decisions/0035-reporting.md): the indicators of a period for the current hospital,
 * their drill-down to the consultations behind a number (within the consultations list's own rule), and the
 * Hospital Overview of today. The figures carry no patient data and are not audited; the drill-down is a list
 * of patient records and is audited like the consultations list.
 */
import type { TStatsDrilldownQuery, TStatsQuery } from '@greensen/shared/contracts/stats';
import { canAccessModule } from '@greensen/shared/domain/access';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { listReadEntry } from '../../lib/queries.js';
import { hospitalScopeOf } from '../../plugins/access.js';
import { overview } from './overview.repository.js';
import {
  activityStats,
  billingStats,
  departmentInHospitals,
  diagnosisStats,
  drilldown,
  flowStats,
  hospitalsInfo,
  hospitalsWithDirtyDays,
  inpatientStats,
  laboratoryStats,
  type Period,
  pharmacyStats,
} from './stats.repository.js';
import { hasDirtyDays, refreshDirtyDays } from './summaries.repository.js';

export const STATS_SECTIONS = [
  'activity',
  'flow',
  'diagnoses',
  'laboratory',
  'pharmacy',
  'inpatient',
  'billing',
] as const;
export type StatsSection = (typeof STATS_SECTIONS)[number];

/** The sections read from the summary tables (their hospitals' marked days are rebuilt first). */
const SUMMARISED: ReadonlySet<StatsSection> = new Set([
  'activity',
  'flow',
  'diagnoses',
  'laboratory',
  'pharmacy',
]);

export class StatsService {
  constructor(private readonly app: FastifyInstance) {}

  /**
   * The hospitals a request adds up: the request's own, or those asked for (`all`: every hospital where the
   * user reads the figures). Each asked-for hospital must be one where the user holds `stats.read` and may open
   * the analytics module; any other, member or not, is refused alike (403), so nothing tells them apart.
   */
  private hospitalIds(ctx: ServiceContext, asked: TStatsQuery['hospitals']): string[] {
    const own = scopedHospital(ctx).id;
    if (asked === undefined) return [own];
    const user = actingUser(ctx);
    const readable = (id: string) => {
      const scope = hospitalScopeOf(user, id);
      if (!scope) return false;
      if (!scope.groups.some((g) => (ACTION_GROUPS['stats.read'] as readonly string[]).includes(g)))
        return false;
      return canAccessModule({
        moduleName: 'analytics',
        environment: this.app.config.appEnv,
        extraModules: this.app.config.extraModules,
        user: { active_roles: scope.roleCodes.map((role_code) => ({ role_code })) },
      }).allowed;
    };
    if (asked === 'all') {
      const mine = [...new Set(user.memberships.map((m) => m.hospitalId))].filter(readable);
      return [own, ...mine.filter((id) => id !== own)];
    }
    if (!asked.every(readable)) throw forbidden('stats.hospital_forbidden');
    return asked;
  }

  /** The period of a request, its department checked to be one of its hospitals' (404 otherwise). */
  private async period(q: Queryable, ctx: ServiceContext, query: TStatsQuery) {
    const scope = scopedHospital(ctx);
    const ids = this.hospitalIds(ctx, query.hospitals);
    const hospitals = await hospitalsInfo(q, ids);
    const own = hospitals.find((h) => h.id === scope.id) ?? (await hospitalsInfo(q, [scope.id]))[0];
    if (!own || hospitals.length === 0) throw notFound();
    if (query.department) {
      if (!(await departmentInHospitals(q, query.department, ids)))
        throw notFound('stats.department_unknown');
    }
    const period: Period = {
      hospitalIds: hospitals.map((h) => h.id),
      from: query.from,
      to: query.to,
      department: query.department ?? null,
    };
    const brief = (h: { id: string; code: string; name: string }) => ({
      id: h.id,
      code: h.code,
      name: h.name,
    });
    const described = {
      from: query.from,
      to: query.to,
      department: query.department ?? null,
      hospital: brief(own),
      hospitals: hospitals.map(brief),
    };
    return { period, described, timeZone: own.time_zone };
  }

  /** Rebuilds the marked days of these hospitals (nothing to do, the usual case, is one indexed read). */
  async refresh(hospitalIds: readonly string[]): Promise<number> {
    if (!(await hasDirtyDays(this.app.db, hospitalIds))) return 0;
    return refreshDirtyDays(this.app.db, hospitalIds);
  }

  /** The `stats.refresh` job: every hospital with marked days. */
  async refreshAll(): Promise<number> {
    const marked = await hospitalsWithDirtyDays(this.app.db);
    if (marked.length === 0) return 0;
    return refreshDirtyDays(this.app.db, marked);
  }

  async section(ctx: ServiceContext, section: StatsSection, query: TStatsQuery) {
    const db = this.app.db;
    const { period, described } = await this.period(db, ctx, query);
    if (SUMMARISED.has(section)) await this.refresh(period.hospitalIds);
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
        case 'pharmacy':
          return pharmacyStats(db, period, ctx.lang);
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
      const { period, timeZone } = await this.period(tx, ctx, range);
      const result = await drilldown(
        tx,
        { ...period, timeZone },
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
    const [hospital] = await hospitalsInfo(this.app.db, [scope.id]);
    if (!hospital) throw notFound();
    const figures = await overview(this.app.db, hospital.id, hospital.time_zone);
    return { generated_at: new Date().toISOString(), ...figures };
  }
}
