import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../db/client.js';
import { auditEvents } from '../db/schema/index.js';
import { contextOf, type ServiceContext } from '../lib/context.js';
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
  /**
   * Writes one audit row with the context's user, role, hospital, IP and request id, on `tx` when given.
   * Routes pass `contextOf(request)`; jobs and the CLI a `systemContext(…)`.
   */
  record(ctx: ServiceContext, entry: AuditEntry, tx?: Queryable): Promise<void>;
  /** Records a refused request (authorization). */
  refusal(request: FastifyRequest, reason: string, details?: Record<string, unknown>): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: Audit;
  }
}

/**
 * Who the system acted for, in the details of the audit rows of a job (or the CLI): what ran, on behalf of
 * which user, by which rule (issue 14). Requests without a signed-in user (sign-in, reset links) are not the
 * system acting and keep their details as they are.
 */
function systemActor(ctx: ServiceContext) {
  const a = ctx.actor;
  if (a.kind !== 'system' || a.source === 'anonymous-request') return null;
  return { source: a.source, on_behalf_of: a.onBehalfOf, rule: a.rule };
}

export default fp(
  async (app: FastifyInstance) => {
    const record: Audit['record'] = async (ctx, entry, tx) => {
      // A failure or refusal the route audited itself is not audited again by the 403 hook below.
      if (entry.outcome && entry.outcome !== 'success') ctx.refusalAudited = true;
      const hospitalId = entry.hospitalId !== undefined ? entry.hospitalId : (ctx.hospital?.id ?? null);
      await (tx ?? app.db).insert(auditEvents).values({
        userId: entry.userId !== undefined ? entry.userId : (ctx.user?.id ?? null),
        // A job working for a hospital holds no role there: null, like a request without a hospital.
        roleCode: ctx.hospital?.roleCodes.join(',') || null,
        hospitalId,
        patientId: entry.patientId ?? null,
        action: entry.action,
        resourceType: entry.resourceType ?? null,
        resourceId: entry.resourceId ?? null,
        outcome: entry.outcome ?? 'success',
        ip: ctx.ip,
        requestId: ctx.requestId,
        details: systemActor(ctx) ? { ...entry.details, system: systemActor(ctx) } : (entry.details ?? null),
      });
    };
    const refusal: Audit['refusal'] = async (request, reason, details = {}) => {
      const ctx = contextOf(request);
      ctx.refusalAudited = true;
      await record(ctx, {
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
    app.decorate('audit', { record, refusal });

    // A 403 decided inside a route (object-level rules: "not your patient") is a refusal too: one row.
    app.addHook('onError', async (request, _reply, error) => {
      if (!(error instanceof ApiError) || error.statusCode !== 403 || contextOf(request).refusalAudited)
        return;
      try {
        await refusal(request, 'object', { key: error.key });
      } catch (err) {
        request.log.warn({ err: { message: (err as Error).message } }, 'could not audit a refusal');
      }
    });
  },
  { name: 'audit', dependencies: ['db'] },
);
