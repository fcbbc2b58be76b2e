import { ZAuditList, ZAuditQuery } from '@greensen/shared/contracts/audit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { listAudit } from './audit.repository.js';

defineMessages({
  'audit.action_invalid': {
    fr: 'Action invalide : « patient.read » ou une famille « patient.* ».',
    en: 'Invalid action: "patient.read" or a family "patient.*".',
  },
  'audit.resource_invalid': { fr: 'Type de ressource invalide.', en: 'Invalid resource type.' },
});

/**
 * The audit trail of the current hospital, for its administrators (issue 8). Like the maintenance switch
 * (decision 0002) it belongs to no module, so that it works in production too. Reading it is audited.
 */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/audit/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ['admin'] } },
      schema: {
        tags: ['admin'],
        summary:
          'Audit rows of the hospital, newest first; filters user, patient, action (or family `patient.*`), ' +
          'outcome, resource (+ resource_id), from/to',
        querystring: ZAuditQuery,
        response: { 200: ZAuditList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const hospitalId = request.hospital!.id;
      const result = await app.db.transaction(async (tx) => {
        const found = await listAudit(tx, hospitalId, filters, page_size, (page - 1) * page_size);
        await app.audit.record(
          contextOf(request),
          {
            action: 'audit.search',
            resourceType: 'audit',
            patientId: filters.patient ?? null,
            details: { ...filters, page, results: found.rows.length },
          },
          tx,
        );
        return found;
      });
      return pageOf(request, request.query, result.count, result.rows, { countCapped: result.capped });
    },
  );
}
