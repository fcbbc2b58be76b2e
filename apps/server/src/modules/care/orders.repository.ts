import type { TCareOrder, TCareSchedule } from '@greensen/shared/contracts/care';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { careExecutions, careOrders } from '../../db/schema/index.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { PLAN_IS_OPEN, personOf } from './care.repository.js';

const ORDER_SELECT = sql`select o.*, array_to_json(o.signs) as signs_json,
    ob.first_name as ob_first, ob.last_name as ob_last, sb.first_name as sb_first, sb.last_name as sb_last
  from care_orders o join users ob on ob.id = o.ordered_by left join users sb on sb.id = o.stopped_by`;

/** What ORDER_SELECT reads. */
type OrderRow = {
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
};

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

/** A page of a plan's orders (`active`: those still active), the latest first, and their number. */
export async function planOrders(
  q: Queryable,
  planId: string,
  status: 'active' | 'all',
  limit: number,
  offset: number,
): Promise<{ rows: TCareOrder[]; count: number }> {
  const where = status === 'active' ? sql`and o.status = 'active'` : sql``;
  const res = await q.execute<OrderRow>(
    sql`${ORDER_SELECT} where o.plan_id = ${planId} ${where} order by o.ordered_at desc
        limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from care_orders o where o.plan_id = ${planId} ${where}`,
  );
  return { rows: res.rows.map(toOrder), count: Number(counted.rows[0]?.n ?? 0) };
}

/** An order by id (it exists: the caller has just read or written it). */
export async function orderById(q: Queryable, id: string): Promise<TCareOrder> {
  const res = await q.execute<OrderRow>(sql`${ORDER_SELECT} where o.id = ${id}`);
  return toOrder(res.rows[0]!);
}

export async function insertOrder(q: Queryable, values: typeof careOrders.$inferInsert): Promise<string> {
  const [order] = await q.insert(careOrders).values(values).returning({ id: careOrders.id });
  return order!.id;
}

/** Locks an order of the hospital (null: none). */
export async function lockOrder(
  q: Queryable,
  hospitalId: string,
  orderId: string,
): Promise<{ plan_id: string; status: string } | null> {
  const res = await q.execute<{ plan_id: string; status: string }>(
    sql`select plan_id, status from care_orders where id = ${orderId} and hospital_id = ${hospitalId}
          for update`,
  );
  return res.rows[0] ?? null;
}

/** Stops an order now: it ends now (or at its start, when it has not started). */
export async function markOrderStopped(
  q: Queryable,
  orderId: string,
  stop: { by: string; at: Date; reason: string },
): Promise<void> {
  await q.execute(sql`update care_orders set status = 'stopped', stopped_by = ${stop.by},
        stopped_at = ${stop.at.toISOString()}, stop_reason = ${stop.reason}, end_at = greatest(start_at, ${stop.at.toISOString()}::timestamptz)
        where id = ${orderId}`);
}

/** Cancels an order's executions still scheduled after `now`: how many. */
export async function cancelFutureExecutions(
  q: Queryable,
  orderId: string,
  reason: string,
  now: Date,
): Promise<number> {
  const cancelled = await q.execute(sql`update care_executions set status = 'cancelled',
          note = ${reason}, recorded_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
        where order_id = ${orderId} and status = 'scheduled' and scheduled_at > ${now.toISOString()}
        returning id`);
  return cancelled.rows.length;
}

/**
 * Creates executions, skipping a slot already there (`care_executions_slot_uq`): the number created.
 */
export async function insertExecutionSlots(
  q: Queryable,
  rows: (typeof careExecutions.$inferInsert)[],
): Promise<number> {
  const inserted = await q
    .insert(careExecutions)
    .values(rows)
    .onConflictDoNothing({ target: [careExecutions.orderId, careExecutions.slotAt] })
    .returning({ id: careExecutions.id });
  return inserted.length;
}

/** An order's executions exist up to `horizon` (never moved back). */
export async function markMaterializedUntil(q: Queryable, orderId: string, horizon: Date): Promise<void> {
  await q.execute(sql`update care_orders set materialized_until = greatest(coalesce(materialized_until,
      ${horizon.toISOString()}::timestamptz), ${horizon.toISOString()}::timestamptz)
    where id = ${orderId}`);
}

/** An order to materialise, as ordersToMaterialize reads it. */
export type OrderToMaterializeRow = {
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
};

/**
 * The active orders of open plans whose executions stop before `until` (and before the order's end), the
 * least advanced first, 5,000 at most, with their hospital's time zone.
 */
export async function ordersToMaterialize(q: Queryable, until: Date): Promise<OrderToMaterializeRow[]> {
  const res =
    await q.execute<OrderToMaterializeRow>(sql`select o.id, o.hospital_id, o.plan_id, cp.patient_id, o.schedule, o.start_at, o.end_at,
      o.priority::text as priority, o.materialized_until, h.time_zone
    from care_orders o join care_plans cp on cp.id = o.plan_id join hospitals h on h.id = o.hospital_id
    left join hospitalizations s on s.id = cp.hospitalization_id left join admissions a on a.id = cp.admission_id
    where o.status = 'active' and (o.materialized_until is null or (o.materialized_until < ${until.toISOString()}
        and (o.end_at is null or o.materialized_until < o.end_at)))
      and ${PLAN_IS_OPEN}
    order by o.materialized_until nulls first limit 5000`);
  return res.rows;
}

/** Active orders whose end has passed are completed. */
export async function completeEndedOrders(q: Queryable, now: Date): Promise<void> {
  await q.execute(sql`update care_orders set status = 'completed'
    where status = 'active' and end_at is not null and end_at < ${now.toISOString()}`);
}
