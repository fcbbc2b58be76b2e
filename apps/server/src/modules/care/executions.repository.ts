import type { TCareExecution } from '@greensen/shared/contracts/care';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { EXECUTION_SELECT, type ExecutionRow, inScope, PLAN_JOINS, toExecution } from './care.repository.js';

/** Which executions a list reads: a plan's, or the ward-wide view of the departments `userId` works in. */
export type ExecutionFilter =
  | { plan: string }
  | {
      hospitalId: string;
      userId: string;
      department?: string | undefined;
      ward?: string | undefined;
      assignee?: string | undefined;
      unassigned?: boolean;
      /** Only the open ones scheduled before this instant (late). */
      lateBefore?: Date | undefined;
    };

function executionsOf(f: ExecutionFilter): SQL {
  if ('plan' in f) return sql`e.plan_id = ${f.plan}`;
  const conds = [sql`e.hospital_id = ${f.hospitalId}`, inScope(f.hospitalId, f.userId, sql`d.id`)];
  if (f.department) conds.push(sql`d.id = ${f.department}`);
  if (f.ward) conds.push(sql`w.id = ${f.ward}`);
  if (f.assignee) conds.push(sql`e.assignee_id = ${f.assignee}`);
  if (f.unassigned) conds.push(sql`e.assignee_id is null`);
  if (f.lateBefore)
    conds.push(sql`e.status = 'scheduled' and e.scheduled_at < ${f.lateBefore.toISOString()}`);
  return sql.join(conds, sql` and `);
}

/**
 * A page of executions scheduled in `[from, to)` (`open`: still scheduled; `all`; else that status), by time,
 * priority and id, and their number.
 */
export async function executionPage(
  q: Queryable,
  filter: ExecutionFilter,
  window: { from: Date; to: Date; status: string },
  limit: number,
  offset: number,
  now: Date,
): Promise<{ rows: TCareExecution[]; count: number }> {
  const status =
    window.status === 'all'
      ? sql``
      : window.status === 'open'
        ? sql`and e.status = 'scheduled'`
        : sql`and e.status = ${window.status}`;
  const full = sql`${executionsOf(filter)} and e.scheduled_at >= ${window.from.toISOString()} and e.scheduled_at < ${window.to.toISOString()} ${status}`;
  const res = await q.execute<ExecutionRow>(
    sql`${EXECUTION_SELECT} where ${full} order by e.scheduled_at, e.priority, e.id
        limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from care_executions e join care_plans cp on cp.id = e.plan_id ${PLAN_JOINS}
        where ${full}`,
  );
  return { rows: res.rows.map((r) => toExecution(r, now)), count: Number(counted.rows[0]?.n ?? 0) };
}

/** What a change of an execution reads of it, locked. */
export type LockedExecution = {
  id: string;
  plan_id: string;
  patient_id: string;
  status: TCareExecution['status'];
  assignee_id: string | null;
  scheduled_at: Date | string;
  record_key: string | null;
};

/** Locks an execution of the hospital (null: none). */
export async function lockExecutionRow(
  q: Queryable,
  hospitalId: string,
  id: string,
): Promise<LockedExecution | null> {
  const res =
    await q.execute<LockedExecution>(sql`select id, plan_id, patient_id, status, assignee_id, scheduled_at, record_key from care_executions
      where id = ${id} and hospital_id = ${hospitalId} for update`);
  return res.rows[0] ?? null;
}

const NURSE_ROLES = sql.raw(`('NURSE', 'CHARGE_NURSE')`);

/**
 * A membership `m` (its user `u`) a task of `departmentId` may be given to: an active NURSE or CHARGE_NURSE of
 * that department, or of the whole hospital.
 */
function nurseOfDepartment(hospitalId: string, departmentId: string): SQL {
  return sql`m.hospital_id = ${hospitalId} and m.is_active and u.is_active
      and upper(m.role_code) in ${NURSE_ROLES} and (m.department_id is null or m.department_id = ${departmentId})`;
}

export type NurseRow = {
  id: string;
  first_name: string;
  last_name: string;
  role_code: string;
  department: string | null;
};

/** A page of the nurses a task of `departmentId` may be given to, by name, and their number. */
export async function departmentNurses(
  q: Queryable,
  hospitalId: string,
  departmentId: string,
  limit: number,
  offset: number,
): Promise<{ rows: NurseRow[]; count: number }> {
  const where = nurseOfDepartment(hospitalId, departmentId);
  const rows =
    await q.execute<NurseRow>(sql`select distinct on (u.last_name, u.first_name, u.id) u.id, u.first_name, u.last_name,
        upper(m.role_code) as role_code, m.department_id as department
      from memberships m join users u on u.id = m.user_id
      where ${where}
      order by u.last_name, u.first_name, u.id, m.department_id nulls last
      limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(sql`select count(distinct u.id)::int as n
      from memberships m join users u on u.id = m.user_id where ${where}`);
  return { rows: rows.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/** Whether a task of `departmentId` may be given to `nurseId`. */
export async function isDepartmentNurse(
  q: Queryable,
  hospitalId: string,
  nurseId: string,
  departmentId: string,
): Promise<boolean> {
  const res = await q.execute<{ n: number }>(sql`select count(*)::int as n from memberships m
      join users u on u.id = m.user_id
      where ${nurseOfDepartment(hospitalId, departmentId)} and m.user_id = ${nurseId}`);
  return Number(res.rows[0]?.n ?? 0) > 0;
}

/** Gives an execution to a nurse. */
export async function assignExecution(
  q: Queryable,
  id: string,
  nurseId: string,
  by: string,
  now: Date,
): Promise<void> {
  await q.execute(sql`update care_executions set assignee_id = ${nurseId}, assigned_by = ${by},
        assigned_at = ${now.toISOString()}, updated_at = ${now.toISOString()} where id = ${id}`);
}

/**
 * Moves an execution to `at`, with its assignee (`assignedBy`: who gave it anew, null when it stays given as it
 * was); a note given replaces the one there.
 */
export async function rescheduleExecution(
  q: Queryable,
  id: string,
  r: { at: Date; assignee: string | null; assignedBy: string | null; note: string | null; now: Date },
): Promise<void> {
  await q.execute(sql`update care_executions set scheduled_at = ${r.at.toISOString()},
        assignee_id = ${r.assignee}, assigned_by = ${r.assignedBy ?? sql`assigned_by`},
        assigned_at = ${r.assignedBy ? r.now.toISOString() : sql`assigned_at`},
        note = coalesce(${r.note}, note), updated_at = ${r.now.toISOString()} where id = ${id}`);
}

/** The title of an execution's order and its time (what a notification about it says). */
export async function executionTitleAndTime(
  q: Queryable,
  id: string,
): Promise<{ title: string; scheduled_at: Date | string }> {
  const task = await q.execute<{ title: string; scheduled_at: Date | string }>(
    sql`select o.title, e.scheduled_at from care_executions e join care_orders o on o.id = e.order_id
        where e.id = ${id}`,
  );
  return task.rows[0]!;
}

/** Cancels an execution (the reason as its note). */
export async function cancelExecution(q: Queryable, id: string, reason: string, now: Date): Promise<void> {
  await q.execute(sql`update care_executions set status = 'cancelled', note = ${reason},
        recorded_at = ${now.toISOString()}, updated_at = ${now.toISOString()} where id = ${id}`);
}
