import type { TFluid, TVitalsRecord } from '@greensen/shared/contracts/care';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { careFluids, careVitals } from '../../db/schema/index.js';
import { type FluidRow, toFluid, toVitals, VITALS_SELECT, type VitalsRow } from './care.repository.js';

/** The ward's sets of vitals and the intake/output of care plans (the patient's whole series: vital-signs.repository). */

/** Whether an execution is a vitals task of the plan. */
export async function isVitalsTaskOfPlan(
  q: Queryable,
  executionId: string,
  planId: string,
): Promise<boolean> {
  const ex = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from care_executions e join care_orders o on o.id = e.order_id
          where e.id = ${executionId} and e.plan_id = ${planId} and o.kind = 'vitals'`,
  );
  return Number(ex.rows[0]?.n ?? 0) > 0;
}

/** Records a set, unless its key is kept already (`care_vitals_key_uq`): its id, or null. */
export async function insertVitalsUnlessKept(
  q: Queryable,
  values: typeof careVitals.$inferInsert,
): Promise<string | null> {
  const [row] = await q
    .insert(careVitals)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: careVitals.id });
  return row?.id ?? null;
}

/** A page of a plan's sets, the latest first, and their number. */
export async function planVitalsPage(
  q: Queryable,
  planId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TVitalsRecord[]; count: number }> {
  const res = await q.execute<VitalsRow>(
    sql`${VITALS_SELECT} where v.plan_id = ${planId} order by v.recorded_at desc
        limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from care_vitals where plan_id = ${planId}`,
  );
  return { rows: res.rows.map(toVitals), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function insertFluid(q: Queryable, values: typeof careFluids.$inferInsert): Promise<string> {
  const [row] = await q.insert(careFluids).values(values).returning({ id: careFluids.id });
  return row!.id;
}

/** An intake or output by id (it exists: the caller has just written it). */
export async function fluidById(q: Queryable, id: string): Promise<TFluid> {
  const res = await q.execute<FluidRow>(
    sql`select f.*, u.first_name as u_first, u.last_name as u_last from care_fluids f
        join users u on u.id = f.recorded_by where f.id = ${id}`,
  );
  return toFluid(res.rows[0]!);
}

/** A plan's intake and output in `[start, end)`, summed by day of `timeZone` and direction. */
export async function fluidTotalsByDay(
  q: Queryable,
  planId: string,
  start: Date,
  end: Date,
  timeZone: string,
) {
  const res = await q.execute<{ day: string; direction: string; total: number }>(
    sql`select ((f.recorded_at at time zone ${timeZone})::date)::text as day, f.direction,
          sum(f.volume_ml)::int as total
        from care_fluids f where f.plan_id = ${planId}
          and f.recorded_at >= ${start.toISOString()} and f.recorded_at < ${end.toISOString()}
        group by 1, 2`,
  );
  return res.rows;
}
