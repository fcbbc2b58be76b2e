import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { DEPARTMENT_REF_COLUMNS, PATIENT_REF_COLUMNS, type RefRow } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import {
  EXECUTION_COLUMNS,
  EXECUTION_FROM,
  type ExecutionOwnRow,
  PLACE_COLUMNS,
  PLAN_IS_OPEN,
  type PlaceRow,
} from './care.repository.js';
import { type LineWithRecords, linesWithRecords } from './mar.repository.js';

/** Rows aggregated as JSON: parsed by the driver, or text. */
type JsonRows<T> = T[] | string;
const jsonRows = <T>(v: JsonRows<T>): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : v);

/** An open plan of the tasks' scope: what a task shows of it. */
export type TaskPlanRow = RefRow & PlaceRow & { plan_id: string };

/** An execution of the tasks, with the number of them all and of the late ones (the same on every row). */
export type TaskExecutionRow = ExecutionOwnRow & { total: number; late: number };

/** Executions listed at most (time, then priority). */
const MAX_EXECUTIONS = 2000;
/** Plans whose doses are listed at most. */
const MAX_DOSE_PLANS = 500;

export type NurseTaskQuery = {
  hospitalId: string;
  /** The nurse's departments: all of the hospital's, or these. */
  departments: { all: boolean; ids: readonly string[] };
  department?: string | undefined;
  ward?: string | undefined;
  /** Only the executions given to this nurse or to nobody (null: all of them). */
  assignedTo: string | null;
  status: 'open' | 'all';
  /** The lookback's start: earlier work is not read. */
  from: Date;
  shift: { start: Date; end: Date };
  /** Open work scheduled before this is late. */
  lateBefore: Date;
  /** How many executions are read in full, from the first (the page's end). */
  upTo: number;
};

/**
 * A nurse's tasks, in one statement: the open plans of her departments (all of them when one membership has
 * none); their executions — the number, how many are overdue, the first `upTo` rows in full; their signed
 * prescription lines with the dose records of the window (doses are the ward's, never assigned to one nurse);
 * and what a task shows of the plans the executions and the lines belong to. Each part is its own small join
 * problem: the planning of one large join took longer than the statement's run (decision 0044). The plans
 * shown are found by two semi-joins: `in (… union …)` rescanned the union's rows for every plan.
 */
export async function nurseTasks(
  q: Queryable,
  t: NurseTaskQuery,
): Promise<{ plans: TaskPlanRow[]; executions: TaskExecutionRow[]; lines: LineWithRecords[] }> {
  const dept = sql`coalesce(s.department_id, a.department_id)`;
  const scope = t.departments.all
    ? [sql`${dept} is not null`]
    : [t.departments.ids.length > 0 ? sql`${dept} in (${sqlList(t.departments.ids)})` : sql`false`];
  if (t.department) scope.push(sql`${dept} = ${t.department}`);
  if (t.ward)
    scope.push(sql`s.bed_id in (select b.id from beds b join rooms r on r.id = b.room_id
        where r.ward_id = ${t.ward})`);
  const mine = t.assignedTo ? sql`and (e.assignee_id = ${t.assignedTo} or e.assignee_id is null)` : sql``;
  // Open work from the lookback to the shift's end (earlier shifts: only what is overdue); in `all`, also what
  // was recorded during the shift.
  const status =
    t.status === 'all'
      ? sql`and (e.status = 'scheduled' or (e.status in ('done', 'not_done') and e.scheduled_at >= ${t.shift.start.toISOString()}))`
      : sql`and e.status = 'scheduled'`;
  const late = t.lateBefore.toISOString();
  const res = await q.execute<{
    plans: JsonRows<TaskPlanRow>;
    executions: JsonRows<TaskExecutionRow>;
    lines: JsonRows<LineWithRecords>;
  }>(sql`with plans as materialized (select cp.id as plan_id, cp.patient_id, ${dept} as department_id, s.bed_id
        from care_plans cp left join hospitalizations s on s.id = cp.hospitalization_id
        left join admissions a on a.id = cp.admission_id
        where cp.hospital_id = ${t.hospitalId} and ${sql.join(scope, sql` and `)}
        and ${PLAN_IS_OPEN}),
      open as (select e.id, e.plan_id, e.scheduled_at, e.priority, e.status from care_executions e
        where e.hospital_id = ${t.hospitalId} and e.plan_id in (select plan_id from plans)
        and e.scheduled_at >= ${t.from.toISOString()} and e.scheduled_at < ${t.shift.end.toISOString()}
        and (e.scheduled_at >= ${t.shift.start.toISOString()} or e.status <> 'scheduled' or e.scheduled_at < ${late})
        ${mine} ${status}
        order by e.scheduled_at, e.priority limit ${MAX_EXECUTIONS}),
      head as materialized (select o.id, o.plan_id, count(*) over () as total,
          count(*) filter (where o.status = 'scheduled' and o.scheduled_at < ${late}) over () as late
        from open o order by o.scheduled_at, o.priority, o.id limit ${t.upTo}),
      lines as materialized (${linesWithRecords(sql`select plan_id from plans limit ${MAX_DOSE_PLANS}`, t.from, t.shift.end)})
      select (select coalesce(json_agg(pl), '[]'::json) from (select x.plan_id, ${PATIENT_REF_COLUMNS},
          ${DEPARTMENT_REF_COLUMNS}, ${PLACE_COLUMNS}
        from plans x join patients p on p.id = x.patient_id join departments d on d.id = x.department_id
        left join beds b on b.id = x.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
        where exists (select 1 from head h where h.plan_id = x.plan_id)
          or exists (select 1 from lines l where l.plan_id = x.plan_id)) pl) as plans,
        (select coalesce(json_agg(x), '[]'::json) from (select h.total, h.late, ${EXECUTION_COLUMNS}
          ${EXECUTION_FROM} join head h on h.id = e.id) x) as executions,
        (select coalesce(json_agg(y), '[]'::json) from lines y) as lines`);
  const row = res.rows[0]!;
  return { plans: jsonRows(row.plans), executions: jsonRows(row.executions), lines: jsonRows(row.lines) };
}
