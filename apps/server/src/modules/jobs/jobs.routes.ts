import { ZIdParams } from '@greensen/shared/contracts/common';
import { ZJob, ZJobList, ZJobsQuery } from '@greensen/shared/contracts/jobs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { JobsService } from './jobs.service.js';

defineMessages({
  'jobs.name_invalid': {
    fr: 'Nom de tâche invalide : par exemple « mail.deliver ».',
    en: 'Invalid job name: for example "mail.deliver".',
  },
  'jobs.not_failed': {
    fr: 'Seule une tâche en échec peut être relancée.',
    en: 'Only a failed job can be retried.',
  },
});

/**
 * The background jobs for administrators (issue 14): like the audit trail they belong to no module, so that
 * they work in every environment. The list reads no patient data (not audited); a retry is audited.
 */
export async function jobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new JobsService(app);
  const access = { scope: 'hospital', module: null, roles: ['admin'] } as const;

  r.get(
    '/api/admin/jobs/',
    {
      config: { access },
      schema: {
        tags: ['admin'],
        summary:
          'Background jobs of the hospital and system-wide ones (mail, purges), latest due first; filters state, name',
        querystring: ZJobsQuery,
        response: { 200: ZJobList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const found = await service.list(contextOf(request), filters, { page, page_size });
      return pageOf(request, request.query, found.count, found.rows);
    },
  );

  r.post(
    '/api/admin/jobs/:id/retry/',
    {
      config: { access },
      schema: {
        tags: ['admin'],
        summary: 'Queues a failed job again, now, with a fresh set of attempts (409 when it is not failed)',
        params: ZIdParams,
        response: { 200: ZJob },
      },
    },
    async (request) => service.retry(contextOf(request), request.params.id),
  );
}
