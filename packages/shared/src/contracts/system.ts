import { z } from 'zod';

/**
 * `GET /api/health/` (decision 0058): `unavailable` (503) when the database or the file store cannot be reached;
 * `degraded` (200, logged as an error, shown to administrators on the jobs page) when the instance serves but Redis
 * is lost, the job worker stopped, or the jobs held after a restore.
 */
export const HEALTH_PROBLEMS = ['database', 'file_store', 'redis', 'jobs_worker'] as const;

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  file_store: z.enum(['ok', 'unavailable']),
  file_store_kind: z.enum(['database', 'disk']),
  redis: z.enum(['ok', 'unavailable', 'not_configured']),
  jobs_worker: z.enum(['running', 'stopped', 'held', 'off']),
  /** What makes the instance unavailable or degraded, by the names above. */
  problems: z.array(z.enum(HEALTH_PROBLEMS)),
});
export type THealth = z.infer<typeof ZHealth>;
