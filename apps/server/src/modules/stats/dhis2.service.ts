/**
 * The DHIS2 data value set of a month or an ISO week (issue 24, docs/decisions/0039-reporting-exports.md): the
 * hospital's mapped indicators only, each figure taken from the reporting service's own sections (the same numbers
 * as `/analytics`), written in the DHIS2 Web API's `dataValueSets` JSON format. A weekly period carries the IDSR
 * indicators only (the weekly surveillance form); a month carries all of them.
 */
import {
  type DHIS2_ACTIVITY_INDICATORS,
  type Dhis2Period,
  isIdsrIndicator,
  parseDhis2Period,
  type TDhis2DataValueSet,
  type TDhis2MappingUpdate,
} from '@greensen/shared/contracts/dhis2';
import type {
  IDSR_AGE_GROUPS,
  TActivityStats,
  TDiagnosisStats,
  TInpatientStats,
  TLaboratoryStats,
} from '@greensen/shared/contracts/stats';
import { addDays, zonedDate } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { findDhis2Mapping, saveDhis2Mapping } from './dhis2.repository.js';
import { hospitalsInfo } from './stats.repository.js';
import { StatsService } from './stats.service.js';

type DhisSection = 'activity' | 'diagnoses' | 'laboratory' | 'inpatient';
interface Figures {
  activity?: TActivityStats;
  diagnoses?: TDiagnosisStats;
  laboratory?: TLaboratoryStats;
  inpatient?: TInpatientStats;
}

/** A section read for the export (the indicator's `section` says which, so it is always there). */
function got<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('dhis2: a section was not read');
  return value;
}

const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((s, r) => s + f(r), 0);
type VisitKey = 'outpatient' | 'emergency' | 'maternity' | 'inpatient' | 'total';
const visits = (f: Figures, key: VisitKey) => sum(got(f.activity).admissions_by_day, (d) => d[key]);

/** Where each activity indicator's figure comes from (every indicator of the list, or the build fails). */
const ACTIVITY: Record<
  (typeof DHIS2_ACTIVITY_INDICATORS)[number],
  { section: DhisSection; value: (f: Figures) => number }
> = {
  'visits.outpatient': { section: 'activity', value: (f) => visits(f, 'outpatient') },
  'visits.emergency': { section: 'activity', value: (f) => visits(f, 'emergency') },
  'visits.maternity': { section: 'activity', value: (f) => visits(f, 'maternity') },
  'visits.inpatient': { section: 'activity', value: (f) => visits(f, 'inpatient') },
  'visits.total': { section: 'activity', value: (f) => visits(f, 'total') },
  consultations: {
    section: 'activity',
    value: (f) => sum(got(f.activity).consultations_by_doctor, (d) => d.consultations),
  },
  'patients.new': { section: 'activity', value: (f) => got(f.activity).patients.new },
  'patients.returning': { section: 'activity', value: (f) => got(f.activity).patients.returning },
  'inpatient.admissions': { section: 'inpatient', value: (f) => got(f.inpatient).admissions },
  'inpatient.discharges': { section: 'inpatient', value: (f) => got(f.inpatient).discharges },
  'inpatient.deaths': { section: 'inpatient', value: (f) => got(f.inpatient).deaths },
  'malaria_tests.done': { section: 'laboratory', value: (f) => got(f.laboratory).malaria.tested },
  'malaria_tests.positive': { section: 'laboratory', value: (f) => got(f.laboratory).malaria.positive },
};
const activitySource = (indicator: string) =>
  (ACTIVITY as Record<string, (typeof ACTIVITY)[keyof typeof ACTIVITY] | undefined>)[indicator];

/** `idsr.<disease>.<group|total>` read from the diagnoses section's IDSR table. */
function idsrValue(f: Figures, indicator: string): number {
  const [, disease, group] = indicator.split('.') as [string, string, string];
  const row = got(f.diagnoses).idsr.find((d) => d.disease === disease);
  if (!row) return 0;
  return group === 'total' ? row.total : row.by_age[group as (typeof IDSR_AGE_GROUPS)[number]];
}

/** The section an indicator's figure comes from. */
export function sectionOf(indicator: string): DhisSection | null {
  if (isIdsrIndicator(indicator)) return 'diagnoses';
  return activitySource(indicator)?.section ?? null;
}

export class Dhis2Service {
  private readonly stats: StatsService;

  constructor(private readonly app: FastifyInstance) {
    this.stats = new StatsService(app);
  }

  mapping(ctx: ServiceContext) {
    return findDhis2Mapping(this.app.db, scopedHospital(ctx).id);
  }

  async saveMapping(ctx: ServiceContext, body: TDhis2MappingUpdate) {
    const hospitalId = scopedHospital(ctx).id;
    await this.app.db.transaction(async (tx) => {
      await saveDhis2Mapping(tx, hospitalId, body, actingUser(ctx).id);
      await this.app.audit.record(
        ctx,
        {
          action: 'stats.dhis2_mapping.update',
          resourceType: 'hospital',
          resourceId: hospitalId,
          details: {
            id_scheme: body.id_scheme ?? 'UID',
            org_unit: body.org_unit,
            monthly_data_set: body.monthly_data_set ?? null,
            weekly_data_set: body.weekly_data_set ?? null,
            indicators: body.rows.map((r) => r.indicator),
          },
        },
        tx,
      );
    });
    return findDhis2Mapping(this.app.db, hospitalId);
  }

  /** The data value set of `period` (`yyyyMM` or `yyyyWn`); 409 before a mapping is saved. */
  async dataValueSet(ctx: ServiceContext, period: string): Promise<TDhis2DataValueSet> {
    const days = parseDhis2Period(period);
    if (!days) throw badRequest({ period: ['dhis2.period'] });
    const [hospital] = await hospitalsInfo(this.app.db, [scopedHospital(ctx).id]);
    if (!hospital) throw notFound();
    const mapping = await findDhis2Mapping(this.app.db, hospital.id);
    if (!mapping.configured) throw conflict('dhis2.not_configured');
    const rows = mapping.rows.filter((r) => days.kind === 'monthly' || isIdsrIndicator(r.indicator));
    const figures = await this.figures(
      ctx,
      days,
      rows.map((r) => r.indicator),
    );
    const dataSet = days.kind === 'monthly' ? mapping.monthly_data_set : mapping.weekly_data_set;
    const today = zonedDate(new Date(), hospital.time_zone);
    // A finished period with a data set is reported complete today; an ongoing one is not.
    const complete = dataSet !== null && addDays(days.to, 1) <= today;
    // The figures leave for another system: who exported which period is kept (no patient data in it).
    await this.app.audit.record(ctx, {
      action: 'stats.dhis2_export',
      resourceType: 'hospital',
      resourceId: hospital.id,
      details: { period, values: rows.length },
    });
    return {
      ...(dataSet ? { dataSet } : {}),
      ...(complete ? { completeDate: today } : {}),
      period,
      orgUnit: mapping.org_unit,
      ...(mapping.id_scheme === 'CODE' ? { idScheme: 'CODE' as const } : {}),
      dataValues: rows.map((r) => ({
        dataElement: r.data_element,
        categoryOptionCombo: r.category_option_combo,
        ...(r.attribute_option_combo ? { attributeOptionCombo: r.attribute_option_combo } : {}),
        period,
        orgUnit: mapping.org_unit,
        value: String(figureOf(figures, r.indicator)),
      })),
    };
  }

  /** The sections the indicators need, each read once through the reporting service (whole hospital). */
  private async figures(ctx: ServiceContext, days: Dhis2Period, indicators: string[]): Promise<Figures> {
    const sections = [...new Set(indicators.map(sectionOf).filter((s) => s !== null))];
    const read = await Promise.all(
      sections.map(async (s) => [s, await this.stats.section(ctx, s, { from: days.from, to: days.to })]),
    );
    return Object.fromEntries(read) as Figures;
  }
}

function figureOf(figures: Figures, indicator: string): number {
  if (isIdsrIndicator(indicator)) return idsrValue(figures, indicator);
  const source = activitySource(indicator);
  return source ? source.value(figures) : 0;
}
