/**
 * Exams (DESIGN §5 item 6, issue 7): the order's status machine, who may act on an order (docs/decisions/
 * 0007-exam-roles.md), the result fields of the catalogue, the flag of a value against its reference range for
 * the patient's sex and age, and the validation of entered values. Pure: the server decides with these
 * functions, the web app previews with the same ones.
 */
import type { DashboardGroup } from './roles.js';

export const EXAM_STATUSES = ['requested', 'in_progress', 'completed', 'validated', 'cancelled'] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];

export const EXAM_KINDS = ['lab', 'imaging'] as const;
export type ExamKind = (typeof EXAM_KINDS)[number];

export const EXAM_URGENCIES = ['routine', 'urgent'] as const;
export type ExamUrgency = (typeof EXAM_URGENCIES)[number];

/** Department kind that performs each kind of exam. */
export const PERFORMING_DEPARTMENT_KIND: Readonly<Record<ExamKind, 'laboratory' | 'imaging'>> = {
  lab: 'laboratory',
  imaging: 'imaging',
};

/**
 * `requested → in_progress → completed → validated`, or `cancelled` (with a reason) before the results.
 * `completed → completed`: results may be corrected (re-entered) until they are validated.
 */
export const EXAM_TRANSITIONS: Readonly<Record<ExamStatus, readonly ExamStatus[]>> = {
  requested: ['in_progress', 'cancelled'],
  in_progress: ['completed', 'cancelled'],
  completed: ['completed', 'validated'],
  validated: [],
  cancelled: [],
};

/** Orders still waiting for the laboratory or imaging (the worklist's "to do"). */
export const OPEN_EXAM_STATUSES: readonly ExamStatus[] = ['requested', 'in_progress'];

export function canMoveExam(from: ExamStatus, to: ExamStatus): boolean {
  return EXAM_TRANSITIONS[from].includes(to);
}

/** The actions taken on an existing order (ordering is `exam.order` in permissions). */
export type ExamAction = 'start' | 'results' | 'validate' | 'cancel' | 'acknowledge';
export const EXAM_ACTIONS: readonly ExamAction[] = ['start', 'results', 'validate', 'cancel', 'acknowledge'];

/** The status each action leads to (acknowledge leaves a validated order validated). */
export const EXAM_ACTION_TARGET: Readonly<Record<ExamAction, ExamStatus>> = {
  start: 'in_progress',
  results: 'completed',
  validate: 'validated',
  cancel: 'cancelled',
  acknowledge: 'validated',
};

/** Whether the order's status allows the action (otherwise the server answers 409). */
export function examActionLegal(status: ExamStatus, action: ExamAction): boolean {
  if (action === 'acknowledge') return status === 'validated';
  return canMoveExam(status, EXAM_ACTION_TARGET[action]);
}

/** One membership of the user in the current hospital: its department (if any) and its role group. */
export interface ExamActorMembership {
  readonly departmentId: string | null;
  readonly group: DashboardGroup;
}

export interface ExamActor {
  readonly id: string;
  readonly memberships: readonly ExamActorMembership[];
}

export interface ExamOrderFacts {
  readonly status: ExamStatus;
  readonly requestedBy: string;
  /** The performing department (the hospital's laboratory or imaging department). */
  readonly departmentId: string | null;
}

const PERFORMERS: readonly DashboardGroup[] = ['nurse', 'doctor', 'head_doctor'];
const VALIDATORS: readonly DashboardGroup[] = ['doctor', 'head_doctor'];

const isHeadDoctor = (actor: ExamActor) => actor.memberships.some((m) => m.group === 'head_doctor');

function memberOf(actor: ExamActor, departmentId: string | null, groups: readonly DashboardGroup[]) {
  return (
    departmentId !== null &&
    actor.memberships.some((m) => m.departmentId === departmentId && groups.includes(m.group))
  );
}

/**
 * Whether the user's roles and departments let them take the action on this order (otherwise 403):
 * - start, results: nurses, doctors and head doctors of the performing department, and head doctors;
 * - validate: doctors and head doctors of the performing department, and head doctors;
 * - cancel: the requester or a head doctor (requested or in progress), the performing department while the
 *   order is still requested;
 * - acknowledge: the requester.
 * Whether the status allows it is `examActionLegal` (409).
 */
export function examActionPermitted(actor: ExamActor, order: ExamOrderFacts, action: ExamAction): boolean {
  switch (action) {
    case 'start':
    case 'results':
      return isHeadDoctor(actor) || memberOf(actor, order.departmentId, PERFORMERS);
    case 'validate':
      return isHeadDoctor(actor) || memberOf(actor, order.departmentId, VALIDATORS);
    case 'cancel':
      if (order.requestedBy === actor.id || isHeadDoctor(actor)) return true;
      return order.status === 'requested' && memberOf(actor, order.departmentId, PERFORMERS);
    case 'acknowledge':
      return order.requestedBy === actor.id;
  }
}

/** The actions the user may take on the order now (permitted and legal): the web shows these buttons. */
export function availableExamActions(actor: ExamActor, order: ExamOrderFacts): ExamAction[] {
  return EXAM_ACTIONS.filter(
    (action) => examActionLegal(order.status, action) && examActionPermitted(actor, order, action),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Result fields, reference ranges and flags

export interface ExamFieldChoice {
  value: string;
  label_fr: string;
  label_en: string;
  /** A choice that is abnormal in itself (e.g. a positive malaria test). */
  abnormal?: boolean;
}

/**
 * A reference range; the first range whose sex and age match the patient applies. Ages are whole years
 * completed at the sampling date, bounds included (`age_min: 1, age_max: 4` = from 1 to 4 years).
 */
export interface ExamReferenceRange {
  sex?: 'F' | 'M';
  age_min?: number;
  age_max?: number;
  low?: number;
  high?: number;
}

/** One result field of a catalogue exam. */
export interface ExamField {
  key: string;
  label_fr: string;
  label_en: string;
  type: 'number' | 'text' | 'choice';
  unit?: string | null;
  choices?: ExamFieldChoice[];
  ranges?: ExamReferenceRange[];
  /** For numbers: the plausible bounds (a value outside is a typing error, refused). */
  min?: number;
  max?: number;
  /** For numbers: decimals shown and accepted (default 2). */
  decimals?: number;
  /** The field may stay empty when the results are entered (e.g. a differential count not done). */
  optional?: boolean;
  /** The LOINC code of this analyte in this unit, when it is certain (FHIR Observation.code; issue 39). */
  loinc?: string;
}

export type ExamFlag = 'low' | 'high' | 'abnormal' | null;
export type ExamValue = number | string | null;

export interface ExamResultEntry {
  value: ExamValue;
  flag: ExamFlag;
}

export interface ExamPatientFacts {
  sex: 'F' | 'M';
  /** Whole years at the sampling date, or null when the birth date is unknown. */
  age: number | null;
}

/** Default plausible bounds of a number without its own. */
export const DEFAULT_NUMBER_BOUNDS = { min: 0, max: 1_000_000 } as const;
export const RESULT_TEXT_MAX = 2000;
export const REPORT_MAX = 20_000;

/**
 * Whole years completed between a `YYYY-MM-DD` birth date and a date (the sampling date), or null when the
 * birth date is unknown. Never negative.
 */
export function ageInYears(birthDate: string | null | undefined, at: Date | string): number | null {
  if (!birthDate) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const when = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(when.getTime())) return null;
  let age = when.getUTCFullYear() - y;
  const month = when.getUTCMonth() + 1;
  if (month < mo || (month === mo && when.getUTCDate() < d)) age -= 1;
  return Math.max(0, age);
}

/** The range that applies to the patient (first match), or null. */
export function referenceRange(field: ExamField, patient: ExamPatientFacts): ExamReferenceRange | null {
  for (const range of field.ranges ?? []) {
    if (range.sex && range.sex !== patient.sex) continue;
    if (range.age_min !== undefined || range.age_max !== undefined) {
      if (patient.age === null) continue;
      if (range.age_min !== undefined && patient.age < range.age_min) continue;
      if (range.age_max !== undefined && patient.age > range.age_max) continue;
    }
    return range;
  }
  return null;
}

/**
 * The reference of a quantity that is normally absent (a parasite density, Hb S): at most 0, with no lower bound
 * or 0. Language-neutral like the rest of `referenceText`; the clients show it as a word ("absente", "absent")
 * rather than `≤ 0`.
 */
export const REFERENCE_ABSENT = 'absent';

/** The reference range as shown beside a value: `12 – 16`, `≤ 5`, `≥ 60`, `REFERENCE_ABSENT`, or null. */
export function referenceText(range: ExamReferenceRange | null): string | null {
  if (!range) return null;
  const hasLow = typeof range.low === 'number';
  const hasHigh = typeof range.high === 'number';
  if (range.high === 0 && (!hasLow || range.low === 0)) return REFERENCE_ABSENT;
  if (hasLow && hasHigh) return `${range.low} – ${range.high}`;
  if (hasHigh) return `≤ ${range.high}`;
  if (hasLow) return `≥ ${range.low}`;
  return null;
}

/**
 * The flag of a value: `low`/`high` against the patient's reference range for numbers, `abnormal` for a choice
 * marked abnormal, null otherwise (normal, no range, text, empty).
 */
export function flagOf(field: ExamField, value: ExamValue, patient: ExamPatientFacts): ExamFlag {
  if (value === null || value === '') return null;
  if (field.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    const range = referenceRange(field, patient);
    if (!range) return null;
    if (typeof range.low === 'number' && value < range.low) return 'low';
    if (typeof range.high === 'number' && value > range.high) return 'high';
    return null;
  }
  if (field.type === 'choice') {
    return field.choices?.find((c) => c.value === value)?.abnormal ? 'abnormal' : null;
  }
  return null;
}

/** A problem with one entered value (or the report); `code` is a message key suffix, `params` fill it. */
export interface ExamValueIssue {
  /** `results.<key>` or `report`. */
  path: string;
  code:
    | 'field_unknown'
    | 'value_required'
    | 'value_not_number'
    | 'value_out_of_bounds'
    | 'value_too_precise'
    | 'choice_invalid'
    | 'value_invalid'
    | 'text_too_long'
    | 'report_required'
    | 'results_required';
  params?: Record<string, string | number>;
}

function decimalsOf(n: number): number {
  const s = String(n);
  if (s.includes('e')) return 0;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/**
 * Checks entered values against the exam's fields: unknown keys refused, numbers numeric and within the
 * plausible bounds, choices from the list, texts not too long, every non-optional field present. Imaging
 * exams (`kind: 'imaging'`) need the report; an exam with neither fields nor a report to give is refused.
 * Returns the clean values (empty strings as null) and the issues, empty when valid.
 */
export function validateExamValues(
  kind: ExamKind,
  fields: readonly ExamField[],
  input: Readonly<Record<string, unknown>>,
  report: string | null | undefined,
): { values: Record<string, ExamValue>; issues: ExamValueIssue[] } {
  const issues: ExamValueIssue[] = [];
  const values: Record<string, ExamValue> = {};
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const key of Object.keys(input)) {
    if (!byKey.has(key)) issues.push({ path: `results.${key}`, code: 'field_unknown' });
  }
  for (const field of fields) {
    const path = `results.${field.key}`;
    const raw = input[field.key];
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
      values[field.key] = null;
      if (!field.optional) issues.push({ path, code: 'value_required' });
      continue;
    }
    if (field.type === 'number') {
      // JSON numbers only: the web reads what was typed (`12,5`) with parseClinicalNumber (clinical-number.ts).
      const n = typeof raw === 'number' ? raw : null;
      if (n === null || !Number.isFinite(n)) {
        issues.push({ path, code: 'value_not_number' });
        continue;
      }
      const min = field.min ?? DEFAULT_NUMBER_BOUNDS.min;
      const max = field.max ?? DEFAULT_NUMBER_BOUNDS.max;
      if (n < min || n > max) {
        issues.push({ path, code: 'value_out_of_bounds', params: { min, max } });
        continue;
      }
      const decimals = field.decimals ?? 2;
      if (decimalsOf(n) > decimals) {
        issues.push({ path, code: 'value_too_precise', params: { decimals } });
        continue;
      }
      values[field.key] = n;
    } else if (field.type === 'choice') {
      if (typeof raw !== 'string' || !field.choices?.some((c) => c.value === raw)) {
        issues.push({ path, code: 'choice_invalid' });
        continue;
      }
      values[field.key] = raw;
    } else {
      if (typeof raw !== 'string') {
        issues.push({ path, code: 'value_invalid' });
        continue;
      }
      const text = raw.trim();
      if (text.length > RESULT_TEXT_MAX) {
        issues.push({ path, code: 'text_too_long', params: { max: RESULT_TEXT_MAX } });
        continue;
      }
      values[field.key] = text;
    }
  }
  const reportText = report?.trim() ?? '';
  if (reportText.length > REPORT_MAX) {
    issues.push({ path: 'report', code: 'text_too_long', params: { max: REPORT_MAX } });
  } else if (kind === 'imaging' && reportText.length === 0) {
    issues.push({ path: 'report', code: 'report_required' });
  }
  if (kind === 'lab' && fields.length === 0 && reportText.length === 0) {
    issues.push({ path: 'report', code: 'results_required' });
  }
  return { values, issues };
}

/** The stored results (value and flag per field) and whether any is abnormal. */
export function computeExamResults(
  fields: readonly ExamField[],
  values: Readonly<Record<string, ExamValue>>,
  patient: ExamPatientFacts,
): { results: Record<string, ExamResultEntry>; abnormal: boolean } {
  const results: Record<string, ExamResultEntry> = {};
  let abnormal = false;
  for (const field of fields) {
    const value = values[field.key] ?? null;
    const flag = flagOf(field, value, patient);
    if (flag) abnormal = true;
    results[field.key] = { value, flag };
  }
  return { results, abnormal };
}

/** One line of a result as lists and summaries show it. */
export interface ExamResultLine {
  key: string;
  label_fr: string;
  label_en: string;
  unit: string | null;
  value: ExamValue;
  /** The choice's labels for a choice field. */
  value_label_fr: string | null;
  value_label_en: string | null;
  flag: ExamFlag;
  /** The patient's reference range (`12 – 16`, or `REFERENCE_ABSENT`), when there is one. */
  reference: string | null;
}

/** The entered results in the catalogue's field order, with labels, units and reference ranges. */
export function examResultLines(
  fields: readonly ExamField[],
  results: Readonly<Record<string, ExamResultEntry>> | null | undefined,
  patient: ExamPatientFacts,
): ExamResultLine[] {
  if (!results) return [];
  const lines: ExamResultLine[] = [];
  for (const field of fields) {
    const entry = results[field.key];
    if (!entry || entry.value === null || entry.value === '') continue;
    const choice = field.type === 'choice' ? field.choices?.find((c) => c.value === entry.value) : undefined;
    lines.push({
      key: field.key,
      label_fr: field.label_fr,
      label_en: field.label_en,
      unit: field.unit ?? null,
      value: entry.value,
      value_label_fr: choice?.label_fr ?? null,
      value_label_en: choice?.label_en ?? null,
      flag: entry.flag,
      reference: field.type === 'number' ? referenceText(referenceRange(field, patient)) : null,
    });
  }
  return lines;
}
