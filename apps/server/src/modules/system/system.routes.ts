import { MODULE_NAMES, type ModuleName } from '@greensen/shared/domain/modules';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { MaintenanceService } from './maintenance.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    maintenance: MaintenanceService;
  }
}

const ZHealth = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unavailable']) });
const ZPublicConfig = z.object({
  environment: z.enum(['development', 'test', 'production']),
  /** Modules this installation adds to the environment's set (EXTRA_MODULES, decision 0021). */
  extra_modules: z.array(z.enum(MODULE_NAMES as [ModuleName, ...ModuleName[]])),
  maintenance: z.boolean(),
  version: z.string(),
  build_id: z.string(),
  languages: z.array(z.enum(['fr', 'en'])),
});
const ZMaintenance = z.object({ enabled: z.boolean(), forced_by_environment: z.boolean() });

export async function systemRoutes(app: FastifyInstance) {
  app.decorate('maintenance', new MaintenanceService(app.db, app.config.maintenanceMode));
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health/',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (_req, reply) => {
      const ok = await app.database.ping(2000).catch(() => false);
      if (ok) return { status: 'ok' as const, database: 'ok' as const };
      return reply.status(503).send({ status: 'degraded' as const, database: 'unavailable' as const });
    },
  );

  r.get(
    '/api/config/',
    {
      config: { access: { public: true } },
      schema: {
        tags: ['system'],
        summary: 'Public configuration of this deployment',
        response: { 200: ZPublicConfig },
      },
    },
    async () => {
      return {
        environment: app.config.appEnv,
        extra_modules: app.config.extraModules,
        maintenance: await app.maintenance.isOn(),
        version: app.config.version,
        build_id: app.buildId,
        languages: ['fr' as const, 'en' as const],
      };
    },
  );

  r.get(
    '/api/admin/maintenance/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ['admin'] } },
      schema: { tags: ['admin'], summary: 'Maintenance mode state', response: { 200: ZMaintenance } },
    },
    async () => ({
      enabled: await app.maintenance.isOn(),
      forced_by_environment: app.maintenance.isForced(),
    }),
  );

  r.put(
    '/api/admin/maintenance/',
    {
      config: { access: { scope: 'hospital', module: null, roles: ['admin'] } },
      schema: {
        tags: ['admin'],
        summary: 'Switch maintenance mode on or off (administrators)',
        body: z.object({ enabled: z.boolean() }).strict(),
        response: { 200: ZMaintenance },
      },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        await app.maintenance.set(request.body.enabled, request.user!.id, tx);
        await app.audit.record(
          contextOf(request),
          { action: 'maintenance.set', details: { enabled: request.body.enabled } },
          tx,
        );
      });
      return { enabled: await app.maintenance.isOn(), forced_by_environment: app.maintenance.isForced() };
    },
  );
}
