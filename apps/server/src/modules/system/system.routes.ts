import { type THealth, ZHealth } from '@greensen/shared/contracts/system';
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
        summary: 'Readiness: database, file store, Redis and job worker states',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (_req, reply) => {
      const health = await instanceHealth(app);
      reportHealth(app, health);
      return reply.status(health.status === 'unavailable' ? 503 : 200).send(health);
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

/** The state of what this instance depends on; bounded by the database's 2 s ping. */
export async function instanceHealth(app: FastifyInstance): Promise<THealth> {
  const database = await app.database.ping(2000).catch(() => false);
  const files =
    app.files.kind === 'database' && !database ? false : await app.files.check().catch(() => false);
  const redis = !app.config.redisUrl
    ? 'not_configured'
    : app.redis?.status === 'ready'
      ? 'ok'
      : 'unavailable';
  const jobs = !app.config.jobsWorker
    ? 'off'
    : !app.jobs.working
      ? 'stopped'
      : app.jobs.held
        ? 'held'
        : 'running';
  const problems: THealth['problems'] = [];
  if (!database) problems.push('database');
  if (!files) problems.push('file_store');
  if (redis === 'unavailable') problems.push('redis');
  if (jobs === 'stopped' || jobs === 'held') problems.push('jobs_worker');
  return {
    status: !database || !files ? 'unavailable' : problems.length > 0 ? 'degraded' : 'ok',
    database: database ? 'ok' : 'unavailable',
    file_store: files ? 'ok' : 'unavailable',
    file_store_kind: app.files.kind,
    redis,
    jobs_worker: jobs,
    problems,
  };
}

const reported = new WeakMap<FastifyInstance, string>();

/** Logs a change of state once: an error when the instance becomes degraded or unavailable, info when it recovers. */
function reportHealth(app: FastifyInstance, health: THealth) {
  const key = `${health.status}:${health.problems.join(',')}`;
  if ((reported.get(app) ?? 'ok:') === key) return;
  reported.set(app, key);
  if (health.status === 'ok') app.log.info({ health }, 'health: ok again');
  else app.log.error({ health }, `health: ${health.status} (${health.problems.join(', ')})`);
}
