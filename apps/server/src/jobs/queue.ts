import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { uuidv7 } from '../db/schema/common.js';
import { deleteInBatches, PURGE_BATCH, sqlList } from '../lib/queries.js';

/**
 * The jobs table's statements (decision 0015), one code path for PostgreSQL and the embedded engine. Every
 * instant comes from the caller's clock (`now`), so that tests can move time; instances' clocks are assumed in
 * step (NTP), the lease being far longer than any drift.
 */

/** Woken up by `pg_notify` when a job is due now (on PostgreSQL, the other instances too). */
export const JOBS_CHANNEL = 'greensen_jobs';

export interface EnqueueValues {
  name: string;
  payload: Record<string, unknown>;
  key: string | null;
  hospitalId: string | null;
  onBehalfOf: string | null;
  runAt: Date;
  maxAttempts: number;
}

/**
 * Inserts a job, or nothing when one with the same (name, key) exists in any state. Returns the job's id and
 * whether this call created it. A job due at once wakes the workers (after the transaction commits).
 */
export async function insertJob(
  q: Queryable,
  v: EnqueueValues,
  now: Date,
): Promise<{ id: string; created: boolean }> {
  const inserted = await q.execute<{ id: string }>(sql`
    insert into jobs (id, name, payload, key, hospital_id, on_behalf_of, run_at, max_attempts, created_at)
    values (${uuidv7()}, ${v.name}, ${JSON.stringify(v.payload)}::jsonb, ${v.key}, ${v.hospitalId},
            ${v.onBehalfOf}, ${v.runAt.toISOString()}::timestamptz, ${v.maxAttempts},
            ${now.toISOString()}::timestamptz)
    on conflict (name, key) where key is not null do nothing
    returning id`);
  const row = inserted.rows[0];
  if (row) {
    if (v.runAt.getTime() <= now.getTime())
      await q.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${v.name})`);
    return { id: row.id, created: true };
  }
  const existing = await q.execute<{ id: string }>(
    sql`select id from jobs where name = ${v.name} and key = ${v.key}`,
  );
  return { id: existing.rows[0]!.id, created: false };
}

export type ClaimedJob = {
  id: string;
  name: string;
  /** The job's own JSON arguments (free-form per job name; a string when the driver does not parse it). */
  payload: Record<string, unknown> | string;
  hospital_id: string | null;
  on_behalf_of: string | null;
  attempts: number;
  max_attempts: number;
  run_id: string;
};

/**
 * Takes up to `limit` due jobs of the given names for this instance: queued ones whose time has come, and
 * running ones whose lease ran out (their instance died; this counts as a new attempt). `SKIP LOCKED` lets
 * every instance poll at once: a row another transaction is claiming is skipped, never taken twice.
 */
export async function claimJobs(
  q: Queryable,
  o: { names: readonly string[]; limit: number; instance: string; now: Date; leaseMs: number },
): Promise<ClaimedJob[]> {
  if (o.names.length === 0 || o.limit <= 0) return [];
  const now = o.now.toISOString();
  const until = new Date(o.now.getTime() + o.leaseMs).toISOString();
  const res = await q.execute<ClaimedJob>(sql`
    with due as (
      select id from jobs
      where name in (${sqlList(o.names)})
        and ((state = 'queued' and run_at <= ${now}::timestamptz)
          or (state = 'running' and locked_until < ${now}::timestamptz))
      order by run_at, id
      limit ${o.limit}
      for update skip locked
    )
    update jobs j
    set state = 'running', attempts = j.attempts + 1, run_id = gen_random_uuid(), locked_by = ${o.instance},
        locked_until = ${until}::timestamptz, started_at = ${now}::timestamptz, finished_at = null
    from due where j.id = due.id
    returning j.id, j.name, j.payload, j.hospital_id, j.on_behalf_of, j.attempts, j.max_attempts, j.run_id`);
  return res.rows;
}

/**
 * Running jobs whose lease ran out after their last allowed attempt: failed (an instance died on each try,
 * perhaps because of the job itself), instead of being taken again.
 */
export async function failAbandoned(q: Queryable, names: readonly string[], now: Date): Promise<number> {
  if (names.length === 0) return 0;
  const at = now.toISOString();
  const res = await q.execute<{ id: string }>(sql`
    update jobs set state = 'failed', finished_at = ${at}::timestamptz, locked_by = null, locked_until = null,
      last_error = 'interrupted: its instance stopped before it finished (lease expired), ' || attempts || ' attempt(s)'
    where name in (${sqlList(names)}) and state = 'running' and locked_until < ${at}::timestamptz
      and attempts >= max_attempts
    returning id`);
  return res.rows.length;
}

/** Renews a run's lease; false when the run lost it (another instance took the job over). */
export async function renewLease(q: Queryable, runId: string, now: Date, leaseMs: number): Promise<boolean> {
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const res = await q.execute<{ id: string }>(sql`
    update jobs set locked_until = ${until}::timestamptz
    where run_id = ${runId} and state = 'running' returning id`);
  return res.rows.length === 1;
}

/** The run finished: `done`. Nothing happens when the run lost its lease meanwhile. */
export async function completeRun(q: Queryable, runId: string, now: Date): Promise<boolean> {
  const res = await q.execute<{ id: string }>(sql`
    update jobs set state = 'done', finished_at = ${now.toISOString()}::timestamptz, locked_by = null,
      locked_until = null, last_error = null
    where run_id = ${runId} and state = 'running' returning id`);
  return res.rows.length === 1;
}

/**
 * The run failed: queued again at `retryAt`, or `failed` for good (`retryAt` null: last attempt, or an error
 * that no retry can mend). The error is kept either way.
 */
export async function failRun(
  q: Queryable,
  runId: string,
  error: string,
  retryAt: Date | null,
  now: Date,
): Promise<boolean> {
  const res = await q.execute<{ id: string }>(
    retryAt
      ? sql`update jobs set state = 'queued', run_at = ${retryAt.toISOString()}::timestamptz, locked_by = null,
              locked_until = null, last_error = ${error}
            where run_id = ${runId} and state = 'running' returning id`
      : sql`update jobs set state = 'failed', finished_at = ${now.toISOString()}::timestamptz, locked_by = null,
              locked_until = null, last_error = ${error}
            where run_id = ${runId} and state = 'running' returning id`,
  );
  return res.rows.length === 1;
}

/** A failed job queued again now with a fresh set of attempts; false when it is not failed (any more). */
export async function requeueFailed(q: Queryable, id: string, now: Date): Promise<boolean> {
  const res = await q.execute<{ id: string }>(sql`
    update jobs set state = 'queued', run_at = ${now.toISOString()}::timestamptz, attempts = 0, finished_at = null
    where id = ${id} and state = 'failed' returning name`);
  if (res.rows.length === 0) return false;
  await q.execute(sql`select pg_notify(${JOBS_CHANNEL}, 'retry')`);
  return true;
}

/** Finished jobs past their keeping time: done ones after `doneBefore`, failed ones after `failedBefore`. */
export function purgeFinishedJobs(q: Queryable, doneBefore: Date, failedBefore: Date): Promise<number> {
  return deleteInBatches(
    q,
    sql`delete from jobs where id in (
      select id from jobs
      where (state = 'done' and finished_at < ${doneBefore.toISOString()}::timestamptz)
         or (state = 'failed' and finished_at < ${failedBefore.toISOString()}::timestamptz)
      limit ${PURGE_BATCH}) returning id`,
  );
}

/**
 * The setting that holds every background job (a restored installation starts with it, decision 0058): the
 * workers claim nothing — no mail, no SMS — until an administrator releases them.
 */
const JOBS_HELD = 'jobs_held';

export async function jobsHeld(q: Queryable): Promise<boolean> {
  const res = await q.execute<{ value: string }>(
    sql`select value from app_settings where key = ${JOBS_HELD}`,
  );
  return res.rows[0]?.value === 'true';
}

export async function setJobsHeld(q: Queryable, held: boolean, userId: string | null): Promise<void> {
  await q.execute(sql`
    insert into app_settings (key, value, updated_by, updated_at) values (${JOBS_HELD}, ${String(held)}, ${userId}, now())
    on conflict (key) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()`);
}
