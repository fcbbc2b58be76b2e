import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { purgeJob } from '../jobs/purge.js';
import { Jobs } from '../jobs/runner.js';
import { notifyJobFailed } from '../modules/jobs/jobs.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

export interface JobsPluginOptions {
  /** The jobs' clock (tests move it); the system clock when absent. */
  now?: (() => Date) | undefined;
  /** How long closing the app waits for running jobs (default 5 s). */
  stopTimeoutMs?: number | undefined;
  /** A running job's lease (default 60 s). */
  leaseMs?: number | undefined;
}

/**
 * The job system (decision 0015). Modules define their jobs and schedules while the app is built; the worker
 * loop starts when the app is ready (after the migrations in main.ts) unless `JOBS_WORKER=off`, and stops
 * before the database closes.
 */
export default fp(
  async (app: FastifyInstance, opts: JobsPluginOptions) => {
    const jobs = new Jobs({
      database: app.database,
      log: app.log,
      now: opts.now,
      concurrency: app.config.jobsConcurrency,
      pollMs: app.config.jobsPollMs,
      stopTimeoutMs: opts.stopTimeoutMs,
      leaseMs: opts.leaseMs,
      // A job that failed for good is told to the administrators who see it on the jobs page: its hospital's, or
      // for system-wide work (mail, purges) those of every hospital (decision 0058).
      onFailed: async (job) => {
        await notifyJobFailed(app, job);
      },
    });
    app.decorate('jobs', jobs);
    jobs.define(purgeJob(app, jobs));
    // Every hour, at a minute no other hourly work of the house uses.
    jobs.schedule({ name: 'maintenance.purge', cron: '17 * * * *' });
    if (app.config.jobsWorker) app.addHook('onReady', () => jobs.start());
    app.addHook('preClose', () => jobs.stop());
  },
  { name: 'jobs', dependencies: ['db', 'audit'] },
);
