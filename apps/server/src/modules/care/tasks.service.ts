import type { TTask, TTaskList } from '@greensen/shared/contracts/care';
import { CARE_PRIORITY_RANK } from '@greensen/shared/contracts/care';
import { GRACE_MINUTES } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DEPARTMENT_REF_COLUMNS, PATIENT_REF_COLUMNS, patientRef, type RefRow } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { sqlList } from '../../lib/queries.js';
import { callerScope, memberScope, shiftDto, shiftOf } from './care.context.js';
import {
  EXECUTION_COLUMNS,
  EXECUTION_FROM,
  type ExecutionOwnRow,
  OPEN_STAY,
  OPEN_VISIT,
  PLACE_COLUMNS,
  type PlaceRow,
  placeOf,
  toExecution,
} from './care.repository.js';
import type { CareService } from './care.service.js';
import { dosesOfLines, type LineWithRecords, lineOf, linesWithRecords } from './mar.lines.js';

/** Rows aggregated as JSON: parsed by the driver, or text. */
type JsonRows<T> = T[] | string;
const jsonRows = <T>(v: JsonRows<T>): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : v);

/** An open plan of the tasks' scope: what a task shows of it. */
interface TaskPlanRow extends RefRow, PlaceRow {
  plan_id: string;
}

const HOUR = 3_600_000;
/** Overdue work of earlier shifts is shown this far back. */
const OVERDUE_LOOKBACK_HOURS = 24;
/** Doses rank with high-priority care. */
const DOSE_RANK = CARE_PRIORITY_RANK.high;
/** Executions listed at most (time, then priority). */
const MAX_EXECUTIONS = 2000;
/** Plans whose doses are listed at most. */
const MAX_DOSE_PLANS = 500;
const VIEWERS = new Set(['CHARGE_NURSE', 'QUEUE_MANAGER', 'HEAD_DOCTOR', 'DOCTOR', 'PHYSICIAN', 'MD']);

/** The nurse dashboard's tasks tab (§7 `GET /api/nurses/{nurse_id}/tasks/`). */
export class TasksService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {}

  /**
   * The nurse's executions and doses of the current shift, with the overdue ones of the last 24 hours, ordered
   * by time then priority. `mine`: assigned to her or to nobody, in her departments; `ward`: all of them. The
   * nurse herself, or a charge nurse / doctor / head doctor working in one of her departments, may look.
   */
  async tasks(
    ctx: ServiceContext,
    nurseId: string,
    q: {
      scope: 'mine' | 'ward';
      department?: string | undefined;
      ward?: string | undefined;
      status: 'open' | 'all';
      page: number;
      page_size: number;
    },
  ): Promise<Omit<TTaskList, 'next' | 'previous'>> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    // The caller's memberships come with her sign-in check; another nurse's are read.
    const caller = callerScope(ctx);
    const nurse = nurseId === me ? caller : await memberScope(this.app.db, hospital.id, nurseId);
    if (!nurse.roleCodes.has('NURSE') && !nurse.roleCodes.has('CHARGE_NURSE')) throw notFound();
    if (nurseId !== me) {
      const shares = caller.all || nurse.all || [...nurse.departments].some((d) => caller.departments.has(d));
      if (![...caller.roleCodes].some((r) => VIEWERS.has(r)) || !shares) throw forbidden('care.other_nurse');
    }
    const now = this.care.now();
    const clock = await this.care.clockOf(hospital.id);
    const shift = shiftOf(clock, now);
    const from = new Date(shift.start.getTime() - OVERDUE_LOOKBACK_HOURS * HOUR);
    const overdueBefore = new Date(now.getTime() - GRACE_MINUTES * 60_000);

    // In one statement: the open plans of her departments (all of them when one membership has none); their
    // executions — the number, how many are overdue, the page's rows in full; their signed prescription lines
    // with the dose records of the window (doses are the ward's, never assigned to one nurse); and what a task
    // shows of the plans the page's executions and the lines belong to. Each part is its own small join
    // problem: the planning of one large join took longer than the statement's run (decision 0044). The plans
    // shown are found by two semi-joins: `in (… union …)` rescanned the union's rows for every plan.
    const dept = sql`coalesce(s.department_id, a.department_id)`;
    const scope = nurse.all
      ? [sql`${dept} is not null`]
      : [nurse.departments.size > 0 ? sql`${dept} in (${sqlList([...nurse.departments])})` : sql`false`];
    if (q.department) scope.push(sql`${dept} = ${q.department}`);
    if (q.ward)
      scope.push(sql`s.bed_id in (select b.id from beds b join rooms r on r.id = b.room_id
        where r.ward_id = ${q.ward})`);
    const start = (q.page - 1) * q.page_size;
    const mine = q.scope === 'mine' ? sql`and (e.assignee_id = ${nurseId} or e.assignee_id is null)` : sql``;
    // Open work from the lookback to the shift's end (earlier shifts: only what is overdue); in `all`, also what
    // was recorded during the shift.
    const status =
      q.status === 'all'
        ? sql`and (e.status = 'scheduled' or (e.status in ('done', 'not_done') and e.scheduled_at >= ${shift.start.toISOString()}))`
        : sql`and e.status = 'scheduled'`;
    const late = overdueBefore.toISOString();
    const res = await this.app.db.execute<{
      plans: JsonRows<TaskPlanRow>;
      executions: JsonRows<ExecutionOwnRow & { total: number; late: number }>;
      lines: JsonRows<LineWithRecords>;
    }>(sql`with plans as materialized (select cp.id as plan_id, cp.patient_id, ${dept} as department_id, s.bed_id
        from care_plans cp left join hospitalizations s on s.id = cp.hospitalization_id
        left join admissions a on a.id = cp.admission_id
        where cp.hospital_id = ${hospital.id} and ${sql.join(scope, sql` and `)}
        and (case when s.id is not null then s.status in ${OPEN_STAY} else a.status in ${OPEN_VISIT} end)),
      open as (select e.id, e.plan_id, e.scheduled_at, e.priority, e.status from care_executions e
        where e.hospital_id = ${hospital.id} and e.plan_id in (select plan_id from plans)
        and e.scheduled_at >= ${from.toISOString()} and e.scheduled_at < ${shift.end.toISOString()}
        and (e.scheduled_at >= ${shift.start.toISOString()} or e.status <> 'scheduled' or e.scheduled_at < ${late})
        ${mine} ${status}
        order by e.scheduled_at, e.priority limit ${MAX_EXECUTIONS}),
      head as materialized (select o.id, o.plan_id, count(*) over () as total,
          count(*) filter (where o.status = 'scheduled' and o.scheduled_at < ${late}) over () as late
        from open o order by o.scheduled_at, o.priority, o.id limit ${start + q.page_size}),
      lines as materialized (${linesWithRecords(sql`select plan_id from plans limit ${MAX_DOSE_PLANS}`, from, shift.end)})
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
    const byPlan = new Map(jsonRows(row.plans).map((p) => [p.plan_id, p]));
    const executions = jsonRows(row.executions);
    const lines = jsonRows(row.lines);
    const doses = dosesOfLines(lines, from, shift.end, now, clock.timeZone);

    // The list: time, then priority (doses rank with high-priority care), then a fixed key.
    type Item = { at: string; rank: number; key: string; task: TTask };
    const items: Item[] = executions.map((r) => {
      const execution = toExecution(r, now, byPlan.get(r.plan_id)!);
      return {
        at: execution.scheduled_at,
        rank: Number(r.priority),
        key: r.id,
        task: { type: 'execution', scheduled_at: execution.scheduled_at, late: execution.late, execution },
      };
    });
    let doseCount = 0;
    let overdueDoses = 0;
    for (const l of lines) {
      const plan = byPlan.get(l.plan_id);
      if (!plan) continue;
      for (const dose of doses.get(l.id) ?? []) {
        const at = new Date(dose.scheduled_at);
        const inShift = at >= shift.start;
        const open = dose.status === 'due' || dose.status === 'overdue';
        if (!inShift && dose.status !== 'overdue') continue;
        if (q.status === 'open' && !open) continue;
        doseCount += 1;
        if (dose.status === 'overdue') overdueDoses += 1;
        items.push({
          at: dose.scheduled_at,
          rank: DOSE_RANK,
          key: `${l.id}|${dose.scheduled_at}`,
          task: {
            type: 'dose',
            scheduled_at: dose.scheduled_at,
            late: dose.status === 'overdue' || (dose.record?.late ?? false),
            plan: plan.plan_id,
            patient: patientRef(plan),
            place: placeOf(plan),
            line: lineOf(l),
            dose,
          },
        });
      }
    }
    items.sort((a, b) => a.at.localeCompare(b.at) || a.rank - b.rank || a.key.localeCompare(b.key));
    const page = items.slice(start, start + q.page_size);
    const results = page.map((i) => i.task);
    await this.app.audit.record(ctx, {
      action: 'care.tasks_read',
      resourceType: 'care_execution',
      details: { nurse: nurseId, scope: q.scope, page: q.page, results: results.length },
    });
    return {
      count: Number(executions[0]?.total ?? 0) + doseCount,
      results,
      shift: shiftDto(clock, shift),
      overdue: Number(executions[0]?.late ?? 0) + overdueDoses,
    };
  }
}
