import type { News2Result } from '@greensen/shared/domain/news2';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { careHandoffs } from '../../db/schema/index.js';
import { inScope, PLAN_COLUMNS, PLAN_FROM, PLAN_IS_OPEN, type PlanRow } from './care.repository.js';

const HANDOFF_SELECT = sql`select ho.*, au.first_name as au_first, au.last_name as au_last,
    ak.first_name as ak_first, ak.last_name as ak_last, ${PLAN_COLUMNS} ${PLAN_FROM}
  join care_handoffs ho on ho.plan_id = cp.id
  join users au on au.id = ho.author_id left join users ak on ak.id = ho.acknowledged_by`;

/** What HANDOFF_SELECT reads: the handoff, its author and acknowledger, and its plan. */
export type HandoffRow = PlanRow & {
  id: string;
  shift_start: Date | string;
  shift_end: Date | string;
  shift_label: string;
  situation: string;
  background: string;
  assessment: string;
  recommendation: string;
  changes: unknown;
  author_id: string;
  au_first: string;
  au_last: string;
  written_at: Date | string;
  acknowledged_by: string | null;
  ak_first: string | null;
  ak_last: string | null;
  acknowledged_at: Date | string | null;
  acknowledge_note: string | null;
};

// What changed for a plan in a shift `[from, to)`, oldest first -------------------------------------------------

/** The plan's sets of vitals recorded in `[from, to)`, with their NEWS2. */
export async function vitalsRecordedIn(q: Queryable, planId: string, from: Date, to: Date) {
  const res = await q.execute<{ recorded_at: Date | string; news2: News2Result | string | null }>(
    sql`select recorded_at, news2 from care_vitals where plan_id = ${planId}
          and recorded_at >= ${from.toISOString()} and recorded_at < ${to.toISOString()} order by recorded_at`,
  );
  return res.rows;
}

/** The plan's doses recorded not given in `[from, to)`, with their medication's name, by scheduled time. */
export async function dosesNotGivenIn(q: Queryable, planId: string, from: Date, to: Date) {
  const res = await q.execute<{
    scheduled_at: Date | string;
    reason: string;
    inn_fr: string;
    inn_en: string;
  }>(
    sql`select ma.scheduled_at, ma.reason, m.inn_fr, m.inn_en from medication_administrations ma
          join prescription_lines l on l.id = ma.prescription_line_id join medications m on m.id = l.medication_id
          where ma.plan_id = ${planId} and ma.outcome = 'not_given'
            and ma.recorded_at >= ${from.toISOString()} and ma.recorded_at < ${to.toISOString()} order by ma.scheduled_at`,
  );
  return res.rows;
}

/** The plan's orders given in `[from, to)`. */
export async function ordersGivenIn(q: Queryable, planId: string, from: Date, to: Date) {
  const res = await q.execute<{ ordered_at: Date | string; title: string }>(
    sql`select ordered_at, title from care_orders where plan_id = ${planId}
          and ordered_at >= ${from.toISOString()} and ordered_at < ${to.toISOString()} order by ordered_at`,
  );
  return res.rows;
}

/** The plan's executions recorded not done in `[from, to)`, with their order's title and the reason. */
export async function executionsNotDoneIn(q: Queryable, planId: string, from: Date, to: Date) {
  const res = await q.execute<{ recorded_at: Date | string; title: string; not_done_reason: string }>(
    sql`select ex.recorded_at, o.title, ex.not_done_reason from care_executions ex
          join care_orders o on o.id = ex.order_id
          where ex.plan_id = ${planId} and ex.status = 'not_done'
            and ex.recorded_at >= ${from.toISOString()} and ex.recorded_at < ${to.toISOString()} order by ex.recorded_at`,
  );
  return res.rows;
}

/** The patient's exam results validated in `[from, to)`, with the exam's name. */
export async function resultsValidatedIn(q: Queryable, patientId: string, from: Date, to: Date) {
  const res = await q.execute<{
    validated_at: Date | string;
    name_fr: string;
    name_en: string;
    abnormal: boolean;
  }>(
    sql`select x.validated_at, c.name_fr, c.name_en, x.abnormal from exam_orders x
          join exam_catalogue c on c.id = x.exam_id
          where x.patient_id = ${patientId} and x.validated_at >= ${from.toISOString()} and x.validated_at < ${to.toISOString()}
          order by x.validated_at`,
  );
  return res.rows;
}

// The draft ---------------------------------------------------------------------------------------------------

/** The reason of the plan's stay or visit (null: none given). */
export async function planReason(q: Queryable, planId: string): Promise<string | null> {
  const res = await q.execute<{ reason: string | null }>(
    sql`select coalesce(s.reason, a.reason) as reason from care_plans cp
          left join hospitalizations s on s.id = cp.hospitalization_id left join admissions a on a.id = cp.admission_id
          where cp.id = ${planId}`,
  );
  return res.rows[0]?.reason ?? null;
}

/** The plan's open tasks scheduled before `before`, one per order title at its earliest time, 10 at most. */
export async function openTasksBefore(q: Queryable, planId: string, before: Date) {
  const res = await q.execute<{ title: string; scheduled_at: Date | string }>(
    sql`select o.title, min(e.scheduled_at) as scheduled_at from care_executions e
          join care_orders o on o.id = e.order_id
          where e.plan_id = ${planId} and e.status = 'scheduled' and e.scheduled_at < ${before.toISOString()}
          group by o.title order by 2 limit 10`,
  );
  return res.rows;
}

/** The handoff of the plan for the shift starting at `shiftStart` (null: none yet). */
export async function handoffOfShift(q: Queryable, planId: string, shiftStart: Date): Promise<string | null> {
  const res = await q.execute<{ id: string }>(
    sql`select id from care_handoffs where plan_id = ${planId} and shift_start = ${shiftStart.toISOString()}`,
  );
  return res.rows[0]?.id ?? null;
}

// Handoffs ------------------------------------------------------------------------------------------------------

/** Writes a handoff (a unique violation when the plan has one for the shift). */
export async function insertHandoff(q: Queryable, values: typeof careHandoffs.$inferInsert): Promise<string> {
  const [row] = await q.insert(careHandoffs).values(values).returning({ id: careHandoffs.id });
  return row!.id;
}

/** A handoff of the hospital with its plan (null: none). */
export async function findHandoff(q: Queryable, hospitalId: string, id: string): Promise<HandoffRow | null> {
  const res = await q.execute<HandoffRow>(
    sql`${HANDOFF_SELECT} where ho.id = ${id} and ho.hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** Locks a handoff of the hospital (null: none). */
export async function lockHandoff(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    plan_id: string;
    patient_id: string;
    author_id: string;
    acknowledged_at: Date | null;
  }>(
    sql`select plan_id, patient_id, author_id, acknowledged_at from care_handoffs
          where id = ${id} and hospital_id = ${hospitalId} for update`,
  );
  return res.rows[0] ?? null;
}

export async function markHandoffAcknowledged(
  q: Queryable,
  id: string,
  by: string,
  at: Date,
  note: string | null,
): Promise<void> {
  await q.execute(sql`update care_handoffs set acknowledged_by = ${by}, acknowledged_at = ${at.toISOString()},
        acknowledge_note = ${note} where id = ${id}`);
}

/** The plans a handoff list reads: of the departments `userId` works in, or one department or ward of them. */
export type HandoffScope = {
  hospitalId: string;
  userId: string;
  department?: string | undefined;
  ward?: string | undefined;
};

function inHandoffScope(s: HandoffScope): SQL {
  const scope = [inScope(s.hospitalId, s.userId, sql`d.id`)];
  if (s.department) scope.push(sql`d.id = ${s.department}`);
  if (s.ward) scope.push(sql`w.id = ${s.ward}`);
  return sql.join(scope, sql` and `);
}

/** A page of the open plans of the scope without a handoff for the shift starting at `shiftStart`, by place. */
export async function openPlansWithoutHandoff(
  q: Queryable,
  scope: HandoffScope,
  shiftStart: Date,
  limit: number,
  offset: number,
): Promise<{ rows: PlanRow[]; count: number }> {
  const base = sql`${PLAN_FROM} where cp.hospital_id = ${scope.hospitalId} and ${inHandoffScope(scope)}
        and ${PLAN_IS_OPEN}
        and not exists (select 1 from care_handoffs h2 where h2.plan_id = cp.id and h2.shift_start = ${shiftStart.toISOString()})`;
  const res = await q.execute<PlanRow>(
    sql`select ${PLAN_COLUMNS} ${base} order by w.name nulls last, b.label nulls last, cp.created_at
          limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n ${base}`);
  return { rows: res.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * Which handoffs a box holds: not acknowledged, of a patient still here, written by someone else than `me` since
 * `since` (`to_acknowledge`); all those not acknowledged of a patient still here (`unacknowledged`); all those
 * written since `since` (`all`).
 */
export type HandoffBox =
  | { box: 'to_acknowledge'; me: string; since: Date }
  | { box: 'unacknowledged' }
  | { box: 'all'; since: Date };

function inBox(b: HandoffBox): SQL {
  return b.box === 'to_acknowledge'
    ? sql`and ho.acknowledged_at is null and ho.author_id <> ${b.me} and ho.shift_start >= ${b.since.toISOString()} and ${PLAN_IS_OPEN}`
    : b.box === 'unacknowledged'
      ? sql`and ho.acknowledged_at is null and ${PLAN_IS_OPEN}`
      : sql`and ho.shift_start >= ${b.since.toISOString()}`;
}

/** A page of the handoffs of the scope in a box, the latest shift first, then by place, and their number. */
export async function handoffPage(
  q: Queryable,
  scope: HandoffScope,
  box: HandoffBox,
  limit: number,
  offset: number,
): Promise<{ rows: HandoffRow[]; count: number }> {
  const where = inHandoffScope(scope);
  const inIt = inBox(box);
  const res = await q.execute<HandoffRow>(
    sql`${HANDOFF_SELECT} where ho.hospital_id = ${scope.hospitalId} and ${where} ${inIt}
        order by ho.shift_start desc, w.name nulls last, b.label nulls last, ho.written_at
        limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (${HANDOFF_SELECT} where ho.hospital_id = ${scope.hospitalId} and ${where} ${inIt}) t`,
  );
  return { rows: res.rows, count: Number(counted.rows[0]?.n ?? 0) };
}
