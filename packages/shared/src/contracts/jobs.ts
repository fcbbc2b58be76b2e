/**
 * The background jobs seen by administrators (issue 14, decision 0015): `GET /api/admin/jobs/` lists the jobs
 * of the administrator's hospital and the system-wide ones (mail delivery, purges), newest first;
 * `POST /api/admin/jobs/{id}/retry/` queues a failed job again.
 */
import { z } from 'zod';
import { ZPageQuery, zDateTime, zPage } from './common.js';

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const ZJobsQuery = ZPageQuery.extend({
  state: z.enum(JOB_STATES).optional(),
  /** A job's name (`mail.deliver`). */
  name: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/, 'jobs.name_invalid')
    .max(64)
    .optional(),
});
export type TJobsQuery = z.input<typeof ZJobsQuery>;

export const ZJob = z.object({
  id: z.uuid(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  /** The hospital the job works for; null for system-wide work. */
  hospital: z.uuid().nullable(),
  /** Tries made so far (a retry by an administrator starts again from 0). */
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** When it is (or was) due. */
  run_at: zDateTime,
  started_at: zDateTime.nullable(),
  finished_at: zDateTime.nullable(),
  /** The error of the last failed try (e-mail addresses masked). */
  last_error: z.string().nullable(),
  created_at: zDateTime,
});
export type TJob = z.infer<typeof ZJob>;

export const ZJobList = zPage(ZJob);
export type TJobList = z.infer<typeof ZJobList>;
