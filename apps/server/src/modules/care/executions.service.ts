import type { TCareRecord } from '@greensen/shared/contracts/care';
import { GRACE_MINUTES } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { hospitalClock, shiftOf } from './care.context.js';
import {
  executionKind,
  findExecution,
  type PlanRow,
  personOf,
  recordExecution,
  undoExecution,
} from './care.repository.js';
import type { CareService } from './care.service.js';
import {
  assignExecution,
  cancelExecution,
  departmentNurses,
  type ExecutionFilter,
  executionPage,
  executionTitleAndTime,
  isDepartmentNurse,
  lockExecutionRow,
  rescheduleExecution,
} from './executions.repository.js';
import { userName } from './plans.repository.js';

const HOUR = 3_600_000;

/**
 * The executions of care orders (issue 20, decision 0025): the plan's and the ward's lists, giving a task to a
 * nurse, moving it, recording it done or not done, taking it back, cancelling it.
 */
export class ExecutionsService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {}

  // Executions --------------------------------------------------------------------------------------------

  async planExecutions(
    ctx: ServiceContext,
    planId: string,
    f: { from?: string | undefined; to?: string | undefined; status: string },
    page: number,
    pageSize: number,
  ) {
    const plan = await this.care.plan(ctx, planId);
    const result = await this.executionList(ctx, { plan: planId }, f, page, pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.execution_list',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.p_id,
      details: { filters: { ...f }, page, results: result.rows.length },
    });
    return result;
  }

  /** The ward-wide view: the executions of the caller's departments (or one department or ward). */
  async wardExecutions(
    ctx: ServiceContext,
    f: {
      from?: string | undefined;
      to?: string | undefined;
      status: string;
      department?: string | undefined;
      ward?: string | undefined;
      assignee?: string | undefined;
      unassigned?: string | undefined;
      late?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const filter: ExecutionFilter = {
      hospitalId: hospital.id,
      userId: me,
      department: f.department,
      ward: f.ward,
      assignee: f.assignee,
      unassigned: f.unassigned === 'true',
      lateBefore:
        f.late === 'true' ? new Date(this.care.now().getTime() - GRACE_MINUTES * 60_000) : undefined,
    };
    const result = await this.executionList(ctx, filter, f, page, pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.execution_ward',
      resourceType: 'care_execution',
      details: { filters: { ...f }, page, results: result.rows.length },
    });
    return result;
  }

  private async executionList(
    ctx: ServiceContext,
    filter: ExecutionFilter,
    f: { from?: string | undefined; to?: string | undefined; status: string },
    page: number,
    pageSize: number,
  ) {
    const now = this.care.now();
    const clock = await this.care.clock(ctx);
    const shift = shiftOf(clock, now);
    const from = f.from ? new Date(f.from) : shift.start;
    const to = f.to ? new Date(f.to) : shift.end;
    if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > 31 * 24 * HOUR)
      throw badRequest({ to: ['care.window_invalid'] });
    return executionPage(
      this.app.db,
      filter,
      { from, to, status: f.status },
      pageSize,
      (page - 1) * pageSize,
      now,
    );
  }

  /** Locks an execution of the hospital and checks the caller works in its department. */
  private async lockExecution(tx: Tx, ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const row = await lockExecutionRow(tx, hospital.id, id);
    if (!row) throw notFound();
    const plan = await this.care.plan(ctx, row.plan_id, tx);
    return { row, plan };
  }

  /**
   * The nurses a task of `departmentId` may be given to: active NURSE and CHARGE_NURSE members of that department,
   * or of the whole hospital (the same rule as `assign`), by name. Staff names only: no patient data.
   */
  async nurses(ctx: ServiceContext, departmentId: string, limit: number, offset: number) {
    const hospital = scopedHospital(ctx);
    const { rows, count } = await departmentNurses(this.app.db, hospital.id, departmentId, limit, offset);
    return {
      count,
      rows: rows.map((r) => ({
        id: r.id,
        full_name: fullName(r.first_name, r.last_name),
        role_code: r.role_code,
        department: r.department,
      })),
    };
  }

  /** A nurse of the hospital working in the department (400 otherwise). */
  private async checkNurse(tx: Tx, hospitalId: string, nurseId: string, departmentId: string) {
    if (!(await isDepartmentNurse(tx, hospitalId, nurseId, departmentId)))
      throw badRequest({ nurse: ['care.nurse_unknown'] });
  }

  /**
   * Assigns an execution to a nurse: `execution_assigned` to her (with the sound), or, when it had another
   * assignee, `execution_reassigned` to both (data.action is the type, as for consultations).
   */
  async assign(ctx: ServiceContext, id: string, nurseId: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const previous = await withNotifications(this.app, async (tx, notify) => {
      const { row, plan } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      await this.checkNurse(tx, hospital.id, nurseId, plan.d_id);
      if (row.assignee_id === nurseId) return null;
      await assignExecution(tx, id, nurseId, me, now);
      const before = row.assignee_id;
      await this.tellAssignee(tx, ctx, notify, {
        type: before ? 'execution_reassigned' : 'execution_assigned',
        recipients: before ? [before, nurseId] : [nurseId],
        executionId: id,
        plan,
        nurseId,
        previous: before,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'care.execution_assign',
          resourceType: 'care_execution',
          resourceId: id,
          patientId: row.patient_id,
          details: { nurse: nurseId, previous: before },
        },
        tx,
      );
      return before;
    });
    const execution = (await findExecution(this.app.db, hospital.id, id, now))!;
    let reassignedFrom: { id: string; full_name: string } | null = null;
    if (previous) {
      const u = await userName(this.app.db, previous);
      reassignedFrom = personOf(previous, u?.first_name, u?.last_name);
    }
    return { execution, reassigned_from: reassignedFrom };
  }

  /** Moves an execution to another time (and nurse): `execution_scheduled` to the assignee. */
  async schedule(
    ctx: ServiceContext,
    id: string,
    body: { scheduled_at: string; nurse?: string | null | undefined; note?: string | null | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const at = new Date(body.scheduled_at);
    if (at.getTime() < now.getTime() - HOUR || at.getTime() > now.getTime() + 7 * 24 * HOUR)
      throw badRequest({ scheduled_at: ['care.schedule_range'] });
    await withNotifications(this.app, async (tx, notify) => {
      const { row, plan } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      if (body.nurse) await this.checkNurse(tx, hospital.id, body.nurse, plan.d_id);
      const assignee = body.nurse ?? row.assignee_id;
      await rescheduleExecution(tx, id, {
        at,
        assignee,
        assignedBy: body.nurse ? me : null,
        note: body.note ?? null,
        now,
      });
      const recipients = [assignee, row.assignee_id].filter((u): u is string => Boolean(u));
      if (recipients.length > 0)
        await this.tellAssignee(tx, ctx, notify, {
          type: 'execution_scheduled',
          recipients,
          executionId: id,
          plan,
          nurseId: assignee,
          previous: row.assignee_id !== assignee ? row.assignee_id : null,
          at,
        });
      await this.app.audit.record(
        ctx,
        {
          action: 'care.execution_schedule',
          resourceType: 'care_execution',
          resourceId: id,
          patientId: row.patient_id,
          details: { from: isoRequired(row.scheduled_at), to: at.toISOString(), nurse: assignee },
        },
        tx,
      );
    });
    return (await findExecution(this.app.db, hospital.id, id, now))!;
  }

  private async tellAssignee(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    n: {
      type: 'execution_assigned' | 'execution_reassigned' | 'execution_scheduled';
      recipients: string[];
      executionId: string;
      plan: PlanRow;
      nurseId: string | null;
      previous: string | null;
      at?: Date;
    },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const recipients = [...new Set(n.recipients)].filter((r) => r !== me);
    if (recipients.length === 0) return;
    const task = await executionTitleAndTime(tx, n.executionId);
    const clock = await hospitalClock(tx, hospital.id);
    const time = new Intl.DateTimeFormat('fr-FR', {
      timeZone: clock.timeZone,
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(task.scheduled_at));
    const params = {
      patient: fullName(n.plan.p_first_name, n.plan.p_last_name),
      task: task.title,
      time,
      place: n.plan.b_label ? `${n.plan.w_name ?? ''} ${n.plan.b_label}`.trim() : n.plan.d_name,
    };
    await notify({
      hospitalId: hospital.id,
      recipients,
      type: n.type,
      title: { key: `care.notify.${n.type}.title`, params },
      message: { key: `care.notify.${n.type}.message`, params },
      data: {
        action: n.type,
        execution_id: n.executionId,
        plan_id: n.plan.plan_id,
        patient_id: n.plan.p_id,
        nurse_id: n.nurseId,
        ...(n.previous ? { previous_nurse_id: n.previous } : {}),
      },
      initiatedBy: me,
    });
  }

  /** Done (by the caller, at the time it was really done) or not done (with a reason). */
  /**
   * Records a task done or not done. A vitals task is done by recording vitals (issue 37): only the vitals path
   * (`byVitals`) marks it done; its "not done" (with a reason) stays here.
   */
  async record(ctx: ServiceContext, id: string, body: TCareRecord, tx?: Tx, byVitals = false) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const key = body.idempotency_key ?? null;
    const work = async (t: Tx) => {
      const { row } = await this.lockExecution(t, ctx, id);
      // The same record sent again (issue 40: queued offline, its answer lost): answered, not recorded twice.
      if (key && row.record_key === key) return;
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      if (body.outcome === 'done' && !byVitals && (await executionKind(t, id)) === 'vitals')
        throw badRequest({ outcome: ['care.vitals_required'] });
      // Queued offline for the nurse it was given to: refused when it was given to someone else meanwhile.
      if (
        body.expected_assignee !== undefined &&
        row.assignee_id !== (body.expected_assignee ?? null) &&
        row.assignee_id !== me
      )
        throw conflict('care.execution_reassigned');
      if (body.outcome === 'done') {
        const doneAt = body.done_at ? new Date(body.done_at) : now;
        if (doneAt.getTime() > now.getTime() + 60_000 || doneAt.getTime() < now.getTime() - 24 * HOUR)
          throw badRequest({ done_at: ['care.time_range'] });
        await recordExecution(t, id, { status: 'done', by: me, doneAt, note: body.note ?? null, key, now });
      } else {
        await recordExecution(t, id, {
          status: 'not_done',
          by: me,
          reason: body.reason,
          note: body.note ?? null,
          key,
          now,
        });
      }
      await this.app.audit.record(
        ctx,
        {
          action: body.outcome === 'done' ? 'care.execution_done' : 'care.execution_not_done',
          resourceType: 'care_execution',
          resourceId: id,
          patientId: row.patient_id,
          details: body.outcome === 'done' ? {} : { reason: body.reason },
        },
        t,
      );
    };
    if (tx) await work(tx);
    else await this.app.db.transaction(work);
    return (await findExecution(tx ?? this.app.db, hospital.id, id, now))!;
  }

  /**
   * Takes back a task the caller recorded less than a minute ago (issue 37): it is to do again; audited. Later, or
   * someone else's: 409. A vitals set recorded with it stays in the patient's series (a measurement is a fact).
   */
  async undo(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    await this.app.db.transaction(async (tx) => {
      const { row } = await this.lockExecution(tx, ctx, id);
      if (!(await undoExecution(tx, id, me, now))) throw conflict('care.undo_expired');
      await this.app.audit.record(
        ctx,
        {
          action: 'care.execution_undo',
          resourceType: 'care_execution',
          resourceId: id,
          patientId: row.patient_id,
          details: { was: row.status },
        },
        tx,
      );
    });
    return (await findExecution(this.app.db, hospital.id, id, now))!;
  }

  async cancel(ctx: ServiceContext, id: string, reason: string) {
    const hospital = scopedHospital(ctx);
    const now = this.care.now();
    await this.app.db.transaction(async (tx) => {
      const { row } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      await cancelExecution(tx, id, reason, now);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.execution_cancel',
          resourceType: 'care_execution',
          resourceId: id,
          patientId: row.patient_id,
        },
        tx,
      );
    });
    return (await findExecution(this.app.db, hospital.id, id, now))!;
  }
}
