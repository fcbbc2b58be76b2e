/**
 * DHIS2 export (issue 24, docs/decisions/0039-reporting-exports.md): a hospital's mapping from our indicators to
 * DHIS2 data element + category option combo (+ attribute option combo) identifiers and its organisation unit,
 * and the data value set built from it — the JSON format of the DHIS2 Web API's `/api/dataValueSets` resource
 * (https://docs.dhis2.org, Web API › Data › Data values: `{dataSet, completeDate, period, orgUnit,
 * attributeOptionCombo, dataValues: [{dataElement, categoryOptionCombo, attributeOptionCombo, period, orgUnit,
 * value, comment}]}`, values as strings; periods `yyyyMM` monthly and `yyyyWn` ISO weeks).
 */
import { z } from 'zod';
import { IDSR_AGE_GROUPS, IDSR_KEYS } from './stats.js';

/** The figures of the monthly activity report that a data element may receive. */
export const DHIS2_ACTIVITY_INDICATORS = [
  'visits.outpatient',
  'visits.emergency',
  'visits.maternity',
  'visits.inpatient',
  'visits.total',
  'consultations',
  'patients.new',
  'patients.returning',
  'inpatient.admissions',
  'inpatient.discharges',
  'inpatient.deaths',
  'malaria_tests.done',
  'malaria_tests.positive',
] as const;

/** `idsr.<disease>.<age group | total>`: the IDSR table's cells (malaria split confirmed/suspected). */
export const DHIS2_IDSR_INDICATORS = IDSR_KEYS.flatMap((disease) =>
  [...IDSR_AGE_GROUPS, 'total'].map((group) => `idsr.${disease}.${group}`),
);

export const DHIS2_INDICATORS = [...DHIS2_ACTIVITY_INDICATORS, ...DHIS2_IDSR_INDICATORS] as [
  string,
  ...string[],
];
export const isIdsrIndicator = (key: string) => key.startsWith('idsr.');

/** A DHIS2 UID: 11 characters, a letter then letters or digits. */
export const DHIS2_UID = /^[a-zA-Z][a-zA-Z0-9]{10}$/;
/** A DHIS2 code (the `code` identifier scheme): up to 50 characters, no spaces at either end. */
export const DHIS2_CODE = /^\S(?:.{0,48}\S)?$/;

export const DHIS2_ID_SCHEMES = ['UID', 'CODE'] as const;
export type Dhis2IdScheme = (typeof DHIS2_ID_SCHEMES)[number];

const zId = z.string().trim().min(1).max(50);

export const ZDhis2MappingRow = z.object({
  indicator: z.enum(DHIS2_INDICATORS),
  data_element: zId,
  category_option_combo: zId,
  attribute_option_combo: zId.nullable().optional(),
});
export type TDhis2MappingRow = z.infer<typeof ZDhis2MappingRow>;

/** Every identifier of a mapping matches its scheme (UIDs by default). */
function checkIds(
  m: {
    id_scheme: Dhis2IdScheme;
    org_unit: string;
    monthly_data_set?: string | null | undefined;
    weekly_data_set?: string | null | undefined;
    rows: TDhis2MappingRow[];
  },
  ctx: z.RefinementCtx,
) {
  const pattern = m.id_scheme === 'UID' ? DHIS2_UID : DHIS2_CODE;
  const check = (value: string | null | undefined, path: (string | number)[]) => {
    if (value !== null && value !== undefined && !pattern.test(value))
      ctx.addIssue({ code: 'custom', path, message: `dhis2.id_${m.id_scheme.toLowerCase()}` });
  };
  check(m.org_unit, ['org_unit']);
  check(m.monthly_data_set, ['monthly_data_set']);
  check(m.weekly_data_set, ['weekly_data_set']);
  const seen = new Set<string>();
  m.rows.forEach((row, i) => {
    check(row.data_element, ['rows', i, 'data_element']);
    check(row.category_option_combo, ['rows', i, 'category_option_combo']);
    check(row.attribute_option_combo, ['rows', i, 'attribute_option_combo']);
    if (seen.has(row.indicator))
      ctx.addIssue({ code: 'custom', path: ['rows', i, 'indicator'], message: 'dhis2.indicator_twice' });
    seen.add(row.indicator);
  });
}

/** PUT /api/stats/dhis2/mapping/: the whole mapping, replaced at once. */
export const ZDhis2MappingUpdate = z
  .object({
    id_scheme: z.enum(DHIS2_ID_SCHEMES).default('UID'),
    org_unit: zId,
    monthly_data_set: zId.nullable().optional(),
    weekly_data_set: zId.nullable().optional(),
    rows: z.array(ZDhis2MappingRow).max(DHIS2_INDICATORS.length),
  })
  .strict()
  .superRefine(checkIds);
export type TDhis2MappingUpdate = z.input<typeof ZDhis2MappingUpdate>;

export const ZDhis2Mapping = z.object({
  /** False until an administrator saves a mapping (the other fields are then empty). */
  configured: z.boolean(),
  id_scheme: z.enum(DHIS2_ID_SCHEMES),
  org_unit: z.string(),
  monthly_data_set: z.string().nullable(),
  weekly_data_set: z.string().nullable(),
  rows: z.array(
    z.object({
      indicator: z.string(),
      data_element: z.string(),
      category_option_combo: z.string(),
      attribute_option_combo: z.string().nullable(),
    }),
  ),
  updated_at: z.string().nullable(),
  updated_by: z.object({ id: z.uuid(), full_name: z.string() }).nullable(),
});
export type TDhis2Mapping = z.infer<typeof ZDhis2Mapping>;

// Periods --------------------------------------------------------------------------------------------------------

const MONTHLY = /^(\d{4})(0[1-9]|1[0-2])$/;
const WEEKLY = /^(\d{4})W([1-9]|[1-4]\d|5[0-3])$/;
const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The Monday of ISO week 1 of `year` (the week with the year's first Thursday, i.e. with 4 January). */
function isoWeekOneMonday(year: number): number {
  const jan4 = Date.UTC(year, 0, 4);
  return jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
}

/** 53 when the year starts on a Thursday, or is a leap year starting on a Wednesday; else 52. */
export function isoWeeksInYear(year: number): number {
  return (isoWeekOneMonday(year + 1) - isoWeekOneMonday(year)) / (7 * DAY);
}

export interface Dhis2Period {
  kind: 'monthly' | 'weekly';
  /** First and last calendar days, both included. */
  from: string;
  to: string;
}

/** A DHIS2 period (`yyyyMM` or `yyyyWn`) as its days; null when it is not one (week 53 of a 52-week year…). */
export function parseDhis2Period(period: string): Dhis2Period | null {
  const month = MONTHLY.exec(period);
  if (month) {
    const year = Number(month[1]);
    const m = Number(month[2]);
    return { kind: 'monthly', from: iso(Date.UTC(year, m - 1, 1)), to: iso(Date.UTC(year, m, 0)) };
  }
  const week = WEEKLY.exec(period);
  if (!week) return null;
  const year = Number(week[1]);
  const n = Number(week[2]);
  if (n > isoWeeksInYear(year)) return null;
  const monday = isoWeekOneMonday(year) + (n - 1) * 7 * DAY;
  return { kind: 'weekly', from: iso(monday), to: iso(monday + 6 * DAY) };
}

/** The DHIS2 weekly period (`yyyyWn`) of a calendar day `yyyy-mm-dd`. */
export function isoWeekOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  // The ISO year is the one of the week's Thursday.
  const thursday = t + (3 - ((new Date(t).getUTCDay() + 6) % 7)) * DAY;
  const year = new Date(thursday).getUTCFullYear();
  return `${year}W${Math.floor((thursday - isoWeekOneMonday(year)) / (7 * DAY)) + 1}`;
}

export const ZDhis2ExportQuery = z.object({
  period: z.string().refine((p) => parseDhis2Period(p) !== null, { message: 'dhis2.period' }),
});

// The data value set (the published JSON format) ------------------------------------------------------------------

/**
 * The DHIS2 data value set, as the Web API imports it. Written from the Web API documentation (Data values:
 * sending data values, import parameters, identifier schemes; date and period formats) so that a test can
 * validate the export against it: identifiers as the scheme says, `yyyyMM` or `yyyyWn` periods, `yyyy-MM-dd`
 * dates, every value a string.
 */
const zDhis2Id = (scheme: Dhis2IdScheme) => z.string().regex(scheme === 'UID' ? DHIS2_UID : DHIS2_CODE);
const zDhis2Period = z.string().refine((p) => parseDhis2Period(p) !== null);

export function dhis2DataValueSetSchema(scheme: Dhis2IdScheme) {
  const id = zDhis2Id(scheme);
  return z
    .object({
      dataSet: id.optional(),
      completeDate: z.iso.date().optional(),
      period: zDhis2Period,
      orgUnit: id,
      attributeOptionCombo: id.optional(),
      /** Present with codes only: the import then reads every identifier as a code. */
      idScheme: z.literal('CODE').optional(),
      dataValues: z.array(
        z
          .object({
            dataElement: id,
            categoryOptionCombo: id,
            attributeOptionCombo: id.optional(),
            period: zDhis2Period,
            orgUnit: id,
            value: z.string(),
            comment: z.string().max(50_000).optional(),
          })
          .strict(),
      ),
    })
    .strict();
}

/** The response of GET /api/stats/dhis2/dataValueSet/ (either scheme). */
export const ZDhis2DataValueSet = z
  .object({
    dataSet: z.string().optional(),
    completeDate: z.string().optional(),
    period: z.string(),
    orgUnit: z.string(),
    attributeOptionCombo: z.string().optional(),
    idScheme: z.literal('CODE').optional(),
    dataValues: z.array(
      z.object({
        dataElement: z.string(),
        categoryOptionCombo: z.string(),
        attributeOptionCombo: z.string().optional(),
        period: z.string(),
        orgUnit: z.string(),
        value: z.string(),
        comment: z.string().optional(),
      }),
    ),
  })
  .strict();
export type TDhis2DataValueSet = z.infer<typeof ZDhis2DataValueSet>;
