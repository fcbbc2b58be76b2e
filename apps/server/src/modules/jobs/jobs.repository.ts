import type { JobState, TJob } from '@greensen/shared/contracts/jobs';
import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { jobs } from '../../db/schema/index.js';
import { iso, isoRequired } from '../../lib/clinical.js';

export interface JobFilters {
  state?: JobState | undefined;
  name?: string | undefined;
}

/** What an administrator of `hospitalId` sees: that hospital's jobs and the system-wide ones. */
const visibleTo = (hospitalId: string) => or(eq(jobs.hospitalId, hospitalId), isNull(jobs.hospitalId));

const columns = {
  id: jobs.id,
  name: jobs.name,
  state: jobs.state,
  hospitalId: jobs.hospitalId,
  attempts: jobs.attempts,
  maxAttempts: jobs.maxAttempts,
  runAt: jobs.runAt,
  startedAt: jobs.startedAt,
  finishedAt: jobs.finishedAt,
  lastError: jobs.lastError,
  createdAt: jobs.createdAt,
};
type JobRow = { [K in keyof typeof columns]: (typeof columns)[K]['_']['data'] | null };

export function toJob(r: JobRow): TJob {
  return {
    id: r.id!,
    name: r.name!,
    state: r.state!,
    hospital: r.hospitalId,
    attempts: r.attempts!,
    max_attempts: r.maxAttempts!,
    run_at: isoRequired(r.runAt!),
    started_at: iso(r.startedAt),
    finished_at: iso(r.finishedAt),
    last_error: r.lastError,
    created_at: isoRequired(r.createdAt!),
  };
}

/** A page of the jobs an administrator of the hospital sees, latest due first. */
export async function listJobs(
  q: Queryable,
  hospitalId: string,
  f: JobFilters,
  limit: number,
  offset: number,
): Promise<{ count: number; rows: TJob[] }> {
  const where: SQL[] = [visibleTo(hospitalId)!];
  if (f.state) where.push(eq(jobs.state, f.state));
  if (f.name) where.push(eq(jobs.name, f.name));
  const [rows, counted] = await Promise.all([
    q
      .select(columns)
      .from(jobs)
      .where(and(...where))
      .orderBy(desc(jobs.runAt), desc(jobs.id))
      .limit(limit)
      .offset(offset),
    q
      .select({ count: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(...where)),
  ]);
  return { count: Number(counted[0]?.count ?? 0), rows: rows.map(toJob) };
}

/** One job the hospital's administrators see, locked for the rest of the transaction; null otherwise. */
export async function lockVisibleJob(q: Queryable, hospitalId: string, id: string): Promise<TJob | null> {
  const [row] = await q
    .select(columns)
    .from(jobs)
    .where(and(eq(jobs.id, id), visibleTo(hospitalId)))
    .for('update');
  return row ? toJob(row) : null;
}

/** One job by id (after a change). */
export async function findJob(q: Queryable, id: string): Promise<TJob | null> {
  const [row] = await q.select(columns).from(jobs).where(eq(jobs.id, id));
  return row ? toJob(row) : null;
}
