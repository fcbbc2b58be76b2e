import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { purgeOldMail } from '../lib/mail.js';
import { REFRESH_TOKEN_TTL_S } from '../lib/tokens.js';
import { purgeExpiredAuth } from '../modules/auth/auth.repository.js';
import { purgeFinishedJobs } from './queue.js';
import type { JobDefinition, Jobs } from './runner.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Mail kept after it was written: its links expire within 48 hours; a week later it is of no use. */
export const MAIL_KEPT_MS = 7 * DAY_MS;
/** Done jobs are kept a week, failed ones a month (administrators look at them). */
export const DONE_JOBS_KEPT_MS = 7 * DAY_MS;
export const FAILED_JOBS_KEPT_MS = 30 * DAY_MS;

/**
 * `maintenance.purge` (hourly): expired mail links and refresh tokens, sessions that can no longer be used,
 * old mail and old finished jobs. One audit row with the counts, by the system.
 */
export function purgeJob(app: FastifyInstance, jobs: Jobs): JobDefinition<z.ZodObject> {
  return {
    name: 'maintenance.purge',
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    rule: 'maintenance.purge',
    async run(_payload, { ctx }) {
      const now = jobs.now();
      const ago = (ms: number) => new Date(now.getTime() - ms);
      await app.db.transaction(async (tx) => {
        const auth = await purgeExpiredAuth(tx, now, ago(REFRESH_TOKEN_TTL_S * 1000));
        const mail = await purgeOldMail(tx, ago(MAIL_KEPT_MS));
        const finished = await purgeFinishedJobs(tx, ago(DONE_JOBS_KEPT_MS), ago(FAILED_JOBS_KEPT_MS));
        await app.audit.record(
          ctx,
          {
            action: 'system.purge',
            resourceType: 'system',
            details: { ...auth, mail, jobs: finished },
          },
          tx,
        );
        ctx.log.info({ ...auth, mail, jobs: finished }, 'purge done');
      });
    },
  };
}
