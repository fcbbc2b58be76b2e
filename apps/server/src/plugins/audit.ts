import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { auditEvents } from '../db/schema/index.js';
import { ApiError } from '../lib/errors.js';

export interface AuditEntry {
  action: string;
  resourceType?: string | null;
  resourceId?: string | null;
  patientId?: string | null;
  outcome?: 'success' | 'failure' | 'denied';
  details?: Record<string, unknown>;
  /** Overrides for requests without a signed-in user (login attempts, reset links). */
  userId?: string | null;
  hospitalId?: string | null;
}

export interface Audit {
  /** Writes one audit row with the request's user, role, hospital, IP and request id, on `tx` when given. */
  record(request: FastifyRequest, entry: AuditEntry, tx?: Queryable): Promise<void>;
  /** Records a refused request (authorization). */
  refusal(request: FastifyRequest, reason: string, details?: Record<string, unknown>): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: Audit;
  }
  interface FastifyRequest {
    /** Set once the request's refusal is in the audit trail, so that it is written once. */
    refusalAudited: boolean;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const record: Audit['record'] = async (request, entry, tx) => {
      // A failure or refusal the route audited itself is not audited again by the 403 hook below.
      if (entry.outcome && entry.outcome !== 'success') request.refusalAudited = true;
      const hospitalId = entry.hospitalId !== undefined ? entry.hospitalId : (request.hospital?.id ?? null);
      await (tx ?? app.db).insert(auditEvents).values({
        userId: entry.userId !== undefined ? entry.userId : (request.user?.id ?? null),
        roleCode: request.hospital?.roleCodes.join(',') ?? null,
        hospitalId,
        patientId: entry.patientId ?? null,
        action: entry.action,
        resourceType: entry.resourceType ?? null,
        resourceId: entry.resourceId ?? null,
        outcome: entry.outcome ?? 'success',
        ip: request.ip,
        requestId: String(request.id),
        details: entry.details ?? null,
      });
    };
    const refusal: Audit['refusal'] = async (request, reason, details = {}) => {
      request.refusalAudited = true;
      await record(request, {
        action: 'access.denied',
        outcome: 'denied',
        resourceType: 'route',
        resourceId: `${request.method} ${request.routeOptions.url ?? request.url}`,
        // The hospital of the refused request when the caller is a member of it (role, module or object
        // refusals), so that its administrators see it; a refused Hospital-ID stays in the details only.
        hospitalId: request.hospital?.id ?? null,
        details: { reason, ...details },
      });
    };
    app.decorateRequest('refusalAudited', false);
    app.decorate('audit', { record, refusal });

    // A 403 decided inside a route (object-level rules: "not your patient") is a refusal too: one row.
    app.addHook('onError', async (request, _reply, error) => {
      if (!(error instanceof ApiError) || error.statusCode !== 403 || request.refusalAudited) return;
      try {
        await refusal(request, 'object', { key: error.key });
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'could not audit a refusal');
      }
    });
  },
  { name: 'audit', dependencies: ['db'] },
);
