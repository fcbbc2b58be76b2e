import type { TJob } from '@greensen/shared/contracts/jobs';
import type { FastifyInstance } from 'fastify';
import { requeueFailed } from '../../jobs/queue.js';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { conflict, notFound } from '../../lib/errors.js';
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
