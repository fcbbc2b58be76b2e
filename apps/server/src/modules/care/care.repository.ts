import type {
  TCareExecution,
  TCarePatient,
  TDoseRecord,
  TFluid,
  TNews2,
  TNews2Summary,
  TVitalsRecord,
} from '@greensen/shared/contracts/care';
import { CARE_PRIORITIES } from '@greensen/shared/contracts/care';
import { isLate } from '@greensen/shared/domain/care';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  fullName,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  type RefRow,
} from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';

/** Emergency visits still in the department (a care plan may be opened for them: observation). */
export const OPEN_VISIT = sql.raw(`('waiting', 'assigned', 'in_consultation')`);
export const OPEN_STAY = sql.raw(`('pending_bed', 'admitted')`);

/**
 * The caller may see the patients of department `dept`: an active membership of it, or one without department
 * (the whole hospital).
 */
export function inScope(hospitalId: string, userId: string, dept: SQL): SQL {
  return sql`exists (select 1 from memberships m where m.hospital_id = ${hospitalId} and m.user_id = ${userId}
    and m.is_active and (m.department_id is null or m.department_id = ${dept}))`;
}

/**
 * What every plan row reads (alias `cp`): the patient, the department of the stay or visit, the bed, the
 * doctor in charge (the stay's, or the visit's open consultation execution's), since when, open or not, and
 * the latest vitals' NEWS2.
 */
/** From a plan `cp`: its stay or visit, department and bed (what the scope filters read). */
export const PLAN_PLACE_JOINS = sql`left join hospitalizations s on s.id = cp.hospitalization_id
  left join admissions a on a.id = cp.admission_id
  join departments d on d.id = coalesce(s.department_id, a.department_id)
  left join beds b on b.id = s.bed_id
  left join rooms r on r.id = b.room_id
  left join wards w on w.id = r.ward_id`;

/** A bed place's columns (aliases `b`, `r`, `w`). */
export const PLACE_COLUMNS = sql`b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name, w.id as w_id,
  w.code as w_code, w.name as w_name`;

/** From a plan `cp`: its patient, stay or visit, department and bed. */
export const PLAN_JOINS = sql`join patients p on p.id = cp.patient_id ${PLAN_PLACE_JOINS}`;

export const PLAN_FROM = sql`from care_plans cp ${PLAN_JOINS}
  left join lateral (select e.doctor_id from executions e where e.admission_id = a.id
    order by e.created_at desc limit 1) ve on true
  left join users doc on doc.id = coalesce(s.doctor_id, ve.doctor_id)`;

/** The plan `cp` is open: its stay `s` is open, or (a plan of a visit) its visit `a` is still in the department. */
export const PLAN_IS_OPEN = sql`(case when s.id is not null then s.status in ${OPEN_STAY} else a.status in ${OPEN_VISIT} end)`;

export const PLAN_COLUMNS = sql`cp.id as plan_id, cp.hospital_id, cp.hospitalization_id, cp.admission_id,
  cp.hypercapnic, cp.goals, cp.created_at, cp.created_by, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
  ${PLACE_COLUMNS}, doc.id as doc_id, doc.first_name as doc_first, doc.last_name as doc_last,
  coalesce(s.requested_at, a.admitted_at) as since,
  ${PLAN_IS_OPEN} as is_open`;

export type PlanRow = RefRow &
  PlaceRow & {
    plan_id: string;
    hospital_id: string;
    hospitalization_id: string | null;
    admission_id: string | null;
    hypercapnic: boolean;
    goals: string | null;
    created_at: Date | string;
    created_by: string;
    doc_id: string | null;
    doc_first: string | null;
    doc_last: string | null;
    since: Date | string;
    is_open: boolean;
  };

export function placeOf(r: PlaceRow) {
  if (!r.b_id || !r.r_id || !r.w_id) return null;
  return {
    bed: { id: r.b_id, label: r.b_label ?? '' },
    room: { id: r.r_id, name: r.r_name ?? '' },
    ward: { id: r.w_id, code: r.w_code ?? '', name: r.w_name ?? '' },
  };
}

export const personOf = (
  id: string | null,
  first: string | null | undefined,
  last: string | null | undefined,
) => (id ? { id, full_name: fullName(first, last) } : null);

/** A plan's row by id in the hospital (null: none, or another hospital's). */
export async function findPlan(q: Queryable, hospitalId: string, planId: string): Promise<PlanRow | null> {
  const res = await q.execute<PlanRow>(
    sql`select ${PLAN_COLUMNS} ${PLAN_FROM} where cp.id = ${planId} and cp.hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** The plan of the hospital whose id, stay id or visit id is `id` (null: none). */
export async function planIdFor(q: Queryable, hospitalId: string, id: string): Promise<string | null> {
  const res = await q.execute<{ id: string }>(sql`select cp.id from care_plans cp
    where cp.hospital_id = ${hospitalId}
      and (cp.id = ${id} or cp.hospitalization_id = ${id} or cp.admission_id = ${id})
    order by (cp.id = ${id}) desc limit 1`);
  return res.rows[0]?.id ?? null;
}

export interface Counts {
  overdue: number;
  due: number;
}

/**
 * The open executions of plans: overdue (past time + grace) and due in `[now, shiftEnd)`. One query for a page of
 * plans (doses are counted by the MAR code; the latest NEWS2 is the patient's series', vital-signs.repository).
 */
export async function planCounts(
  q: Queryable,
  planIds: readonly string[],
  now: Date,
  shiftEnd: Date,
  graceMinutes: number,
): Promise<Map<string, Counts>> {
  const out = new Map<string, Counts>();
  if (planIds.length === 0) return out;
  const limit = new Date(now.getTime() - graceMinutes * 60_000);
  const res = await q.execute<{ plan_id: string; overdue: number; due: number }>(sql`select x.id as plan_id,
      (select count(*)::int from care_executions e where e.plan_id = x.id and e.status = 'scheduled'
        and e.scheduled_at < ${limit.toISOString()}) as overdue,
      (select count(*)::int from care_executions e where e.plan_id = x.id and e.status = 'scheduled'
        and e.scheduled_at >= ${limit.toISOString()} and e.scheduled_at < ${shiftEnd.toISOString()}) as due
    from care_plans x where x.id in (${sqlList(planIds)})`);
  for (const r of res.rows) out.set(r.plan_id, { overdue: Number(r.overdue), due: Number(r.due) });
  return out;
}

export function parseJson<T>(v: unknown): T | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return JSON.parse(v) as T;
  return v as T;
}

export function carePatientOf(
  r: PlanRow & { plan_id: string | null },
  counts: Counts | undefined,
  news2: TNews2Summary | null,
): TCarePatient {
  return {
    plan: r.plan_id,
    hospitalization: r.hospitalization_id,
    admission: r.admission_id,
    patient: patientRef(r),
    department: departmentRef(r),
    place: placeOf(r),
    doctor: personOf(r.doc_id, r.doc_first, r.doc_last),
    since: isoRequired(r.since),
    hypercapnic: Boolean(r.hypercapnic),
    news2,
    overdue: counts?.overdue ?? 0,
    due: counts?.due ?? 0,
  };
}

// Executions ---------------------------------------------------------------------------------------------------

/** An execution's own columns (alias `e`): its order, assignee and who did it; see EXECUTION_FROM. */
export const EXECUTION_COLUMNS = sql`e.id, e.plan_id, e.scheduled_at, e.priority, e.status, e.done_at,
    e.not_done_reason, e.note, e.recorded_at,
    o.id as o_id, o.kind as o_kind, o.title as o_title, o.instructions as o_instructions,
    array_to_json(o.signs) as o_signs,
    asg.id as asg_id, asg.first_name as asg_first, asg.last_name as asg_last,
    dn.id as dn_id, dn.first_name as dn_first, dn.last_name as dn_last`;
export const EXECUTION_FROM = sql`from care_executions e
  join care_orders o on o.id = e.order_id
  left join users asg on asg.id = e.assignee_id
  left join users dn on dn.id = e.done_by`;

/** Executions with their plan's patient, department and place. */
export const EXECUTION_SELECT = sql`select ${EXECUTION_COLUMNS},
    ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}, ${PLACE_COLUMNS}
  ${EXECUTION_FROM}
  join care_plans cp on cp.id = e.plan_id ${PLAN_JOINS}`;

export type PlaceRow = {
  b_id: string | null;
  b_label: string | null;
  r_id: string | null;
  r_name: string | null;
  w_id: string | null;
  w_code: string | null;
  w_name: string | null;
};

/** What EXECUTION_COLUMNS read. */
export type ExecutionOwnRow = {
  id: string;
  plan_id: string;
  scheduled_at: Date | string;
  priority: number;
  status: TCareExecution['status'];
  done_at: Date | string | null;
  not_done_reason: string | null;
  note: string | null;
  recorded_at: Date | string | null;
  o_id: string;
  o_kind: TCareExecution['order']['kind'];
  o_title: string;
  o_instructions: string | null;
  o_signs: string[] | string | null;
  asg_id: string | null;
  asg_first: string | null;
  asg_last: string | null;
  dn_id: string | null;
  dn_first: string | null;
  dn_last: string | null;
};

export type ExecutionRow = RefRow & ExecutionOwnRow & PlaceRow;

/** `ref`: where the patient, department and place are read from (the row itself unless they come apart). */
export function toExecution(
  r: ExecutionOwnRow,
  now: Date,
  ref: RefRow & PlaceRow = r as ExecutionRow,
): TCareExecution {
  const scheduled = new Date(r.scheduled_at);
  const doneAt = r.done_at ? new Date(r.done_at) : null;
  const signs = parseJson<string[]>(r.o_signs) ?? [];
  return {
    id: r.id,
    plan: r.plan_id,
    order: {
      id: r.o_id,
      kind: r.o_kind,
      title: r.o_title,
      instructions: r.o_instructions,
      signs: signs as TCareExecution['order']['signs'],
    },
    patient: patientRef(ref),
    department: departmentRef(ref),
    place: placeOf(ref),
    priority: CARE_PRIORITIES[Number(r.priority) - 1] ?? 'normal',
    scheduled_at: scheduled.toISOString(),
    status: r.status,
    late:
      (r.status === 'scheduled' && isLate(scheduled, null, now)) ||
      (r.status === 'done' && doneAt !== null && isLate(scheduled, doneAt, now)),
    assignee: personOf(r.asg_id, r.asg_first, r.asg_last),
    done_by: personOf(r.dn_id, r.dn_first, r.dn_last),
    done_at: iso(r.done_at),
    not_done_reason: r.not_done_reason as TCareExecution['not_done_reason'],
    note: r.note,
    recorded_at: iso(r.recorded_at),
  };
}

export async function findExecution(
  q: Queryable,
  hospitalId: string,
  id: string,
  now: Date,
): Promise<TCareExecution | null> {
  const res = await q.execute<ExecutionRow>(
    sql`${EXECUTION_SELECT} where e.id = ${id} and e.hospital_id = ${hospitalId}`,
  );
  const row = res.rows[0];
  return row ? toExecution(row, now) : null;
}

/**
 * An execution done or not done: who, when it was really done (`doneAt`), when the server received it
 * (`recorded_at`) and the client's key of the record (issue 40, `care_executions_record_key_uq`).
 */
export async function recordExecution(
  q: Queryable,
  id: string,
  r: {
    status: 'done' | 'not_done';
    by: string;
    doneAt?: Date;
    reason?: string;
    note: string | null;
    key: string | null;
    now: Date;
  },
) {
  await q.execute(sql`update care_executions set status = ${r.status}, done_by = ${r.by},
    done_at = ${r.doneAt?.toISOString() ?? null}, not_done_reason = ${r.reason ?? null}, note = ${r.note},
    record_key = ${r.key}, recorded_at = ${r.now.toISOString()}, updated_at = ${r.now.toISOString()}
    where id = ${id}`);
}

// Vitals, fluids, doses -----------------------------------------------------------------------------------------

/**
 * The sets of vitals already kept under the client's keys (issue 40: a round queued offline is sent again until
 * answered): key → the set's id and plan. Uses `care_vitals_key_uq`.
 */
export async function vitalsByKeys(
  q: Queryable,
  hospitalId: string,
  keys: readonly string[],
): Promise<Map<string, { id: string; plan_id: string }>> {
  if (keys.length === 0) return new Map();
  const res = await q.execute<{ id: string; plan_id: string; idempotency_key: string }>(
    sql`select id, plan_id, idempotency_key from care_vitals
      where hospital_id = ${hospitalId} and idempotency_key in (${sqlList(keys)})`,
  );
  return new Map(res.rows.map((r) => [r.idempotency_key, { id: r.id, plan_id: r.plan_id }]));
}

/** The sets of `ids`, in no particular order. */
export async function vitalsByIds(q: Queryable, ids: readonly string[]): Promise<TVitalsRecord[]> {
  if (ids.length === 0) return [];
  const res = await q.execute<VitalsRow>(sql`${VITALS_SELECT} where v.id in (${sqlList(ids)})`);
  return res.rows.map(toVitals);
}

export const VITALS_SELECT = sql`select v.*, u.first_name as u_first, u.last_name as u_last,
    (select coalesce(json_agg(json_build_object('id', x.id, 'full_name', trim(x.first_name || ' ' || x.last_name))),
      '[]'::json) from users x where x.id = any(v.escalated_to)) as escalated
  from care_vitals v join users u on u.id = v.recorded_by`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A numeric column: a number, or its text (PostgreSQL's `numeric`). */
type Numeric = number | string | null;

/** What VITALS_SELECT reads: a ward set, who recorded it and whom it was escalated to. */
export type VitalsRow = {
  id: string;
  plan_id: string;
  patient_id: string;
  recorded_at: Date | string;
  recorded_by: string;
  u_first: string;
  u_last: string;
  temperature: Numeric;
  heart_rate: Numeric;
  respiratory_rate: Numeric;
  systolic_bp: Numeric;
  diastolic_bp: Numeric;
  spo2: Numeric;
  on_oxygen: boolean | null;
  oxygen_flow: Numeric;
  avpu: TVitalsRecord['avpu'] | null;
  confused: boolean | null;
  pain: Numeric;
  weight: Numeric;
  height: Numeric;
  glycaemia: Numeric;
  note: string | null;
  news2: TNews2 | string | null;
  escalated: { id: string; full_name: string }[] | string | null;
};

export function toVitals(r: VitalsRow): TVitalsRecord {
  return {
    id: r.id,
    source: 'ward',
    plan: r.plan_id,
    patient: r.patient_id,
    recorded_at: isoRequired(r.recorded_at),
    recorded_by: {
      id: r.recorded_by,
      full_name: fullName(r.u_first, r.u_last),
    },
    temperature: num(r.temperature),
    heart_rate: num(r.heart_rate),
    respiratory_rate: num(r.respiratory_rate),
    systolic_bp: num(r.systolic_bp),
    diastolic_bp: num(r.diastolic_bp),
    spo2: num(r.spo2),
    on_oxygen: Boolean(r.on_oxygen),
    oxygen_flow: num(r.oxygen_flow),
    avpu: r.avpu ?? null,
    confused: r.confused ?? null,
    pain: num(r.pain),
    weight: num(r.weight),
    height: num(r.height),
    glycaemia: num(r.glycaemia),
    note: r.note ?? null,
    news2: parseJson<TNews2>(r.news2),
    escalated_to: parseJson<{ id: string; full_name: string }[]>(r.escalated) ?? [],
  };
}

/** An intake or output with who recorded it (`u_first`, `u_last`). */
export type FluidRow = {
  id: string;
  plan_id: string;
  direction: TFluid['direction'];
  kind: TFluid['kind'];
  volume_ml: number | string;
  recorded_at: Date | string;
  recorded_by: string;
  u_first: string;
  u_last: string;
  note: string | null;
};

export function toFluid(r: FluidRow): TFluid {
  return {
    id: r.id,
    plan: r.plan_id,
    direction: r.direction,
    kind: r.kind,
    volume_ml: Number(r.volume_ml),
    recorded_at: isoRequired(r.recorded_at),
    recorded_by: {
      id: r.recorded_by,
      full_name: fullName(r.u_first, r.u_last),
    },
    note: r.note ?? null,
  };
}

export const DOSE_SELECT = sql`select ma.*, u.first_name as u_first, u.last_name as u_last
  from medication_administrations ma join users u on u.id = ma.recorded_by`;

/** What DOSE_SELECT reads (or a dose record aggregated as JSON): a dose record and who recorded it. */
export type DoseRow = {
  id: string;
  hospital_id: string;
  prescription_line_id: string;
  scheduled_at: Date | string;
  outcome: TDoseRecord['outcome'];
  given_at: Date | string | null;
  dose: Numeric;
  dose_unit: string | null;
  route: TDoseRecord['route'] | null;
  site: string | null;
  reason: TDoseRecord['reason'] | null;
  note: string | null;
  late: boolean | null;
  recorded_by: string;
  u_first: string;
  u_last: string;
  recorded_at: Date | string;
};

export function toDose(r: DoseRow): TDoseRecord {
  return {
    id: r.id,
    prescription_line: r.prescription_line_id,
    scheduled_at: isoRequired(r.scheduled_at),
    outcome: r.outcome,
    given_at: iso(r.given_at),
    dose: num(r.dose),
    dose_unit: r.dose_unit ?? null,
    route: r.route ?? null,
    site: r.site ?? null,
    reason: r.reason ?? null,
    note: r.note ?? null,
    late: Boolean(r.late),
    recorded_by: {
      id: r.recorded_by,
      full_name: fullName(r.u_first, r.u_last),
    },
    recorded_at: isoRequired(r.recorded_at),
  };
}

// Recording a task, and taking it back ---------------------------------------------------------------------------

/** The kind of an execution's order (a vitals task is done by recording vitals, issue 37). */
export async function executionKind(q: Queryable, executionId: string): Promise<string | null> {
  const res = await q.execute<{ kind: string }>(sql`select o.kind from care_executions e
    join care_orders o on o.id = e.order_id where e.id = ${executionId}`);
  return res.rows[0]?.kind ?? null;
}

/** How long the one who recorded a task may take it back (issue 37). */
export const UNDO_SECONDS = 60;

/**
 * Takes back a task recorded (done or not done) by `userId` less than UNDO_SECONDS before `now`: it is to do
 * again. Conditional in one statement, so that the bound holds whatever the timing; false when it no longer may.
 */
export async function undoExecution(q: Queryable, id: string, userId: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - UNDO_SECONDS * 1000);
  const res = await q.execute<{ id: string }>(sql`update care_executions set status = 'scheduled',
      done_by = null, done_at = null, not_done_reason = null, note = null, recorded_at = null,
      record_key = null,
      updated_at = ${now.toISOString()}
    where id = ${id} and status in ('done', 'not_done') and done_by = ${userId}
      and recorded_at >= ${since.toISOString()}
    returning id`);
  return res.rows.length > 0;
}
