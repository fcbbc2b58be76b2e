import type { TJob } from '@greensen/shared/contracts/jobs';
import type { FastifyInstance } from 'fastify';
import { requeueFailed } from '../../jobs/queue.js';
import type { FailedJob } from '../../jobs/runner.js';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { conflict, notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { hospitalAdministrators } from '../notifications/notifications.repository.js';
import { findJob, type JobFilters, listJobs, lockVisibleJob } from './jobs.repository.js';

/**
 * Administrators and the background jobs (decision 0015): an administrator sees the jobs of the hospital
 * they work in and the system-wide ones, and may queue a failed one again. A job of another hospital is not
 * found, like one that does not exist.
 */
export class JobsService {
  constructor(private readonly app: FastifyInstance) {}

  list(ctx: ServiceContext, filters: JobFilters, query: { page: number; page_size: number }) {
    const hospital = scopedHospital(ctx);
    return listJobs(this.app.db, hospital.id, filters, query.page_size, (query.page - 1) * query.page_size);
  }

  /** Queues a failed job again now, with a fresh set of attempts; audited. */
  async retry(ctx: ServiceContext, id: string): Promise<TJob> {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const job = await lockVisibleJob(tx, hospital.id, id);
      if (!job) throw notFound();
      if (job.state !== 'failed') throw conflict('jobs.not_failed');
      await requeueFailed(tx, id, this.app.jobs.now());
      await this.app.audit.record(
        ctx,
        {
          action: 'job.retry',
          resourceType: 'job',
          resourceId: id,
          details: { name: job.name, attempts: job.attempts, last_error: job.last_error },
        },
        tx,
      );
      return (await findJob(tx, id))!;
    });
  }
}

defineMessages({
  'notifications.job_failed.title': {
    fr: 'Tâche de fond en échec : {name}',
    en: 'Background job failed: {name}',
  },
  'notifications.job_failed.message': {
    fr: 'Échec après {attempts} tentative(s) : {error}. Relancez-la depuis Administration → Tâches une fois la cause réglée.',
    en: 'Failed after {attempts} attempt(s): {error}. Retry it from Administration → Jobs once the cause is fixed.',
  },
});

/** No user: every administrator is a recipient (`hospitalAdministrators` leaves one user out). */
const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * A job failed for good: its hospital's administrators are told (notification `other`, action `job_failed`); a
 * system-wide job's failure (mail, purges) is told to the administrators of every hospital, who all see it on their
 * jobs page. Returns the number of notifications created.
 */
export async function notifyJobFailed(app: FastifyInstance, job: FailedJob): Promise<number> {
  const admins = await hospitalAdministrators(app.db, NOBODY);
  let created = 0;
  for (const [hospitalId, recipients] of admins) {
    if (job.hospitalId && hospitalId !== job.hospitalId) continue;
    const rows = await app.notifications.notify(app.db, {
      hospitalId,
      recipients,
      type: 'other',
      title: { key: 'notifications.job_failed.title', params: { name: job.name } },
      message: {
        key: 'notifications.job_failed.message',
        params: { attempts: job.attempts, error: job.error.slice(0, 300) },
      },
      data: { action: 'job_failed', job_id: job.id, name: job.name },
      initiatedBy: null,
    });
    created += rows.length;
  }
  return created;
}
