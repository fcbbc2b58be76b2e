/**
 * Reporting (issue 24, docs/decisions/0035-reporting.md): the indicators of `/analytics` (`/api/stats/…`), their
 * drill-down, and the administrator's Hospital Overview (`/api/dashboard/overview/`). Periods are calendar days
 * in the hospital's time zone, both ends included.
 */
import { z } from 'zod';
import { DASHBOARD_KINDS, type DashboardKind } from '../domain/roles.js';
import { ZPageQuery, zPage } from './common.js';

/** The longest period one request may ask for (a year, leap or not, and a day of margin). */
export const STATS_MAX_DAYS = 367;

const zDay = z.iso.date();

/** The most hospitals one request may add up. */
export const STATS_MAX_HOSPITALS = 50;

/**
 * The hospitals a request adds up (an administrator of several): `all` (every hospital where the user reads the
 * figures) or a comma-separated list of hospital ids; absent, the request's hospital (Hospital-ID) alone.
 */
export const ZStatsHospitals = z.union([
  z.literal('all'),
  z
    .string()
    .transform((v) => [...new Set(v.split(','))])
    .pipe(z.array(z.uuid()).min(1).max(STATS_MAX_HOSPITALS)),
]);

export const ZStatsQuery = z
  .object({
    from: zDay,
    to: zDay,
    department: z.uuid().optional(),
    hospitals: ZStatsHospitals.optional(),
  })
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'stats.period_order' })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < STATS_MAX_DAYS, {
    path: ['to'],
    message: 'stats.period_too_long',
  });
export type TStatsQuery = z.infer<typeof ZStatsQuery>;

/** The age groups of the pyramid and of the notifiable diseases (IDSR). */
export const AGE_GROUPS = ['0-11m', '1-4', '5-14', '15-24', '25-49', '50-64', '65+', 'unknown'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];

/**
 * The notifiable diseases of the weekly IDSR report, by ICD-10 prefix. Malaria is split by the diagnosis'
 * certainty (confirmed by a test, or suspected); the others count every active diagnosis.
 */
export const IDSR_DISEASES = [
  { key: 'malaria_confirmed', prefixes: ['B50', 'B51', 'B52', 'B53', 'B54'], certainty: 'confirmed' },
  { key: 'malaria_suspected', prefixes: ['B50', 'B51', 'B52', 'B53', 'B54'], certainty: 'suspected' },
  { key: 'cholera', prefixes: ['A00'], certainty: null },
  { key: 'measles', prefixes: ['B05'], certainty: null },
  { key: 'meningitis', prefixes: ['A39', 'G00', 'G01', 'G02', 'G03'], certainty: null },
  { key: 'yellow_fever', prefixes: ['A95'], certainty: null },
  { key: 'afp', prefixes: ['A80', 'G82'], certainty: null },
  { key: 'typhoid', prefixes: ['A01'], certainty: null },
  { key: 'dysentery', prefixes: ['A03'], certainty: null },
  { key: 'plague', prefixes: ['A20'], certainty: null },
  { key: 'rabies', prefixes: ['A82'], certainty: null },
  { key: 'viral_haemorrhagic_fever', prefixes: ['A98', 'A99', 'A96'], certainty: null },
  { key: 'neonatal_tetanus', prefixes: ['A33'], certainty: null },
] as const satisfies readonly {
  key: string;
  prefixes: readonly string[];
  certainty: 'confirmed' | 'suspected' | null;
}[];
export type IdsrDisease = (typeof IDSR_DISEASES)[number]['key'];
export const IDSR_KEYS = IDSR_DISEASES.map((d) => d.key) as [IdsrDisease, ...IdsrDisease[]];

/** The IDSR age groups (the weekly form's columns). */
export const IDSR_AGE_GROUPS = ['0-11m', '1-4', '5-14', '15+', 'unknown'] as const;

const zCounts = <K extends readonly [string, ...string[]]>(keys: K) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K[number], z.ZodNumber>);

export const ZStatsPeriod = z.object({
  from: z.string(),
  to: z.string(),
  department: z.uuid().nullable(),
  /** The request's hospital (Hospital-ID). */
  hospital: z.object({ id: z.uuid(), code: z.string(), name: z.string() }),
  /** Every hospital the figures add up (the request's alone unless `hospitals` was given). */
  hospitals: z.array(z.object({ id: z.uuid(), code: z.string(), name: z.string() })),
});

export const ZActivityStats = z.object({
  period: ZStatsPeriod,
  admissions_by_day: z.array(
    z.object({
      day: z.string(),
      outpatient: z.number().int(),
      emergency: z.number().int(),
      maternity: z.number().int(),
      inpatient: z.number().int(),
      total: z.number().int(),
    }),
  ),
  consultations_by_doctor: z.array(
    z.object({
      doctor: z.object({ id: z.uuid(), full_name: z.string() }),
      consultations: z.number().int(),
      completed: z.number().int(),
    }),
  ),
  /** Patients with a visit in the period: first visit ever (new) or not (returning). */
  patients: z.object({ new: z.number().int(), returning: z.number().int() }),
  pyramid: z.array(z.object({ age_group: z.enum(AGE_GROUPS), F: z.number().int(), M: z.number().int() })),
});
export type TActivityStats = z.infer<typeof ZActivityStats>;

export const ZFlowStats = z.object({
  period: ZStatsPeriod,
  /** Visits by the level of their latest triage (`null`: never triaged); times in minutes (averages). */
  levels: z.array(
    z.object({
      level: z.string().nullable(),
      target_minutes: z.number().int().nullable(),
      visits: z.number().int(),
      seen: z.number().int(),
      arrival_to_triage: z.number().nullable(),
      arrival_to_doctor: z.number().nullable(),
      doctor_to_end: z.number().nullable(),
      /** Medians of the same waits (minutes), exact to the summaries' histogram bucket (decision 0038). */
      median_arrival_to_triage: z.number().nullable(),
      median_arrival_to_doctor: z.number().nullable(),
      median_doctor_to_end: z.number().nullable(),
      /** Seen by a doctor within the level's target delay (from arrival). */
      within_target: z.number().int(),
    }),
  ),
});
export type TFlowStats = z.infer<typeof ZFlowStats>;

export const ZDiagnosisStats = z.object({
  period: ZStatsPeriod,
  top_codes: z.array(z.object({ code: z.string(), label: z.string(), count: z.number().int() })),
  chapters: z.array(z.object({ chapter: z.string(), label: z.string(), count: z.number().int() })),
  idsr: z.array(
    z.object({ disease: z.enum(IDSR_KEYS), total: z.number().int(), by_age: zCounts(IDSR_AGE_GROUPS) }),
  ),
});
export type TDiagnosisStats = z.infer<typeof ZDiagnosisStats>;

export const ZLaboratoryStats = z.object({
  period: ZStatsPeriod,
  exams: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      kind: z.enum(['lab', 'imaging']),
      requested: z.number().int(),
      validated: z.number().int(),
      cancelled: z.number().int(),
      /** Average minutes from request to validation, over the validated ones. */
      turnaround_minutes: z.number().nullable(),
    }),
  ),
  /** Validated malaria tests (rapid test and smear) and the positive (abnormal) ones. */
  malaria: z.object({ tested: z.number().int(), positive: z.number().int() }),
});
export type TLaboratoryStats = z.infer<typeof ZLaboratoryStats>;

export const ZInpatientStats = z.object({
  period: ZStatsPeriod,
  admissions: z.number().int(),
  discharges: z.number().int(),
  deaths: z.number().int(),
  /** Average length (days) of the stays ended in the period. */
  average_length_of_stay: z.number().nullable(),
  beds: z.number().int(),
  occupied_bed_days: z.number(),
  /** Occupied bed-days over available bed-days, percent. */
  occupancy: z.number().nullable(),
  discharges_by_mode: z.array(z.object({ mode: z.string(), count: z.number().int() })),
});
export type TInpatientStats = z.infer<typeof ZInpatientStats>;

export const ZBillingStats = z.object({
  period: ZStatsPeriod,
  /** Net payments received (refunds deducted), by method and currency. */
  by_method: z.array(
    z.object({ method: z.string(), currency: z.string(), amount: z.string(), count: z.number().int() }),
  ),
  /** Invoices issued in the period, by payer category and currency. */
  by_payer: z.array(
    z.object({
      payer_category: z.string(),
      currency: z.string(),
      invoices: z.number().int(),
      total: z.string(),
      payer_share: z.string(),
      patient_share: z.string(),
    }),
  ),
});
export type TBillingStats = z.infer<typeof ZBillingStats>;

export const ZPharmacyStats = z.object({
  period: ZStatsPeriod,
  /** Presentations with no unit left now in a pharmacy (of the department filter, or all). */
  stock_outs: z.number().int(),
  /** Presentations with units left, at or under their reorder level now. */
  below_reorder_level: z.number().int(),
  /** Units moved over the period by presentation, the most dispensed first (at most 100). */
  consumption: z.array(
    z.object({
      presentation: z.object({ id: z.uuid(), code: z.string(), name: z.string(), unit: z.string() }),
      dispensed: z.number().int(),
      dispensings: z.number().int(),
      received: z.number().int(),
      written_off: z.number().int(),
      /** Units on hand now (null: never stocked in these pharmacies). */
      on_hand: z.number().int().nullable(),
    }),
  ),
  /** The presentations out of stock now, the most recent first (at most 100), since their last movement. */
  out_of_stock: z.array(
    z.object({
      presentation: z.object({ id: z.uuid(), code: z.string(), name: z.string() }),
      pharmacy: z.object({ id: z.uuid(), name: z.string() }),
      reorder_level: z.number().int().nullable(),
      since: z.string().nullable(),
    }),
  ),
});
export type TPharmacyStats = z.infer<typeof ZPharmacyStats>;

/** What a number of the diagnoses section stands for, for its drill-down. */
export const ZStatsDrilldownQuery = z
  .object({
    from: zDay,
    to: zDay,
    department: z.uuid().optional(),
    /** An IDSR disease key, or an ICD-10 prefix (letters, digits, dot). */
    disease: z.enum(IDSR_KEYS).optional(),
    code: z
      .string()
      .regex(/^[A-Z][0-9A-Z.]{0,6}$/)
      .optional(),
    age_group: z.enum(IDSR_AGE_GROUPS).optional(),
  })
  .extend(ZPageQuery.shape)
  .refine((q) => q.from <= q.to, { path: ['to'], message: 'stats.period_order' })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < STATS_MAX_DAYS, {
    path: ['to'],
    message: 'stats.period_too_long',
  })
  .refine((q) => (q.disease === undefined) !== (q.code === undefined), {
    path: ['disease'],
    message: 'stats.drilldown_target',
  });
export type TStatsDrilldownQuery = z.infer<typeof ZStatsDrilldownQuery>;

export const ZStatsDrilldownItem = z.object({
  consultation: z.uuid(),
  started_at: z.string(),
  status: z.string(),
  patient: z.object({
    id: z.uuid(),
    record_number: z.string(),
    full_name: z.string(),
    age_group: z.string(),
  }),
  doctor: z.object({ id: z.uuid(), full_name: z.string() }),
  department: z.object({ id: z.uuid(), name: z.string() }),
  diagnosis: z.object({ code: z.string(), label: z.string(), certainty: z.string() }),
});
export const ZStatsDrilldown = zPage(ZStatsDrilldownItem);
export type TStatsDrilldownItem = z.infer<typeof ZStatsDrilldownItem>;

/** The Hospital Overview (admin and head doctor dashboard): today's figures, no patient names. */
export const ZDashboardOverview = z.object({
  generated_at: z.string(),
  today: z.object({
    admissions: z.number().int(),
    by_type: z.object({
      outpatient: z.number().int(),
      emergency: z.number().int(),
      maternity: z.number().int(),
      inpatient: z.number().int(),
    }),
    waiting: z.number().int(),
    in_consultation: z.number().int(),
    consultations_completed: z.number().int(),
    hospitalized: z.number().int(),
    discharged: z.number().int(),
    deaths: z.number().int(),
  }),
  alerts: z.array(
    z.object({
      kind: z.enum(['wait_over_target', 'pending_bed', 'urgent_results', 'no_free_bed']),
      count: z.number().int(),
    }),
  ),
  waiting: z.array(
    z.object({
      level: z.string().nullable(),
      target_minutes: z.number().int().nullable(),
      count: z.number().int(),
      longest_minutes: z.number().int(),
      average_minutes: z.number().int(),
      over_target: z.number().int(),
    }),
  ),
  outpatient: z.array(
    z.object({
      department: z.object({ id: z.uuid(), name: z.string() }),
      admissions: z.number().int(),
      waiting: z.number().int(),
      in_consultation: z.number().int(),
      completed: z.number().int(),
    }),
  ),
  inpatient: z.object({
    beds: z.number().int(),
    occupied: z.number().int(),
    pending_bed: z.number().int(),
    by_department: z.array(
      z.object({
        department: z.object({ id: z.uuid(), name: z.string() }),
        census: z.number().int(),
        pending_bed: z.number().int(),
        admitted_today: z.number().int(),
      }),
    ),
  }),
  discharged: z.array(z.object({ mode: z.string(), count: z.number().int() })),
});
export type TDashboardOverview = z.infer<typeof ZDashboardOverview>;

/**
 * `GET /api/dashboard/` (specification §7's endpoint list; issue 36): the signed-in user's dashboards in this
 * hospital (§6: one per dashboard kind of their roles, in display order), each with what its screen reads —
 * the endpoints with `{id}` resolved for the user (their doctor, nurse or department id).
 */
export const ZDashboardIndex = z.object({
  /** The group of the first active role in this hospital (§6's dashboard role). */
  role_group: z.string(),
  dashboards: z.array(
    z.object({
      kind: z.enum(DASHBOARD_KINDS as [DashboardKind, ...DashboardKind[]]),
      title: z.string(),
      subtitle: z.string(),
      primary_action: z.string().nullable(),
      tabs: z.array(z.string()),
      endpoints: z.array(z.string()),
      refresh_interval: z.number().int(),
      features: z.array(z.string()),
    }),
  ),
});
export type TDashboardIndex = z.infer<typeof ZDashboardIndex>;

/** `GET /api/stats/` (specification §7; issue 36): the statistics sections, each with its link. */
export const ZStatsIndex = z.object({
  sections: z.array(
    z.object({
      name: z.string(),
      /** In the request's language. */
      title: z.string(),
      url: z.string(),
    }),
  ),
});
export type TStatsIndex = z.infer<typeof ZStatsIndex>;
