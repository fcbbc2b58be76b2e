import type { TTask, TTaskList } from '@greensen/shared/contracts/care';
import { CARE_PRIORITY_RANK } from '@greensen/shared/contracts/care';
import { GRACE_MINUTES } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import { patientRef } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { callerScope, memberScope, shiftDto, shiftOf } from './care.context.js';
import { placeOf, toExecution } from './care.repository.js';
import type { CareService } from './care.service.js';
import { dosesOfLines, lineOf } from './mar.lines.js';
import { nurseTasks } from './tasks.repository.js';

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

    const start = (q.page - 1) * q.page_size;
    const { plans, executions, lines } = await nurseTasks(this.app.db, {
      hospitalId: hospital.id,
      departments: { all: nurse.all, ids: [...nurse.departments] },
      department: q.department,
      ward: q.ward,
      assignedTo: q.scope === 'mine' ? nurseId : null,
      status: q.status,
      from,
      shift,
      lateBefore: overdueBefore,
      upTo: start + q.page_size,
    });
    const byPlan = new Map(plans.map((p) => [p.plan_id, p]));
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
