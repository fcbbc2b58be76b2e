import {
  CARE_PRIORITY_RANK,
  type TCareExecution,
  type TCareOrder,
  type TCareOrderCreate,
  type TCarePatient,
  type TCarePlan,
  type TCareRecord,
  type TCareSchedule,
  ZCareOrderCreate,
} from '@greensen/shared/contracts/care';
import { GRACE_MINUTES, scheduleSlots } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { careExecutions, careOrders, carePlans } from '../../db/schema/index.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { containsPattern } from '../../lib/queries.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  covers,
  type HospitalClock,
  hospitalClock,
  memberScope,
  requireDepartment,
  shiftInfo,
  shiftOf,
} from './care.context.js';
import {
  carePatientOf,
  EXECUTION_SELECT,
  type ExecutionRow,
  executionKind,
  findExecution,
  findPlan,
  inScope,
  OPEN_STAY,
  OPEN_VISIT,
  PLAN_JOINS,
  type PlanRow,
  personOf,
  planCounts,
  planIdFor,
  recordExecution,
  toExecution,
  undoExecution,
} from './care.repository.js';
import { planDoses } from './mar.lines.js';
import { latestVitals, news2SummaryOf } from './vital-signs.repository.js';

/** Executions exist this far ahead (the job and each new order materialise up to it). */
export const HORIZON_HOURS = 48;
/** An order created with a start in the past materialises from at most this far back. */
const BACKFILL_HOURS = 24;
const HOUR = 3_600_000;

const NURSE_ROLES = sql.raw(`('NURSE', 'CHARGE_NURSE')`);

/**
 * Care plans, orders and their executions (issue 20, decision 0025). A plan belongs to a stay or to an
 * emergency visit; the caller must work in its department (else 403), another hospital's is 404.
 */
export class CareService {
  constructor(private readonly app: FastifyInstance) {}

  now(): Date {
    return this.app.jobs.now();
  }

  async clock(ctx: ServiceContext, q: Queryable = this.app.db): Promise<HospitalClock> {
    return hospitalClock(q, scopedHospital(ctx).id);
  }

  /** The hospital's zone and shift times, kept per instance until they change (plugins/clock-cache.ts). */
  async clockOf(hospitalId: string): Promise<HospitalClock> {
    const cache = this.app.clockCache;
    const kept = cache.lookup(hospitalId, '');
    if (kept) return kept;
    const ticket = cache.ticket();
    const clock = await hospitalClock(this.app.db, hospitalId);
    cache.keep(ticket, hospitalId, '', clock);
    return clock;
  }

  async shift(ctx: ServiceContext) {
    return shiftInfo(await this.clock(ctx), this.now());
  }

  /** The plan (404 when not in the hospital, 403 when not in the caller's departments). */
  async plan(ctx: ServiceContext, planId: string, q: Queryable = this.app.db): Promise<PlanRow> {
    const hospital = scopedHospital(ctx);
    const row = await findPlan(q, hospital.id, planId);
    if (!row) throw notFound();
    requireDepartment(await memberScope(q, hospital.id, actingUser(ctx).id), row.d_id);
    return row;
  }

  // Patients and plans -----------------------------------------------------------------------------------

  /** Open stays and emergency visits of the caller's departments, with their plan (the /care list). */
  async patients(
    ctx: ServiceContext,
    filters: {
      department?: string | undefined;
      ward?: string | undefined;
      search?: string | undefined;
      kind: string;
    },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const rows = await this.targets(this.app.db, hospital.id, me, filters, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.patients',
      resourceType: 'care_plan',
      details: { filters: { ...filters }, page, results: rows.rows.length },
    });
    return rows;
  }

  /**
   * The care targets: open stays (with a plan or not) and open emergency visits (with a plan or not), in the
   * departments `userId` works in. Both sides are read by their own indexes, then merged.
   */
  async targets(
    q: Queryable,
    hospitalId: string,
    userId: string,
    filters: {
      department?: string | undefined;
      ward?: string | undefined;
      search?: string | undefined;
      kind: string;
    },
    limit: number,
    offset: number,
  ): Promise<{ rows: TCarePatient[]; count: number }> {
    const conds = (dept: ReturnType<typeof sql>) => {
      const parts = [inScope(hospitalId, userId, dept)];
      if (filters.department) parts.push(sql`${dept} = ${filters.department}`);
      if (filters.search) {
        const like = containsPattern(filters.search.toLowerCase());
        parts.push(sql`(f_unaccent(lower(p.last_name || ' ' || p.first_name)) like f_unaccent(${like})
          or f_unaccent(lower(p.first_name || ' ' || p.last_name)) like f_unaccent(${like})
          or lower(p.record_number) like ${like})`);
      }
      return sql.join(parts, sql` and `);
    };
    const stays = sql`select cp.id as plan_id, s.hospital_id, s.id as hospitalization_id, null::uuid as admission_id,
        coalesce(cp.hypercapnic, false) as hypercapnic, ${sql.raw(PATIENT_COLUMNS)}, d.id as d_id, d.code as d_code,
        d.name as d_name, d.kind as d_kind, b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name,
        w.id as w_id, w.code as w_code, w.name as w_name, doc.id as doc_id, doc.first_name as doc_first,
        doc.last_name as doc_last, s.requested_at as since, w.name as sort_ward, b.label as sort_bed
      from hospitalizations s join patients p on p.id = s.patient_id join departments d on d.id = s.department_id
      left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
      left join users doc on doc.id = s.doctor_id
      left join care_plans cp on cp.hospitalization_id = s.id
      where s.hospital_id = ${hospitalId} and s.status in ${OPEN_STAY} and ${conds(sql`s.department_id`)}
        ${filters.ward ? sql`and w.id = ${filters.ward}` : sql``}`;
    const visits = sql`select cp.id as plan_id, a.hospital_id, null::uuid as hospitalization_id,
        a.id as admission_id, coalesce(cp.hypercapnic, false) as hypercapnic, ${sql.raw(PATIENT_COLUMNS)},
        d.id as d_id, d.code as d_code, d.name as d_name, d.kind as d_kind, null::uuid as b_id, null::text as b_label,
        null::uuid as r_id, null::text as r_name, null::uuid as w_id, null::text as w_code, null::text as w_name,
        doc.id as doc_id, doc.first_name as doc_first, doc.last_name as doc_last, a.admitted_at as since,
        null::text as sort_ward, null::text as sort_bed
      from admissions a join patients p on p.id = a.patient_id join departments d on d.id = a.department_id
      left join lateral (select e.doctor_id from executions e where e.admission_id = a.id
        order by e.created_at desc limit 1) ve on true
      left join users doc on doc.id = ve.doctor_id
      left join care_plans cp on cp.admission_id = a.id
      where a.hospital_id = ${hospitalId} and a.status in ${OPEN_VISIT} and d.kind = 'emergency'
        and ${conds(sql`a.department_id`)}`;
    const parts =
      filters.kind === 'inpatient' || filters.ward
        ? [stays]
        : filters.kind === 'emergency'
          ? [visits]
          : [stays, visits];
    const union = sql.join(
      parts.map((p) => sql`(${p})`),
      sql` union all `,
    );
    const run = async (tx: Queryable) => {
      const res = await tx.execute<PlanRow & { plan_id: string | null }>(
        sql`select * from (${union}) t order by t.sort_ward nulls last, t.sort_bed nulls last, t.since
          limit ${limit} offset ${offset}`,
      );
      const counted = await tx.execute<{ n: number }>(sql`select count(*)::int as n from (${union}) t`);
      return { rows: res.rows, count: Number(counted.rows[0]?.n ?? 0) };
    };
    const { rows, count } = await run(q);
    const now = this.now();
    const clock = await this.clockOf(hospitalId);
    const counts = await countsOf(
      q,
      rows.flatMap((r) => (r.plan_id ? [r.plan_id] : [])),
      clock,
      now,
    );
    const vitals = await latestVitals(
      q,
      hospitalId,
      rows.map((r) => r.p_id),
    );
    return {
      count,
      rows: rows.map((r) =>
        carePatientOf(r, r.plan_id ? counts.get(r.plan_id) : undefined, news2SummaryOf(vitals.get(r.p_id))),
      ),
    };
  }

  /** Opens the plan of a stay or emergency visit; the existing one when there is (created: false). */
  async ensurePlan(
    ctx: ServiceContext,
    target: { hospitalization?: string | null; admission?: string | null },
    extra: { hypercapnic?: boolean | undefined; goals?: string | null | undefined } = {},
  ): Promise<{ id: string; created: boolean }> {
    return this.app.db.transaction((tx) => this.ensurePlanIn(tx, ctx, target, extra));
  }

  async ensurePlanIn(
    tx: Tx,
    ctx: ServiceContext,
    target: { hospitalization?: string | null | undefined; admission?: string | null | undefined },
    extra: { hypercapnic?: boolean | undefined; goals?: string | null | undefined } = {},
  ): Promise<{ id: string; created: boolean }> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const res = target.hospitalization
      ? await tx.execute<{ patient_id: string; department_id: string; open: boolean }>(
          sql`select patient_id, department_id, status in ${OPEN_STAY} as open from hospitalizations
            where id = ${target.hospitalization} and hospital_id = ${hospital.id}`,
        )
      : await tx.execute<{ patient_id: string; department_id: string; open: boolean }>(
          sql`select a.patient_id, a.department_id, a.status in ${OPEN_VISIT} and d.kind = 'emergency' as open
            from admissions a join departments d on d.id = a.department_id
            where a.id = ${target.admission ?? null} and a.hospital_id = ${hospital.id}`,
        );
    const found = res.rows[0];
    if (!found) throw notFound();
    requireDepartment(await memberScope(tx, hospital.id, me), found.department_id);
    const column = target.hospitalization ? carePlans.hospitalizationId : carePlans.admissionId;
    const existing = await tx.execute<{ id: string }>(
      target.hospitalization
        ? sql`select id from care_plans where hospitalization_id = ${target.hospitalization}`
        : sql`select id from care_plans where admission_id = ${target.admission ?? null}`,
    );
    if (existing.rows[0]) return { id: existing.rows[0].id, created: false };
    if (!found.open) throw conflict('care.target_closed');
    const inserted = await tx
      .insert(carePlans)
      .values({
        hospitalId: hospital.id,
        patientId: found.patient_id,
        hospitalizationId: target.hospitalization ?? null,
        admissionId: target.hospitalization ? null : (target.admission ?? null),
        hypercapnic: extra.hypercapnic ?? false,
        goals: extra.goals ?? null,
        createdBy: me,
      })
      .onConflictDoNothing({
        target: column,
        where: target.hospitalization ? sql`hospitalization_id is not null` : sql`admission_id is not null`,
      })
      .returning({ id: carePlans.id });
    if (inserted[0]) {
      await this.app.audit.record(
        ctx,
        {
          action: 'care.plan_create',
          resourceType: 'care_plan',
          resourceId: inserted[0].id,
          patientId: found.patient_id,
          details: { hospitalization: target.hospitalization ?? null, admission: target.admission ?? null },
        },
        tx,
      );
      return { id: inserted[0].id, created: true };
    }
    // Opened by someone else at the same instant.
    const again = await tx.execute<{ id: string }>(
      target.hospitalization
        ? sql`select id from care_plans where hospitalization_id = ${target.hospitalization}`
        : sql`select id from care_plans where admission_id = ${target.admission ?? null}`,
    );
    return { id: again.rows[0]!.id, created: false };
  }

  async detail(ctx: ServiceContext, planId: string, q: Queryable = this.app.db): Promise<TCarePlan> {
    const row = await this.plan(ctx, planId, q);
    const now = this.now();
    const clock = await this.clock(ctx, q);
    const counts = await countsOf(q, [planId], clock, now);
    const creator = await q.execute<{ first_name: string; last_name: string }>(
      sql`select first_name, last_name from users where id = ${row.created_by}`,
    );
    const vitals = await latestVitals(q, row.hospital_id, [row.p_id]);
    const base = carePatientOf(row, counts.get(planId), news2SummaryOf(vitals.get(row.p_id)));
    const open = Boolean(row.is_open);
    return {
      ...base,
      plan: planId,
      id: planId,
      status: open ? 'active' : 'closed',
      goals: row.goals,
      created_by: {
        id: row.created_by,
        full_name: fullName(creator.rows[0]?.first_name, creator.rows[0]?.last_name),
      },
      created_at: isoRequired(row.created_at),
      can: {
        order: open && mayAct(ctx, 'care.write'),
        record: open && mayAct(ctx, 'care.write'),
        assign: open && mayAct(ctx, 'care.write'),
        edit: open && mayAct(ctx, 'care.write'),
      },
    };
  }

  /**
   * A plan by its id, or the plan of a stay or visit by the stay's or visit's id (`/care/{stay id}` finds the
   * stay's care file, issue 37): the answer's `id` is the plan's.
   */
  async read(ctx: ServiceContext, id: string) {
    const planId = (await planIdFor(this.app.db, scopedHospital(ctx).id, id)) ?? id;
    const plan = await this.detail(ctx, planId);
    await this.app.audit.record(ctx, {
      action: 'care.plan_read',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.patient.id,
    });
    return plan;
  }

  async update(ctx: ServiceContext, planId: string, body: { hypercapnic?: boolean; goals?: string | null }) {
    await this.app.db.transaction(async (tx) => {
      const row = await this.plan(ctx, planId, tx);
      if (!row.is_open) throw conflict('care.plan_closed');
      const set: Partial<typeof carePlans.$inferInsert> = { updatedAt: new Date() };
      if (body.hypercapnic !== undefined) set.hypercapnic = body.hypercapnic;
      if (body.goals !== undefined) set.goals = body.goals;
      await tx.update(carePlans).set(set).where(sql`id = ${planId}`);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.plan_update',
          resourceType: 'care_plan',
          resourceId: planId,
          patientId: row.p_id,
          details: { fields: Object.keys(body), hypercapnic: body.hypercapnic ?? null },
        },
        tx,
      );
    });
    return this.detail(ctx, planId);
  }

  // Orders -----------------------------------------------------------------------------------------------

  async orders(
    ctx: ServiceContext,
    planId: string,
    status: 'active' | 'all',
    page: number,
    pageSize: number,
  ) {
    const row = await this.plan(ctx, planId);
    const where = status === 'active' ? sql`and o.status = 'active'` : sql``;
    const res = await this.app.db.execute<OrderRow>(
      sql`${ORDER_SELECT} where o.plan_id = ${planId} ${where} order by o.ordered_at desc
        limit ${pageSize} offset ${(page - 1) * pageSize}`,
    );
    const counted = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from care_orders o where o.plan_id = ${planId} ${where}`,
    );
    await this.app.audit.record(ctx, {
      action: 'care.order_list',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: row.p_id,
      details: { status, page },
    });
    return { rows: res.rows.map(toOrder), count: Number(counted.rows[0]?.n ?? 0) };
  }

  async createOrder(ctx: ServiceContext, planId: string, input: TCareOrderCreate): Promise<TCareOrder> {
    const body = ZCareOrderCreate.parse(input);
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.now();
    const id = await this.app.db.transaction(async (tx) => {
      const plan = await this.plan(ctx, planId, tx);
      if (!plan.is_open) throw conflict('care.plan_closed');
      const startAt = body.start_at ? new Date(body.start_at) : now;
      if (startAt.getTime() < now.getTime() - BACKFILL_HOURS * HOUR)
        throw badRequest({ start_at: ['care.start_too_old'] });
      const endAt =
        body.schedule.kind === 'once' || !body.days
          ? null
          : new Date(startAt.getTime() + body.days * 24 * HOUR);
      const [order] = await tx
        .insert(careOrders)
        .values({
          hospitalId: hospital.id,
          planId,
          kind: body.kind,
          title: body.title,
          instructions: body.instructions ?? null,
          signs: body.signs,
          priority: body.priority,
          schedule: body.schedule,
          startAt,
          endAt,
          orderedBy: me,
          orderedAt: now,
        })
        .returning({ id: careOrders.id });
      const orderId = order!.id;
      const clock = await hospitalClock(tx, hospital.id);
      await materializeOrder(
        tx,
        {
          id: orderId,
          hospitalId: hospital.id,
          planId,
          patientId: plan.p_id,
          schedule: body.schedule,
          startAt,
          endAt,
          priority: CARE_PRIORITY_RANK[body.priority],
          materializedUntil: null,
        },
        clock.timeZone,
        new Date(now.getTime() + HORIZON_HOURS * HOUR),
      );
      await this.app.audit.record(
        ctx,
        {
          action: 'care.order_create',
          resourceType: 'care_order',
          resourceId: orderId,
          patientId: plan.p_id,
          details: { plan: planId, kind: body.kind, schedule: body.schedule, priority: body.priority },
        },
        tx,
      );
      return orderId;
    });
    return this.order(id);
  }

  private async order(id: string, q: Queryable = this.app.db): Promise<TCareOrder> {
    const res = await q.execute<OrderRow>(sql`${ORDER_SELECT} where o.id = ${id}`);
    return toOrder(res.rows[0]!);
  }

  /** Stops an order: its executions still scheduled in the future are cancelled. */
  async stopOrder(ctx: ServiceContext, orderId: string, reason: string): Promise<TCareOrder> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.now();
    await this.app.db.transaction(async (tx) => {
      const res = await tx.execute<{ plan_id: string; status: string }>(
        sql`select plan_id, status from care_orders where id = ${orderId} and hospital_id = ${hospital.id}
          for update`,
      );
      const order = res.rows[0];
      if (!order) throw notFound();
      const plan = await this.plan(ctx, order.plan_id, tx);
      if (order.status !== 'active') throw conflict('care.order_not_active');
      await tx.execute(sql`update care_orders set status = 'stopped', stopped_by = ${me},
        stopped_at = ${now.toISOString()}, stop_reason = ${reason}, end_at = greatest(start_at, ${now.toISOString()}::timestamptz)
        where id = ${orderId}`);
      const cancelled = await tx.execute(sql`update care_executions set status = 'cancelled',
          note = ${reason}, recorded_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
        where order_id = ${orderId} and status = 'scheduled' and scheduled_at > ${now.toISOString()}
        returning id`);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.order_stop',
          resourceType: 'care_order',
          resourceId: orderId,
          patientId: plan.p_id,
          details: { cancelled: cancelled.rows.length },
        },
        tx,
      );
    });
    return this.order(orderId);
  }

  // Executions --------------------------------------------------------------------------------------------

  async planExecutions(
    ctx: ServiceContext,
    planId: string,
    f: { from?: string | undefined; to?: string | undefined; status: string },
    page: number,
    pageSize: number,
  ) {
    const plan = await this.plan(ctx, planId);
    const result = await this.executionList(ctx, sql`e.plan_id = ${planId}`, f, page, pageSize);
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
    const conds = [sql`e.hospital_id = ${hospital.id}`, inScope(hospital.id, me, sql`d.id`)];
    if (f.department) conds.push(sql`d.id = ${f.department}`);
    if (f.ward) conds.push(sql`w.id = ${f.ward}`);
    if (f.assignee) conds.push(sql`e.assignee_id = ${f.assignee}`);
    if (f.unassigned === 'true') conds.push(sql`e.assignee_id is null`);
    if (f.late === 'true')
      conds.push(
        sql`e.status = 'scheduled' and e.scheduled_at < ${new Date(this.now().getTime() - GRACE_MINUTES * 60_000).toISOString()}`,
      );
    const result = await this.executionList(ctx, sql.join(conds, sql` and `), f, page, pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.execution_ward',
      resourceType: 'care_execution',
      details: { filters: { ...f }, page, results: result.rows.length },
    });
    return result;
  }

  private async executionList(
    ctx: ServiceContext,
    where: ReturnType<typeof sql>,
    f: { from?: string | undefined; to?: string | undefined; status: string },
    page: number,
    pageSize: number,
  ) {
    const now = this.now();
    const clock = await this.clock(ctx);
    const shift = shiftOf(clock, now);
    const from = f.from ? new Date(f.from) : shift.start;
    const to = f.to ? new Date(f.to) : shift.end;
    if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > 31 * 24 * HOUR)
      throw badRequest({ to: ['care.window_invalid'] });
    const status =
      f.status === 'all'
        ? sql``
        : f.status === 'open'
          ? sql`and e.status = 'scheduled'`
          : sql`and e.status = ${f.status}`;
    const full = sql`${where} and e.scheduled_at >= ${from.toISOString()} and e.scheduled_at < ${to.toISOString()} ${status}`;
    const res = await this.app.db.execute<ExecutionRow>(
      sql`${EXECUTION_SELECT} where ${full} order by e.scheduled_at, e.priority, e.id
        limit ${pageSize} offset ${(page - 1) * pageSize}`,
    );
    const counted = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from care_executions e join care_plans cp on cp.id = e.plan_id ${PLAN_JOINS}
        where ${full}`,
    );
    return { rows: res.rows.map((r) => toExecution(r, now)), count: Number(counted.rows[0]?.n ?? 0) };
  }

  /** Locks an execution of the hospital and checks the caller works in its department. */
  private async lockExecution(tx: Tx, ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const res = await tx.execute<{
      id: string;
      plan_id: string;
      patient_id: string;
      status: TCareExecution['status'];
      assignee_id: string | null;
      scheduled_at: Date | string;
      record_key: string | null;
    }>(sql`select id, plan_id, patient_id, status, assignee_id, scheduled_at, record_key from care_executions
      where id = ${id} and hospital_id = ${hospital.id} for update`);
    const row = res.rows[0];
    if (!row) throw notFound();
    const plan = await this.plan(ctx, row.plan_id, tx);
    return { row, plan };
  }

  /** A nurse of the hospital working in the department (400 otherwise). */
  /**
   * The nurses a task of `departmentId` may be given to: active NURSE and CHARGE_NURSE members of that department,
   * or of the whole hospital (the same rule as `assign`), by name. Staff names only: no patient data.
   */
  async nurses(ctx: ServiceContext, departmentId: string, limit: number, offset: number) {
    const hospital = scopedHospital(ctx);
    const where = sql`m.hospital_id = ${hospital.id} and m.is_active and u.is_active
      and upper(m.role_code) in ${NURSE_ROLES} and (m.department_id is null or m.department_id = ${departmentId})`;
    const rows = await this.app.db.execute<{
      id: string;
      first_name: string;
      last_name: string;
      role_code: string;
      department: string | null;
    }>(sql`select distinct on (u.last_name, u.first_name, u.id) u.id, u.first_name, u.last_name,
        upper(m.role_code) as role_code, m.department_id as department
      from memberships m join users u on u.id = m.user_id
      where ${where}
      order by u.last_name, u.first_name, u.id, m.department_id nulls last
      limit ${limit} offset ${offset}`);
    const counted = await this.app.db.execute<{ n: number }>(sql`select count(distinct u.id)::int as n
      from memberships m join users u on u.id = m.user_id where ${where}`);
    return {
      count: Number(counted.rows[0]?.n ?? 0),
      rows: rows.rows.map((r) => ({
        id: r.id,
        full_name: fullName(r.first_name, r.last_name),
        role_code: r.role_code,
        department: r.department,
      })),
    };
  }

  private async checkNurse(tx: Tx, hospitalId: string, nurseId: string, departmentId: string) {
    const res = await tx.execute<{ n: number }>(sql`select count(*)::int as n from memberships m
      join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.user_id = ${nurseId} and m.is_active and u.is_active
        and upper(m.role_code) in ${NURSE_ROLES} and (m.department_id is null or m.department_id = ${departmentId})`);
    if (Number(res.rows[0]?.n ?? 0) === 0) throw badRequest({ nurse: ['care.nurse_unknown'] });
  }

  /**
   * Assigns an execution to a nurse: `execution_assigned` to her (with the sound), or, when it had another
   * assignee, `execution_reassigned` to both (data.action is the type, as for consultations).
   */
  async assign(ctx: ServiceContext, id: string, nurseId: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.now();
    const previous = await withNotifications(this.app, async (tx, notify) => {
      const { row, plan } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      await this.checkNurse(tx, hospital.id, nurseId, plan.d_id);
      if (row.assignee_id === nurseId) return null;
      await tx.execute(sql`update care_executions set assignee_id = ${nurseId}, assigned_by = ${me},
        assigned_at = ${now.toISOString()}, updated_at = ${now.toISOString()} where id = ${id}`);
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
      const u = await this.app.db.execute<{ first_name: string; last_name: string }>(
        sql`select first_name, last_name from users where id = ${previous}`,
      );
      reassignedFrom = personOf(previous, u.rows[0]?.first_name, u.rows[0]?.last_name);
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
    const now = this.now();
    const at = new Date(body.scheduled_at);
    if (at.getTime() < now.getTime() - HOUR || at.getTime() > now.getTime() + 7 * 24 * HOUR)
      throw badRequest({ scheduled_at: ['care.schedule_range'] });
    await withNotifications(this.app, async (tx, notify) => {
      const { row, plan } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      if (body.nurse) await this.checkNurse(tx, hospital.id, body.nurse, plan.d_id);
      const assignee = body.nurse ?? row.assignee_id;
      await tx.execute(sql`update care_executions set scheduled_at = ${at.toISOString()},
        assignee_id = ${assignee}, assigned_by = ${body.nurse ? me : sql`assigned_by`},
        assigned_at = ${body.nurse ? now.toISOString() : sql`assigned_at`},
        note = coalesce(${body.note ?? null}, note), updated_at = ${now.toISOString()} where id = ${id}`);
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
    const task = await tx.execute<{ title: string; scheduled_at: Date | string }>(
      sql`select o.title, e.scheduled_at from care_executions e join care_orders o on o.id = e.order_id
        where e.id = ${n.executionId}`,
    );
    const clock = await hospitalClock(tx, hospital.id);
    const time = new Intl.DateTimeFormat('fr-FR', {
      timeZone: clock.timeZone,
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(task.rows[0]!.scheduled_at));
    const params = {
      patient: fullName(n.plan.p_first_name, n.plan.p_last_name),
      task: task.rows[0]!.title,
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
    const now = this.now();
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
    const now = this.now();
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
    const now = this.now();
    await this.app.db.transaction(async (tx) => {
      const { row } = await this.lockExecution(tx, ctx, id);
      if (row.status !== 'scheduled') throw conflict('care.execution_closed');
      await tx.execute(sql`update care_executions set status = 'cancelled', note = ${reason},
        recorded_at = ${now.toISOString()}, updated_at = ${now.toISOString()} where id = ${id}`);
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

  /** Whether the caller works in a department (for services sharing the rule). */
  async covers(ctx: ServiceContext, departmentId: string) {
    return covers(await memberScope(this.app.db, scopedHospital(ctx).id, actingUser(ctx).id), departmentId);
  }
}

/**
 * The open work of plans: executions (planCounts) and doses — overdue ones of the last day,
 * due ones of the shift.
 */
async function countsOf(q: Queryable, planIds: string[], clock: HospitalClock, now: Date) {
  const shift = shiftOf(clock, now);
  // One after the other: `q` may be a transaction's one connection.
  const counts = await planCounts(q, planIds, now, shift.end, GRACE_MINUTES);
  const { lines, doses } = await planDoses(
    q,
    planIds,
    new Date(shift.start.getTime() - 24 * HOUR),
    shift.end,
    now,
    clock.timeZone,
  );
  for (const l of lines) {
    const c = counts.get(l.plan_id);
    if (!c) continue;
    for (const d of doses.get(l.id) ?? []) {
      if (d.status === 'overdue') c.overdue += 1;
      else if (d.status === 'due') c.due += 1;
    }
  }
  return counts;
}

const PATIENT_COLUMNS = `p.id as p_id, p.record_number as p_record_number, p.first_name as p_first_name,
  p.last_name as p_last_name, p.sex as p_sex, p.birth_date::text as p_birth_date,
  array_to_json(p.allergies) as p_allergies, p.allergies_recorded as p_allergies_recorded,
  p.deceased_at as p_deceased_at`;

// Orders and materialisation ---------------------------------------------------------------------------------

const ORDER_SELECT = sql`select o.*, array_to_json(o.signs) as signs_json,
    ob.first_name as ob_first, ob.last_name as ob_last, sb.first_name as sb_first, sb.last_name as sb_last
  from care_orders o join users ob on ob.id = o.ordered_by left join users sb on sb.id = o.stopped_by`;

interface OrderRow {
  [k: string]: unknown;
  id: string;
  plan_id: string;
  kind: TCareOrder['kind'];
  title: string;
  instructions: string | null;
  signs_json: string[] | string | null;
  priority: TCareOrder['priority'];
  schedule: TCareSchedule | string;
  start_at: Date | string;
  end_at: Date | string | null;
  status: TCareOrder['status'];
  ordered_by: string;
  ordered_at: Date | string;
  stopped_by: string | null;
  stopped_at: Date | string | null;
  stop_reason: string | null;
  ob_first: string;
  ob_last: string;
  sb_first: string | null;
  sb_last: string | null;
}

function toOrder(r: OrderRow): TCareOrder {
  const signs = typeof r.signs_json === 'string' ? JSON.parse(r.signs_json) : (r.signs_json ?? []);
  return {
    id: r.id,
    plan: r.plan_id,
    kind: r.kind,
    title: r.title,
    instructions: r.instructions,
    signs,
    priority: r.priority,
    schedule: typeof r.schedule === 'string' ? JSON.parse(r.schedule) : r.schedule,
    start_at: isoRequired(r.start_at),
    end_at: iso(r.end_at),
    status: r.status,
    ordered_by: { id: r.ordered_by, full_name: fullName(r.ob_first, r.ob_last) },
    ordered_at: isoRequired(r.ordered_at),
    stopped_by: personOf(r.stopped_by, r.sb_first, r.sb_last),
    stopped_at: iso(r.stopped_at),
    stop_reason: r.stop_reason,
  };
}

export interface MaterializableOrder {
  id: string;
  hospitalId: string;
  planId: string;
  patientId: string;
  schedule: TCareSchedule;
  startAt: Date;
  endAt: Date | null;
  priority: number;
  materializedUntil: Date | null;
}

/**
 * Creates the executions of an order up to `until` (from where it stopped last time, or its start). Idempotent:
 * a slot already there (`care_executions_slot_uq`) is skipped, so two runs at once make each slot once.
 * Returns the number of executions created.
 */
export async function materializeOrder(
  q: Queryable,
  order: MaterializableOrder,
  timeZone: string,
  until: Date,
): Promise<number> {
  const from = order.materializedUntil ?? order.startAt;
  if (until.getTime() <= from.getTime() && order.schedule.kind !== 'once') return 0;
  const slots = scheduleSlots(
    order.schedule,
    order.startAt,
    order.endAt,
    order.schedule.kind === 'once' ? order.startAt : from,
    order.schedule.kind === 'once' ? new Date(order.startAt.getTime() + 1) : until,
    timeZone,
  );
  let created = 0;
  if (slots.length > 0) {
    const rows = await q
      .insert(careExecutions)
      .values(
        slots.map((at) => ({
          hospitalId: order.hospitalId,
          planId: order.planId,
          orderId: order.id,
          patientId: order.patientId,
          slotAt: at,
          scheduledAt: at,
          priority: order.priority,
        })),
      )
      .onConflictDoNothing({ target: [careExecutions.orderId, careExecutions.slotAt] })
      .returning({ id: careExecutions.id });
    created = rows.length;
  }
  const horizon = order.schedule.kind === 'once' ? order.startAt : until;
  await q.execute(sql`update care_orders set materialized_until = greatest(coalesce(materialized_until,
      ${horizon.toISOString()}::timestamptz), ${horizon.toISOString()}::timestamptz)
    where id = ${order.id}`);
  return created;
}

/**
 * The job's work: every active order of open plans whose executions stop before `now + horizon` gets them up to
 * it. Orders of plans whose stay or visit has ended are left alone (their scheduled executions stay visible).
 */
export async function materializeDue(q: Queryable, now: Date, horizonHours = HORIZON_HOURS): Promise<number> {
  const until = new Date(now.getTime() + horizonHours * HOUR);
  const res = await q.execute<{
    id: string;
    hospital_id: string;
    plan_id: string;
    patient_id: string;
    schedule: TCareSchedule | string;
    start_at: Date | string;
    end_at: Date | string | null;
    priority: string;
    materialized_until: Date | string | null;
    time_zone: string;
  }>(sql`select o.id, o.hospital_id, o.plan_id, cp.patient_id, o.schedule, o.start_at, o.end_at,
      o.priority::text as priority, o.materialized_until, h.time_zone
    from care_orders o join care_plans cp on cp.id = o.plan_id join hospitals h on h.id = o.hospital_id
    left join hospitalizations s on s.id = cp.hospitalization_id left join admissions a on a.id = cp.admission_id
    where o.status = 'active' and (o.materialized_until is null or (o.materialized_until < ${until.toISOString()}
        and (o.end_at is null or o.materialized_until < o.end_at)))
      and (case when s.id is not null then s.status in ${OPEN_STAY} else a.status in ${OPEN_VISIT} end)
    order by o.materialized_until nulls first limit 5000`);
  // Orders whose last slot has passed are over.
  await q.execute(sql`update care_orders set status = 'completed'
    where status = 'active' and end_at is not null and end_at < ${now.toISOString()}`);
  let created = 0;
  for (const r of res.rows) {
    created += await materializeOrder(
      q,
      {
        id: r.id,
        hospitalId: r.hospital_id,
        planId: r.plan_id,
        patientId: r.patient_id,
        schedule: typeof r.schedule === 'string' ? JSON.parse(r.schedule) : r.schedule,
        startAt: new Date(r.start_at),
        endAt: r.end_at ? new Date(r.end_at) : null,
        priority: CARE_PRIORITY_RANK[r.priority as keyof typeof CARE_PRIORITY_RANK] ?? 3,
        materializedUntil: r.materialized_until ? new Date(r.materialized_until) : null,
      },
      r.time_zone,
      until,
    );
  }
  return created;
}
