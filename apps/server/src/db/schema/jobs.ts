import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';
import { hospitals } from './structure.js';

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const jobState = pgEnum('job_state', JOB_STATES);

/**
 * Background jobs (decision 0015): one row per job, taken by whichever instance's worker claims it first
 * (`FOR UPDATE SKIP LOCKED`). A running job holds a lease (`locked_until`) that its worker renews; a lease
 * that runs out (the instance died) makes the job due again. `key` makes scheduling idempotent: one job per
 * (name, key), whatever its state.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** The hospital the job works for; null for system-wide work (mail, purges). */
    hospitalId: uuid('hospital_id').references(() => hospitals.id),
    /** The user whose action caused the job (audited as "on behalf of"), when there is one. */
    onBehalfOf: uuid('on_behalf_of'),
    key: text('key'),
    state: jobState('state').notNull().default('queued'),
    /** When the job is due (queued), or was due (running, done, failed). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** The current (or last) run: its id ties log lines and audit rows to it, and guards its completion. */
    runId: uuid('run_id'),
    /** The instance running it. */
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('jobs_name_key_uq').on(t.name, t.key).where(sql`${t.key} is not null`),
    // The workers' poll: due queued jobs (state, run_at), and running jobs whose lease ran out.
    index('jobs_state_time_idx').on(t.state, t.runAt),
    index('jobs_lease_idx').on(t.lockedUntil).where(sql`${t.state} = 'running'`),
    // The administrators' list, latest due first: unfiltered, by state (above), by name; the purge.
    index('jobs_time_idx').on(t.runAt),
    index('jobs_name_time_idx').on(t.name, t.runAt),
    index('jobs_hospital_time_idx').on(t.hospitalId, t.runAt),
    index('jobs_finished_idx').on(t.state, t.finishedAt).where(sql`${t.finishedAt} is not null`),
  ],
);
