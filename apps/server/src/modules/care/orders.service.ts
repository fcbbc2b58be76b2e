import {
  CARE_PRIORITY_RANK,
  type TCareOrder,
  type TCareOrderCreate,
  type TCareSchedule,
  ZCareOrderCreate,
} from '@greensen/shared/contracts/care';
import { scheduleSlots } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { hospitalClock } from './care.context.js';
import type { CareService } from './care.service.js';
import {
  cancelFutureExecutions,
  completeEndedOrders,
  insertExecutionSlots,
  insertOrder,
  lockOrder,
  markMaterializedUntil,
  markOrderStopped,
  orderById,
  ordersToMaterialize,
  planOrders,
} from './orders.repository.js';

/** Executions exist this far ahead (the job and each new order materialise up to it). */
export const HORIZON_HOURS = 48;
/** An order created with a start in the past materialises from at most this far back. */
const BACKFILL_HOURS = 24;
const HOUR = 3_600_000;

/**
 * The orders of a care plan (issue 20, decision 0025) and the executions they make: an order is materialised
 * into executions up to HORIZON_HOURS ahead, when created and by the `care.materialize` job.
 */
export class OrdersService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {}

  async orders(
    ctx: ServiceContext,
    planId: string,
    status: 'active' | 'all',
    page: number,
    pageSize: number,
  ) {
    const row = await this.care.plan(ctx, planId);
    const result = await planOrders(this.app.db, planId, status, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.order_list',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: row.p_id,
      details: { status, page },
    });
    return result;
  }

  async createOrder(ctx: ServiceContext, planId: string, input: TCareOrderCreate): Promise<TCareOrder> {
    const body = ZCareOrderCreate.parse(input);
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const id = await this.app.db.transaction(async (tx) => {
      const plan = await this.care.plan(ctx, planId, tx);
      if (!plan.is_open) throw conflict('care.plan_closed');
      const startAt = body.start_at ? new Date(body.start_at) : now;
      if (startAt.getTime() < now.getTime() - BACKFILL_HOURS * HOUR)
        throw badRequest({ start_at: ['care.start_too_old'] });
      const endAt =
        body.schedule.kind === 'once' || !body.days
          ? null
          : new Date(startAt.getTime() + body.days * 24 * HOUR);
      const orderId = await insertOrder(tx, {
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
      });
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
    return orderById(this.app.db, id);
  }

  /** Stops an order: its executions still scheduled in the future are cancelled. */
  async stopOrder(ctx: ServiceContext, orderId: string, reason: string): Promise<TCareOrder> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    await this.app.db.transaction(async (tx) => {
      const order = await lockOrder(tx, hospital.id, orderId);
      if (!order) throw notFound();
      const plan = await this.care.plan(ctx, order.plan_id, tx);
      if (order.status !== 'active') throw conflict('care.order_not_active');
      await markOrderStopped(tx, orderId, { by: me, at: now, reason });
      const cancelled = await cancelFutureExecutions(tx, orderId, reason, now);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.order_stop',
          resourceType: 'care_order',
          resourceId: orderId,
          patientId: plan.p_id,
          details: { cancelled },
        },
        tx,
      );
    });
    return orderById(this.app.db, orderId);
  }
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
    created = await insertExecutionSlots(
      q,
      slots.map((at) => ({
        hospitalId: order.hospitalId,
        planId: order.planId,
        orderId: order.id,
        patientId: order.patientId,
        slotAt: at,
        scheduledAt: at,
        priority: order.priority,
      })),
    );
  }
  const horizon = order.schedule.kind === 'once' ? order.startAt : until;
  await markMaterializedUntil(q, order.id, horizon);
  return created;
}

/**
 * The job's work: every active order of open plans whose executions stop before `now + horizon` gets them up to
 * it. Orders of plans whose stay or visit has ended are left alone (their scheduled executions stay visible).
 */
export async function materializeDue(q: Queryable, now: Date, horizonHours = HORIZON_HOURS): Promise<number> {
  const until = new Date(now.getTime() + horizonHours * HOUR);
  const due = await ordersToMaterialize(q, until);
  // Orders whose last slot has passed are over.
  await completeEndedOrders(q, now);
  let created = 0;
  for (const r of due) {
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
