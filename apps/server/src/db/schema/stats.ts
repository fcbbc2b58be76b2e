/**
 * The reporting summaries (issue 24, docs/decisions/0038-reporting-summaries.md): derived rows per hospital ×
 * department × day (`grain` 'd') and per hospital × department × calendar month (`grain` 'm', `day` = the
 * month's first day, the sum of its day rows). Days are the hospital's calendar days. Every row is rebuilt
 * from the raw tables by `modules/stats/summaries.repository.ts` when a trigger has marked its day in
 * `stats_dirty_days`; nothing else writes them. No foreign keys: they are a cache of the raw tables, emptied
 * and rebuilt at will.
 */
import {
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** The days (in the hospital's zone) whose summary rows no longer agree with the raw tables. */
export const statsDirtyDays = pgTable(
  'stats_dirty_days',
  {
    hospitalId: uuid('hospital_id').notNull(),
    day: date('day').notNull(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.day] })],
);

/** The columns every summary table starts with, and its one index (a hospital's rows of a grain and days). */
const keyColumns = () => ({
  hospitalId: uuid('hospital_id').notNull(),
  departmentId: uuid('department_id'),
  grain: text('grain').notNull(),
  day: date('day').notNull(),
});

/** Visits (non-cancelled admissions) by admission type; `new_visits`: the patient's first in the hospital. */
export const statsDailyVisits = pgTable(
  'stats_daily_visits',
  {
    ...keyColumns(),
    admissionType: text('admission_type').notNull(),
    visits: integer('visits').notNull(),
    newVisits: integer('new_visits').notNull(),
  },
  (t) => [index('stats_daily_visits_idx').on(t.hospitalId, t.grain, t.day)],
);

/** Visits by the patient's age group at the visit (pyramid groups) and sex. */
export const statsDailyPyramid = pgTable(
  'stats_daily_pyramid',
  {
    ...keyColumns(),
    ageGroup: text('age_group').notNull(),
    sex: text('sex').notNull(),
    visits: integer('visits').notNull(),
  },
  (t) => [index('stats_daily_pyramid_idx').on(t.hospitalId, t.grain, t.day)],
);

/** Consultations (not cancelled) by doctor, and the completed ones. */
export const statsDailyDoctors = pgTable(
  'stats_daily_doctors',
  {
    ...keyColumns(),
    doctorId: uuid('doctor_id').notNull(),
    consultations: integer('consultations').notNull(),
    completed: integer('completed').notNull(),
  },
  (t) => [index('stats_daily_doctors_idx').on(t.hospitalId, t.grain, t.day)],
);

/** The flow of the visits of the day by triage level: counts, and sums of minutes for the averages. */
export const statsDailyFlow = pgTable(
  'stats_daily_flow',
  {
    ...keyColumns(),
    level: text('level'),
    rank: integer('rank'),
    target: integer('target'),
    visits: integer('visits').notNull(),
    seen: integer('seen').notNull(),
    withinTarget: integer('within_target').notNull(),
    triageN: integer('triage_n').notNull(),
    triageSum: doublePrecision('triage_sum').notNull(),
    doctorN: integer('doctor_n').notNull(),
    doctorSum: doublePrecision('doctor_sum').notNull(),
    endN: integer('end_n').notNull(),
    endSum: doublePrecision('end_sum').notNull(),
  },
  (t) => [index('stats_daily_flow_idx').on(t.hospitalId, t.grain, t.day)],
);

/** The waits' histogram (for the medians): visits by level, measure and bucket (minutes, lower bound). */
export const statsDailyWaits = pgTable(
  'stats_daily_waits',
  {
    ...keyColumns(),
    level: text('level'),
    measure: text('measure').notNull(),
    bucket: integer('bucket').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [index('stats_daily_waits_idx').on(t.hospitalId, t.grain, t.day)],
);

/**
 * Consultations counted once per `kind` ('code': an ICD-10 code, 'chapter', 'idsr': a notifiable disease) ×
 * `key` × `age_group` (the IDSR age group for 'idsr', '' otherwise).
 */
export const statsDailyDiagnoses = pgTable(
  'stats_daily_diagnoses',
  {
    ...keyColumns(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    ageGroup: text('age_group').notNull(),
    consultations: integer('consultations').notNull(),
  },
  (t) => [index('stats_daily_diagnoses_idx').on(t.hospitalId, t.grain, t.day, t.kind)],
);

/** Exam orders by catalogue entry (day of the request): states, turnaround sums, positive validated ones. */
export const statsDailyExams = pgTable(
  'stats_daily_exams',
  {
    ...keyColumns(),
    examId: uuid('exam_id').notNull(),
    requested: integer('requested').notNull(),
    validated: integer('validated').notNull(),
    cancelled: integer('cancelled').notNull(),
    positive: integer('positive').notNull(),
    turnaroundSum: doublePrecision('turnaround_sum').notNull(),
  },
  (t) => [index('stats_daily_exams_idx').on(t.hospitalId, t.grain, t.day)],
);

/** Stock movements by pharmacy (`department_id`) and presentation: units dispensed, received, written off. */
export const statsDailyPharmacy = pgTable(
  'stats_daily_pharmacy',
  {
    ...keyColumns(),
    presentationId: uuid('presentation_id').notNull(),
    dispensed: integer('dispensed').notNull(),
    dispensings: integer('dispensings').notNull(),
    received: integer('received').notNull(),
    writtenOff: integer('written_off').notNull(),
  },
  (t) => [index('stats_daily_pharmacy_idx').on(t.hospitalId, t.grain, t.day)],
);
