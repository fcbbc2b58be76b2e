/**
 * Nursing care (issue 20, decision 0025): care plans and their orders, the care executions (tasks) they
 * generate, ward vital-sign rounds with NEWS2, intake/output, the temperature chart's series, the medication
 * administration record (MAR) and the SBAR shift handoffs; the nurse dashboard's tasks.
 *
 * Routes (all under /api, Hospital-ID header; "care team" = the groups nurse, queue manager (CHARGE_NURSE,
 * QUEUE_MANAGER), doctor, head doctor, midwife; the service then requires a membership of the patient's
 * department — or a membership without department — else 403, and another hospital's id is 404):
 *
 * | Method | Path | Who |
 * |---|---|---|
 * | GET  | /care/patients/                          | care team: open stays and emergency visits with their plan (the /care list) |
 * | POST | /care/plans/                             | care team: the plan of a stay or an emergency visit (200 existing, 201 new) |
 * | GET  | /care/plans/{id}/                        | care team |
 * | PATCH| /care/plans/{id}/                        | care team: hypercapnic flag, goals |
 * | GET  | /care/plans/{id}/orders/                 | care team |
 * | POST | /care/plans/{id}/orders/                 | care team (doctors and nurses write orders) |
 * | POST | /care/orders/{id}/stop/                  | care team: stops it and cancels its future executions |
 * | GET  | /care/plans/{id}/executions/             | care team |
 * | GET  | /care/executions/                        | care team: the ward-wide view (charge nurse, head nurse, doctors) |
 * | GET  | /care/nurses/                            | care team: the nurses a department's task may be given to |
 * | POST | /care/executions/{id}/assign/            | care team: notifies execution_assigned / execution_reassigned |
 * | POST | /care/executions/{id}/schedule/          | care team: notifies execution_scheduled |
 * | POST | /care/executions/{id}/record/            | care team: done (by the caller, real time) or not done (reason) |
 * | POST | /care/executions/{id}/cancel/            | care team |
 * | GET  | /nurses/{nurse_id}/tasks/                | the nurse herself; the charge nurse, doctors and head doctor of her departments |
 * | GET  | /care/rounds/                            | care team: the patients of a ward for a round of vitals |
 * | POST | /care/rounds/                            | care team: one set of vitals per patient, NEWS2 each, escalation notifies |
 * | GET  | /care/plans/{id}/vitals/                 | care team |
 * | POST | /care/plans/{id}/vitals/                 | care team: one set |
 * | POST | /care/plans/{id}/fluids/                 | care team: intake or output |
 * | GET  | /care/plans/{id}/chart/                  | care team: the temperature chart's series, by days |
 * | GET  | /care/plans/{id}/mar/                    | care team: doses due in a window |
 * | POST | /care/mar/administrations/               | care team: a dose given / not given (idempotent: 201 then 200 with the same body) |
 * | GET  | /care/handoffs/                          | care team: to give, to acknowledge, unacknowledged |
 * | GET  | /care/plans/{id}/handoff-draft/          | care team: the SBAR pre-filled with the shift's changes |
 * | POST | /care/handoffs/                          | care team: written by the outgoing nurse |
 * | GET  | /care/handoffs/{id}/                     | care team |
 * | POST | /care/handoffs/{id}/acknowledge/         | care team, not the author |
 * | GET  | /care/shift/                             | every member: the current shift of the hospital |
 *
 * Hospital shift times are a hospital setting (`shift_times`, contracts/hospital-settings.ts).
 */
import { z } from 'zod';
import { GRACE_MINUTES } from '../domain/care.js';
import { NEWS2_ESCALATIONS, NEWS2_RISKS } from '../domain/news2.js';
import { AVPU } from '../domain/triage.js';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zSearch } from './common.js';
import { ZTimeOfDay } from './hospital-settings.js';
import { ZBedPlace } from './hospitalizations.js';
import { ROUTES, ZFrequency } from './pharmacy.js';
import { checkBloodPressure, zVital } from './triage.js';
import { VITALS_SOURCES, ZNews2Summary } from './vital-signs.js';

const text = (max: number) => z.string().trim().min(1).max(max);
const note = z.string().trim().max(2000).nullish();

// Shift -----------------------------------------------------------------------------------------------------

/** A shift of the hospital: from one shift time to the next, in the hospital's time zone. */
export const ZShift = z.object({
  start: zDateTime,
  end: zDateTime,
  /** The shift time it starts at, e.g. `07:00`. */
  label: z.string(),
  time_zone: z.string(),
});
export type TShift = z.infer<typeof ZShift>;
export const ZShiftInfo = z.object({
  current: ZShift,
  previous: ZShift,
  next: ZShift,
  shift_times: z.array(z.string()),
});
export type TShiftInfo = z.infer<typeof ZShiftInfo>;

// Plans -----------------------------------------------------------------------------------------------------

/** What a plan is for: an inpatient stay, or an emergency visit kept under observation. Exactly one. */
export const ZCareTarget = z
  .object({ hospitalization: z.uuid().nullish(), admission: z.uuid().nullish() })
  .strict()
  .refine((v) => Boolean(v.hospitalization) !== Boolean(v.admission), {
    message: 'care.target_required',
    path: ['hospitalization'],
  });

export const ZCarePlanCreate = z
  .object({
    hospitalization: z.uuid().nullish(),
    admission: z.uuid().nullish(),
    /** Hypercapnic respiratory failure: NEWS2 uses SpO₂ scale 2 (a doctor's decision). */
    hypercapnic: z.boolean().optional(),
    goals: z.string().trim().max(2000).nullish(),
  })
  .strict()
  .refine((v) => Boolean(v.hospitalization) !== Boolean(v.admission), {
    message: 'care.target_required',
    path: ['hospitalization'],
  });
export type TCarePlanCreate = z.input<typeof ZCarePlanCreate>;
export const ZCarePlanUpdate = z
  .object({ hypercapnic: z.boolean().optional(), goals: z.string().trim().max(2000).nullable().optional() })
  .strict();

export type { TNews2Summary } from './vital-signs.js';
export { VITALS_SOURCES, ZNews2Summary } from './vital-signs.js';

/** A patient under care: an open stay or an emergency visit, with its plan when one was opened. */
export const ZCarePatient = z.object({
  /** Null until someone opens the plan (POST /care/plans/). */
  plan: z.uuid().nullable(),
  hospitalization: z.uuid().nullable(),
  admission: z.uuid().nullable(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  /** The stay's bed (null for an emergency visit or while waiting for a bed). */
  place: ZBedPlace.nullable(),
  doctor: ZPersonRef.nullable(),
  since: zDateTime,
  hypercapnic: z.boolean(),
  /** NEWS2 of the latest set of vitals (null: none, or a child — NEWS2 is from 16 years). */
  news2: ZNews2Summary.nullable(),
  /** Executions past their time plus the grace, and overdue doses. */
  overdue: z.number().int(),
  /** Executions and doses due in the current shift, not yet recorded. */
  due: z.number().int(),
});
export type TCarePatient = z.infer<typeof ZCarePatient>;
export const ZCarePatientList = zPage(ZCarePatient);
export const ZCarePatientQuery = ZPageQuery.extend({
  department: z.uuid().optional(),
  ward: z.uuid().optional(),
  /** Name or record number. */
  ...zSearch(),
  /** `inpatient`: stays only; `emergency`: emergency visits only. */
  kind: z.enum(['all', 'inpatient', 'emergency']).default('all'),
});

export const ZCarePlan = ZCarePatient.extend({
  plan: z.uuid(),
  id: z.uuid(),
  status: z.enum(['active', 'closed']),
  goals: z.string().nullable(),
  created_by: ZPersonRef,
  created_at: zDateTime,
  /** What the caller may do on it now. */
  can: z.object({ order: z.boolean(), record: z.boolean(), assign: z.boolean(), edit: z.boolean() }),
});
export type TCarePlan = z.infer<typeof ZCarePlan>;

// Orders ----------------------------------------------------------------------------------------------------

export const CARE_ORDER_KINDS = [
  'vitals',
  'dressing',
  'iv_line',
  'positioning',
  'feeding',
  'specimen',
  'custom',
] as const;
export type CareOrderKind = (typeof CARE_ORDER_KINDS)[number];

/** The signs a vitals order asks for. */
export const MONITORED_SIGNS = [
  'temperature',
  'heart_rate',
  'respiratory_rate',
  'blood_pressure',
  'spo2',
  'consciousness',
  'pain',
  'weight',
  'glycaemia',
  'fluids',
] as const;

export const CARE_PRIORITIES = ['urgent', 'high', 'normal'] as const;
export type CarePriority = (typeof CARE_PRIORITIES)[number];
/** Rank of a priority: 1 first. */
export const CARE_PRIORITY_RANK: Readonly<Record<CarePriority, number>> = { urgent: 1, high: 2, normal: 3 };

/** When: once, every N hours from the start, or at fixed times of day; for N days or until stopped. */
export const ZCareSchedule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('once') }).strict(),
  z.object({ kind: z.literal('every_hours'), hours: z.number().int().min(1).max(48) }).strict(),
  z
    .object({
      kind: z.literal('fixed_times'),
      times: z
        .array(ZTimeOfDay)
        .min(1)
        .max(24)
        .refine((t) => new Set(t).size === t.length, 'care.times_duplicate'),
    })
    .strict(),
]);
export type TCareSchedule = z.infer<typeof ZCareSchedule>;

export const ZCareOrderCreate = z
  .object({
    kind: z.enum(CARE_ORDER_KINDS),
    /** "Pansement VVP bras gauche", "Surveillance constantes"… */
    title: text(200),
    instructions: z.string().trim().max(2000).nullish(),
    /** For a vitals order: the signs to take (at least one). */
    signs: z.array(z.enum(MONITORED_SIGNS)).max(MONITORED_SIGNS.length).default([]),
    priority: z.enum(CARE_PRIORITIES).default('normal'),
    schedule: ZCareSchedule,
    /** First execution (once / every N hours) or first day (fixed times); default now. */
    start_at: zDateTime.nullish(),
    /** Days it runs for; null: until stopped (a `once` order ignores it). */
    days: z.number().int().min(1).max(90).nullish(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.kind === 'vitals' && v.signs.length === 0)
      ctx.addIssue({ code: 'custom', path: ['signs'], message: 'care.signs_required' });
  });
export type TCareOrderCreate = z.input<typeof ZCareOrderCreate>;
export const ZCareOrderStop = z.object({ reason: z.string().trim().min(3).max(500) }).strict();

export const ZCareOrder = z.object({
  id: z.uuid(),
  plan: z.uuid(),
  kind: z.enum(CARE_ORDER_KINDS),
  title: z.string(),
  instructions: z.string().nullable(),
  signs: z.array(z.enum(MONITORED_SIGNS)),
  priority: z.enum(CARE_PRIORITIES),
  schedule: ZCareSchedule,
  start_at: zDateTime,
  /** Null: until stopped. */
  end_at: zDateTime.nullable(),
  status: z.enum(['active', 'stopped', 'completed']),
  ordered_by: ZPersonRef,
  ordered_at: zDateTime,
  stopped_by: ZPersonRef.nullable(),
  stopped_at: zDateTime.nullable(),
  stop_reason: z.string().nullable(),
});
export type TCareOrder = z.infer<typeof ZCareOrder>;
export const ZCareOrderList = zPage(ZCareOrder);
export const ZCareOrderQuery = ZPageQuery.extend({ status: z.enum(['active', 'all']).default('active') });

// Executions (care tasks) -------------------------------------------------------------------------------------

export const CARE_EXECUTION_STATUSES = ['scheduled', 'done', 'not_done', 'cancelled'] as const;
export type CareExecutionStatus = (typeof CARE_EXECUTION_STATUSES)[number];
export const NOT_DONE_REASONS = [
  'patient_refused',
  'patient_absent',
  'patient_asleep',
  'contraindicated',
  'equipment_unavailable',
  'other',
] as const;
/** Minutes after `scheduled_at` an execution (or a dose) still counts as on time. */
export const CARE_GRACE_MINUTES = GRACE_MINUTES;

export const ZCareExecution = z.object({
  id: z.uuid(),
  plan: z.uuid(),
  order: z.object({
    id: z.uuid(),
    kind: z.enum(CARE_ORDER_KINDS),
    title: z.string(),
    instructions: z.string().nullable(),
    signs: z.array(z.enum(MONITORED_SIGNS)),
  }),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  place: ZBedPlace.nullable(),
  priority: z.enum(CARE_PRIORITIES),
  scheduled_at: zDateTime,
  status: z.enum(CARE_EXECUTION_STATUSES),
  /** Still scheduled past `scheduled_at` + the grace, or done after it. */
  late: z.boolean(),
  assignee: ZPersonRef.nullable(),
  /** Who did it (the caller who recorded it) and when it was really done. */
  done_by: ZPersonRef.nullable(),
  done_at: zDateTime.nullable(),
  not_done_reason: z.enum(NOT_DONE_REASONS).nullable(),
  note: z.string().nullable(),
  recorded_at: zDateTime.nullable(),
});
export type TCareExecution = z.infer<typeof ZCareExecution>;
export const ZCareExecutionList = zPage(ZCareExecution);

export const ZCareExecutionQuery = ZPageQuery.extend({
  /** Default: the current shift. */
  from: zDateTime.optional(),
  to: zDateTime.optional(),
  status: z.enum(['open', 'all', ...CARE_EXECUTION_STATUSES]).default('all'),
});
/** The ward-wide view. */
export const ZWardExecutionQuery = ZCareExecutionQuery.extend({
  department: z.uuid().optional(),
  ward: z.uuid().optional(),
  assignee: z.uuid().optional(),
  /** Only the executions nobody is assigned to. */
  unassigned: z.enum(['true', 'false']).optional(),
  late: z.enum(['true', 'false']).optional(),
});

export const ZCareAssign = z.object({ nurse: z.uuid() }).strict();
export const ZCareReschedule = z
  .object({ scheduled_at: zDateTime, nurse: z.uuid().nullish(), note: z.string().trim().max(500).nullish() })
  .strict();
/**
 * What a record made offline carries (issue 40): the client's key (a record sent twice is kept once; unique per
 * hospital) and the nurse the task was given to when she saw it — the record is refused (409) when the task was
 * given to someone else meanwhile.
 */
const offlineRecord = {
  idempotency_key: z.uuid().nullish(),
  expected_assignee: z.uuid().nullish(),
};
export const ZCareRecord = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('done'),
      /** When it was really done (default now; not in the future, at most 24 h back). */
      done_at: zDateTime.nullish(),
      note,
      ...offlineRecord,
    })
    .strict(),
  z
    .object({ outcome: z.literal('not_done'), reason: z.enum(NOT_DONE_REASONS), note, ...offlineRecord })
    .strict()
    .refine((v) => v.reason !== 'other' || Boolean(v.note), {
      message: 'care.note_required',
      path: ['note'],
    }),
]);
export type TCareRecord = z.input<typeof ZCareRecord>;
export const ZCareCancel = z.object({ reason: z.string().trim().min(3).max(500) }).strict();
export const ZCareAssignResult = z.object({
  execution: ZCareExecution,
  reassigned_from: ZPersonRef.nullable(),
});

// MAR ---------------------------------------------------------------------------------------------------------

export const DOSE_NOT_GIVEN_REASONS = [
  'refused',
  'patient_absent',
  'vomited',
  'out_of_stock',
  'held_by_order',
  'other',
] as const;
export const DOSE_STATUSES = ['due', 'overdue', 'given', 'not_given'] as const;

export const ZDoseRecord = z.object({
  id: z.uuid(),
  prescription_line: z.uuid(),
  scheduled_at: zDateTime,
  outcome: z.enum(['given', 'not_given']),
  given_at: zDateTime.nullable(),
  dose: z.number().nullable(),
  dose_unit: z.string().nullable(),
  route: z.enum(ROUTES).nullable(),
  site: z.string().nullable(),
  reason: z.enum(DOSE_NOT_GIVEN_REASONS).nullable(),
  note: z.string().nullable(),
  /** Given after `scheduled_at` + the grace. */
  late: z.boolean(),
  recorded_by: ZPersonRef,
  recorded_at: zDateTime,
});
export type TDoseRecord = z.infer<typeof ZDoseRecord>;

/** One dose of a line: due at `scheduled_at`, and its record once given or not. */
export const ZDose = z.object({
  prescription_line: z.uuid(),
  scheduled_at: zDateTime,
  status: z.enum(DOSE_STATUSES),
  record: ZDoseRecord.nullable(),
});
export type TDose = z.infer<typeof ZDose>;

export const ZMarLine = z.object({
  id: z.uuid(),
  prescription: z.uuid(),
  medication: z.object({ id: z.uuid(), inn_fr: z.string(), inn_en: z.string() }),
  strength: z.string(),
  form: z.string(),
  dose: z.number(),
  dose_unit: z.string(),
  route: z.enum(ROUTES),
  frequency: ZFrequency,
  instructions: z.string().nullable(),
  starts_at: zDateTime,
  ends_at: zDateTime.nullable(),
  prescriber: ZPersonRef,
  /** As needed: no scheduled doses; each administration is recorded at its time (max per day applies). */
  as_needed: z.boolean(),
  doses: z.array(ZDose),
});
export type TMarLine = z.infer<typeof ZMarLine>;
export const ZMar = z.object({ plan: z.uuid(), from: zDateTime, to: zDateTime, lines: z.array(ZMarLine) });
export type TMar = z.infer<typeof ZMar>;
/** Default: the current shift; at most 7 days. */
export const ZMarQuery = z.object({ from: zDateTime.optional(), to: zDateTime.optional() });

export const ZAdministrationCreate = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('given'),
      prescription_line: z.uuid(),
      /** The dose's time on the MAR (for an as-needed line: the time it was given). */
      scheduled_at: zDateTime,
      /** Generated by the client once per dose form: a repeated submit returns the first record. */
      idempotency_key: z.uuid(),
      given_at: zDateTime.nullish(),
      dose: z.number().positive().max(100_000),
      dose_unit: z.string().trim().min(1).max(20),
      route: z.enum(ROUTES),
      site: z.string().trim().max(100).nullish(),
      note,
    })
    .strict(),
  z
    .object({
      outcome: z.literal('not_given'),
      prescription_line: z.uuid(),
      scheduled_at: zDateTime,
      idempotency_key: z.uuid(),
      reason: z.enum(DOSE_NOT_GIVEN_REASONS),
      note,
    })
    .strict()
    .refine((v) => v.reason !== 'other' || Boolean(v.note), {
      message: 'care.note_required',
      path: ['note'],
    }),
]);
export type TAdministrationCreate = z.input<typeof ZAdministrationCreate>;

// Tasks (the nurse dashboard) -----------------------------------------------------------------------------------

export const ZTask = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('execution'),
    scheduled_at: zDateTime,
    late: z.boolean(),
    execution: ZCareExecution,
  }),
  z.object({
    type: z.literal('dose'),
    scheduled_at: zDateTime,
    late: z.boolean(),
    plan: z.uuid(),
    patient: ZPatientRef,
    place: ZBedPlace.nullable(),
    line: ZMarLine.omit({ doses: true }),
    dose: ZDose,
  }),
]);
export type TTask = z.infer<typeof ZTask>;
/** Ordered by time, then priority; overdue items of earlier shifts first. */
export const ZTaskList = zPage(ZTask).extend({ shift: ZShift, overdue: z.number().int() });
export type TTaskList = z.infer<typeof ZTaskList>;
export const ZTaskQuery = ZPageQuery.extend({
  /** `mine`: assigned to the nurse, or unassigned in her departments; `ward`: everything of her departments. */
  scope: z.enum(['mine', 'ward']).default('mine'),
  department: z.uuid().optional(),
  ward: z.uuid().optional(),
  /** `open` (default): still to do; `all`: with what was recorded in the shift. */
  status: z.enum(['open', 'all']).default('open'),
});

// Vitals, rounds, fluids, chart ---------------------------------------------------------------------------------

/** A ward set of vital signs: the triage bounds, oxygen, ACVPU. */
export const ZCareVitals = z
  .object({
    temperature: zVital('temperature'),
    heart_rate: zVital('heart_rate'),
    respiratory_rate: zVital('respiratory_rate'),
    systolic_bp: zVital('systolic_bp'),
    diastolic_bp: zVital('diastolic_bp'),
    spo2: zVital('spo2'),
    /** Supplemental oxygen (NEWS2 adds 2). */
    on_oxygen: z.boolean().default(false),
    /** L/min. */
    oxygen_flow: z.number().min(0).max(60).nullish(),
    avpu: z.enum(AVPU).nullish(),
    /** New confusion (the C of ACVPU). */
    confused: z.boolean().nullish(),
    pain: zVital('pain'),
    weight: zVital('weight'),
    /** cm (optional; not part of NEWS2). */
    height: zVital('height'),
    glycaemia: zVital('glycaemia'),
    note: z.string().trim().max(500).nullish(),
  })
  .strict()
  .superRefine(checkBloodPressure)
  .refine(
    (v) =>
      [
        v.temperature,
        v.heart_rate,
        v.respiratory_rate,
        v.systolic_bp,
        v.spo2,
        v.avpu,
        v.pain,
        v.weight,
        v.height,
        v.glycaemia,
      ].some((x) => x !== null && x !== undefined),
    { message: 'care.vitals_empty', path: ['temperature'] },
  );
export type TCareVitals = z.input<typeof ZCareVitals>;

export const ZNews2 = z.object({
  score: z.number().int(),
  complete: z.boolean(),
  spo2_scale: z.union([z.literal(1), z.literal(2)]),
  breakdown: z.object({
    respiratory_rate: z.number().int().nullable(),
    spo2: z.number().int().nullable(),
    air_or_oxygen: z.number().int().nullable(),
    systolic_bp: z.number().int().nullable(),
    heart_rate: z.number().int().nullable(),
    consciousness: z.number().int().nullable(),
    temperature: z.number().int().nullable(),
  }),
  red_parameter: z.boolean(),
  risk: z.enum(NEWS2_RISKS),
  escalation: z.enum(NEWS2_ESCALATIONS),
  colour: z.enum(['green', 'yellow', 'orange', 'red']),
});
export type TNews2 = z.infer<typeof ZNews2>;

export const ZVitalsRecord = z.object({
  id: z.uuid(),
  /**
   * Where the set was recorded: one series of vital signs per patient (issue 37) — on the ward, at triage or in a
   * consultation.
   */
  source: z.enum(VITALS_SOURCES),
  /** The care plan of a ward set (null for a triage or consultation set). */
  plan: z.uuid().nullable(),
  patient: z.uuid(),
  recorded_at: zDateTime,
  recorded_by: ZPersonRef,
  temperature: z.number().nullable(),
  heart_rate: z.number().int().nullable(),
  respiratory_rate: z.number().int().nullable(),
  systolic_bp: z.number().int().nullable(),
  diastolic_bp: z.number().int().nullable(),
  spo2: z.number().int().nullable(),
  on_oxygen: z.boolean(),
  oxygen_flow: z.number().nullable(),
  avpu: z.enum(AVPU).nullable(),
  confused: z.boolean().nullable(),
  pain: z.number().int().nullable(),
  weight: z.number().nullable(),
  /** cm (optional; not part of NEWS2). */
  height: z.number().nullable(),
  glycaemia: z.number().nullable(),
  note: z.string().nullable(),
  /** Null for a child (NEWS2 is from 16 years). */
  news2: ZNews2.nullable(),
  /** The doctor was notified (escalation urgent or emergency). */
  escalated_to: z.array(ZPersonRef),
});
export type TVitalsRecord = z.infer<typeof ZVitalsRecord>;
export const ZVitalsList = zPage(ZVitalsRecord);

export const ZVitalsCreate = z
  .object({
    vitals: ZCareVitals,
    /** When taken (default now; not in the future, at most 24 h back). */
    recorded_at: zDateTime.nullish(),
    /** The monitoring execution this set completes (marked done by the caller). */
    execution: z.uuid().nullish(),
    /** The client's key of the set (issue 40): sent again, the first set is answered. */
    idempotency_key: z.uuid().nullish(),
  })
  .strict();
export type TVitalsCreate = z.input<typeof ZVitalsCreate>;

export const ZRoundQuery = z.object({ department: z.uuid().optional(), ward: z.uuid().optional() });
/** One line of the round screen. */
export const ZRoundPatient = ZCarePatient.extend({
  /** NEWS2 is computed (16 years and over). */
  news2_applies: z.boolean(),
  latest: ZVitalsRecord.nullable(),
  /** The vitals execution due now or overdue, which the set will complete. */
  due_execution: z.uuid().nullable(),
});
export type TRoundPatient = z.infer<typeof ZRoundPatient>;
/** At most 100 patients (a ward). */
export const ZRound = z.object({ shift: ZShift, results: z.array(ZRoundPatient) });

export const ZRoundEntry = z
  .object({
    hospitalization: z.uuid().nullish(),
    admission: z.uuid().nullish(),
    vitals: ZCareVitals,
    execution: z.uuid().nullish(),
    /** The client's key of the set (issue 40): a round queued offline and sent twice keeps each set once. */
    idempotency_key: z.uuid().nullish(),
  })
  .strict()
  .refine((v) => Boolean(v.hospitalization) !== Boolean(v.admission), {
    message: 'care.target_required',
    path: ['hospitalization'],
  });
/** One request for the whole ward: all sets are valid and saved, or none. */
export const ZRoundCreate = z
  .object({ recorded_at: zDateTime.nullish(), entries: z.array(ZRoundEntry).min(1).max(100) })
  .strict();
export type TRoundCreate = z.input<typeof ZRoundCreate>;
export const ZRoundResult = z.object({ results: z.array(ZVitalsRecord) });

export const FLUID_DIRECTIONS = ['intake', 'output'] as const;
export const FLUID_KINDS = [
  'oral',
  'iv',
  'enteral',
  'urine',
  'drain',
  'vomit',
  'stool',
  'blood',
  'other',
] as const;
export const ZFluidCreate = z
  .object({
    direction: z.enum(FLUID_DIRECTIONS),
    kind: z.enum(FLUID_KINDS),
    volume_ml: z.number().int().min(1).max(10_000),
    recorded_at: zDateTime.nullish(),
    note: z.string().trim().max(500).nullish(),
  })
  .strict();
export const ZFluid = z.object({
  id: z.uuid(),
  plan: z.uuid(),
  direction: z.enum(FLUID_DIRECTIONS),
  kind: z.enum(FLUID_KINDS),
  volume_ml: z.number().int(),
  recorded_at: zDateTime,
  recorded_by: ZPersonRef,
  note: z.string().nullable(),
});
export type TFluid = z.infer<typeof ZFluid>;

/** The temperature chart: `days` days from `from` (hospital time zone), at most 14 per request. */
export const ZChartQuery = z.object({
  from: z.iso.date().optional(),
  days: z.coerce.number().int().min(1).max(14).default(7),
});
export const ZChartPoint = z.object({
  at: zDateTime,
  temperature: z.number().nullable(),
  heart_rate: z.number().int().nullable(),
  systolic_bp: z.number().int().nullable(),
  diastolic_bp: z.number().int().nullable(),
  respiratory_rate: z.number().int().nullable(),
  spo2: z.number().int().nullable(),
  pain: z.number().int().nullable(),
  weight: z.number().nullable(),
  /** cm. */
  height: z.number().nullable(),
  news2: z.number().int().nullable(),
  /** Where the set was recorded (ward, triage, consultation): the chart shows the patient's one series. */
  source: z.enum(VITALS_SOURCES),
});
export const ZChartDay = z.object({
  date: z.iso.date(),
  intake_ml: z.number().int(),
  output_ml: z.number().int(),
  /** Intake − output. */
  balance_ml: z.number().int(),
  weight: z.number().nullable(),
});
export const ZChart = z.object({
  plan: z.uuid(),
  from: z.iso.date(),
  to: z.iso.date(),
  /** The stay's (or visit's) first day, for paging back. */
  since: z.iso.date(),
  time_zone: z.string(),
  points: z.array(ZChartPoint),
  days: z.array(ZChartDay),
});
export type TChart = z.infer<typeof ZChart>;

// Handoffs (SBAR) ---------------------------------------------------------------------------------------------

export const ZHandoffChange = z.object({
  kind: z.enum(['vitals', 'news2', 'dose_not_given', 'new_order', 'result', 'execution_not_done']),
  at: zDateTime,
  /** Ready to read, in the caller's language. */
  text: z.string(),
});
export const ZSbar = {
  situation: z.string().trim().max(4000).default(''),
  background: z.string().trim().max(4000).default(''),
  assessment: z.string().trim().max(4000).default(''),
  recommendation: z.string().trim().max(4000).default(''),
};
export const ZHandoffDraft = z.object({
  plan: z.uuid(),
  shift: ZShift,
  situation: z.string(),
  background: z.string(),
  assessment: z.string(),
  recommendation: z.string(),
  changes: z.array(ZHandoffChange),
  /** The handoff already written for this patient and shift, if any. */
  existing: z.uuid().nullable(),
});
export type THandoffDraft = z.infer<typeof ZHandoffDraft>;
export const ZHandoffCreate = z
  .object({
    plan: z.uuid(),
    ...ZSbar,
    situation: text(4000),
  })
  .strict();
export type THandoffCreate = z.input<typeof ZHandoffCreate>;
export const ZHandoffAcknowledge = z.object({ note: z.string().trim().max(1000).nullish() }).strict();
export const ZHandoff = z.object({
  id: z.uuid(),
  plan: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  place: ZBedPlace.nullable(),
  shift: ZShift,
  situation: z.string(),
  background: z.string(),
  assessment: z.string(),
  recommendation: z.string(),
  changes: z.array(ZHandoffChange),
  author: ZPersonRef,
  written_at: zDateTime,
  acknowledged_by: ZPersonRef.nullable(),
  acknowledged_at: zDateTime.nullable(),
  acknowledge_note: z.string().nullable(),
  can: z.object({ acknowledge: z.boolean() }),
});
export type THandoff = z.infer<typeof ZHandoff>;
/** A line of the handoffs tab: a handoff, or (to give) a patient whose handoff is not written yet. */
export const ZHandoffListItem = z.object({
  plan: z.uuid(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  place: ZBedPlace.nullable(),
  handoff: ZHandoff.nullable(),
});
export const ZHandoffList = zPage(ZHandoffListItem).extend({ shift: ZShift });
export const ZHandoffQuery = ZPageQuery.extend({
  /**
   * `to_give`: the caller's patients without a handoff for the current shift; `to_acknowledge`: handoffs of the
   * previous shift not yet acknowledged, not written by the caller; `unacknowledged`: every unacknowledged one of
   * the caller's departments (the charge nurse's view); `all`: written in the current or previous shift.
   */
  box: z.enum(['to_give', 'to_acknowledge', 'unacknowledged', 'all']).default('to_give'),
  department: z.uuid().optional(),
  ward: z.uuid().optional(),
});

/** A nurse a department's task may be given to (`GET /api/care/nurses/?department=`). */
export const ZCareNurse = z.object({
  id: z.uuid(),
  full_name: z.string(),
  /** NURSE or CHARGE_NURSE. */
  role_code: z.string(),
  /** Her department there; null: every department of the hospital. */
  department: z.uuid().nullable(),
});
export type TCareNurse = z.infer<typeof ZCareNurse>;
export const ZCareNurseQuery = ZPageQuery.extend({ department: z.uuid() });
export const ZCareNurseList = zPage(ZCareNurse);
