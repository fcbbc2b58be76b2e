import type { TTask, TTaskList } from '@greensen/shared/contracts/care';
import { CARE_PRIORITY_RANK } from '@greensen/shared/contracts/care';
import { GRACE_MINUTES, isLate } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { patientRef } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { sqlList } from '../../lib/queries.js';
import { hospitalClock, memberScope, shiftDto, shiftOf } from './care.context.js';
import {
  EXECUTION_SELECT,
  type ExecutionRow,
  OPEN_STAY,
  OPEN_VISIT,
  PLAN_COLUMNS,
  PLAN_FROM,
  PLAN_PLACE_JOINS,
  type PlanRow,
  placeOf,
  toExecution,
} from './care.repository.js';
import type { CareService } from './care.service.js';
import { dosesOf, lineOf, planLines } from './mar.service.js';

const HOUR = 3_600_000;
/** Overdue work of earlier shifts is shown this far back. */
const OVERDUE_LOOKBACK_HOURS = 24;
/** Doses rank with high-priority care. */
const DOSE_RANK = CARE_PRIORITY_RANK.high;
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
    const nurse = await memberScope(this.app.db, hospital.id, nurseId);
    if (!nurse.roleCodes.has('NURSE') && !nurse.roleCodes.has('CHARGE_NURSE')) throw notFound();
    if (nurseId !== me) {
      const caller = await memberScope(this.app.db, hospital.id, me);
      const shares = caller.all || nurse.all || [...nurse.departments].some((d) => caller.departments.has(d));
      if (![...caller.roleCodes].some((r) => VIEWERS.has(r)) || !shares) throw forbidden('care.other_nurse');
    }
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, hospital.id);
    const shift = shiftOf(clock, now);
    const from = new Date(shift.start.getTime() - OVERDUE_LOOKBACK_HOURS * HOUR);
    const overdueBefore = new Date(now.getTime() - GRACE_MINUTES * 60_000);

    // Her departments as a list (all of them when one membership has none).
    const scope = nurse.all
      ? [sql`true`]
      : [nurse.departments.size > 0 ? sql`d.id in (${sqlList([...nurse.departments])})` : sql`false`];
    if (q.department) scope.push(sql`d.id = ${q.department}`);
    if (q.ward) scope.push(sql`w.id = ${q.ward}`);
    const where = sql.join(scope, sql` and `);
    const mine = q.scope === 'mine' ? sql`and (e.assignee_id = ${nurseId} or e.assignee_id is null)` : sql``;
    // Open work from the lookback to the shift's end (earlier shifts: only what is overdue); in `all`, also what
    // was recorded during the shift.
    const status =
      q.status === 'all'
        ? sql`and (e.status = 'scheduled' or (e.status in ('done', 'not_done') and e.scheduled_at >= ${shift.start.toISOString()}))`
        : sql`and e.status = 'scheduled'`;
    // First the light rows (time, priority, state); the page's rows are read in full afterwards.
    const light = await this.app.db.execute<{
      id: string;
      scheduled_at: Date | string;
      priority: number;
      status: string;
    }>(
      sql`select e.id, e.scheduled_at, e.priority, e.status::text as status
        from care_executions e join care_plans cp on cp.id = e.plan_id ${PLAN_PLACE_JOINS}
        where e.hospital_id = ${hospital.id} and ${where}
        and e.scheduled_at >= ${from.toISOString()} and e.scheduled_at < ${shift.end.toISOString()}
        and (e.scheduled_at >= ${shift.start.toISOString()} or e.status <> 'scheduled' or e.scheduled_at < ${overdueBefore.toISOString()})
        and (case when s.id is not null then s.status in ${OPEN_STAY} else a.status in ${OPEN_VISIT} end)
        ${mine} ${status}
        order by e.scheduled_at, e.priority limit 2000`,
    );
    type Item =
      | { kind: 'execution'; at: string; rank: number; key: string; overdue: boolean }
      | { kind: 'dose'; at: string; rank: number; key: string; overdue: boolean; task: TTask };
    const items: Item[] = light.rows.map((r) => {
      const at = new Date(r.scheduled_at);
      return {
        kind: 'execution',
        at: at.toISOString(),
        rank: Number(r.priority),
        key: r.id,
        overdue: r.status === 'scheduled' && isLate(at, null, now),
      };
    });

    // Doses of the open plans of her departments (doses are the ward's, never assigned to one nurse).
    // The open plans in scope (ids only), their signed lines, and the full rows of the plans that have lines.
    const open = await this.app.db.execute<{ id: string }>(
      sql`select cp.id from care_plans cp ${PLAN_PLACE_JOINS} where cp.hospital_id = ${hospital.id} and ${where}
        and (case when s.id is not null then s.status in ${OPEN_STAY} else a.status in ${OPEN_VISIT} end)
        limit 500`,
    );
    const lines = await planLines(
      this.app.db,
      open.rows.map((p) => p.id),
    );
    const withLines = [...new Set(lines.map((l) => l.plan_id))];
    const plans =
      withLines.length > 0
        ? await this.app.db.execute<PlanRow>(
            sql`select ${PLAN_COLUMNS} ${PLAN_FROM} where cp.id in (${sqlList(withLines)})`,
          )
        : { rows: [] as PlanRow[] };
    const byPlan = new Map(plans.rows.map((p) => [p.plan_id, p]));
    const doses = await dosesOf(this.app.db, lines, from, shift.end, now, clock.timeZone);
    for (const l of lines) {
      const plan = byPlan.get(l.plan_id);
      if (!plan) continue;
      for (const dose of doses.get(l.id) ?? []) {
        const at = new Date(dose.scheduled_at);
        const inShift = at >= shift.start;
        const open = dose.status === 'due' || dose.status === 'overdue';
        if (!inShift && dose.status !== 'overdue') continue;
        if (q.status === 'open' && !open) continue;
        items.push({
          kind: 'dose',
          at: dose.scheduled_at,
          rank: DOSE_RANK,
          key: `${l.id}|${dose.scheduled_at}`,
          overdue: dose.status === 'overdue',
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
    const start = (q.page - 1) * q.page_size;
    const page = items.slice(start, start + q.page_size);
    const ids = page.flatMap((i) => (i.kind === 'execution' ? [i.key] : []));
    const full = new Map<string, TTask>();
    if (ids.length > 0) {
      const res = await this.app.db.execute<ExecutionRow>(
        sql`${EXECUTION_SELECT} where e.id in (${sqlList(ids)})`,
      );
      for (const r of res.rows) {
        const execution = toExecution(r, now);
        full.set(r.id, {
          type: 'execution',
          scheduled_at: execution.scheduled_at,
          late: execution.late,
          execution,
        });
      }
    }
    const results = page.flatMap((i) =>
      i.kind === 'dose' ? [i.task] : full.has(i.key) ? [full.get(i.key)!] : [],
    );
    const overdue = items.filter((i) => i.overdue).length;
    await this.app.audit.record(ctx, {
      action: 'care.tasks_read',
      resourceType: 'care_execution',
      details: { nurse: nurseId, scope: q.scope, page: q.page, results: results.length },
    });
    return {
      count: items.length,
      results,
      shift: shiftDto(clock, shift),
      overdue,
    };
  }
}
