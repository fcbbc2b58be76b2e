import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { auditEvents } from '../db/schema/index.js';

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
}

export default fp(
  async (app: FastifyInstance) => {
    const record: Audit['record'] = async (request, entry, tx) => {
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
    app.decorate('audit', {
      record,
      refusal: (request, reason, details = {}) =>
        record(request, {
          action: 'access.denied',
          outcome: 'denied',
          resourceType: 'route',
          resourceId: `${request.method} ${request.routeOptions.url ?? request.url}`,
          hospitalId: null,
          details: { reason, ...details },
        }),
    });
  },
  { name: 'audit', dependencies: ['db'] },
);
