import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import type { MailTransport } from './lib/mail.js';
import { acceptDeprecatedSearchAlias } from './lib/pagination.js';
import { type FileStorage, openFileStorage } from './lib/storage.js';
import { admissionsRoutes } from './modules/admissions/admissions.routes.js';
import { appointmentsRoutes } from './modules/appointments/appointments.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { medicalActsRoutes } from './modules/billing/medical-acts.routes.js';
import { careRoutes } from './modules/care/care.routes.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { consultationsRoutes } from './modules/consultations/consultations.routes.js';
import { dictationRoutes } from './modules/dictation/dictation.routes.js';
import { documentsRoutes } from './modules/documents/documents.routes.js';
import { examsRoutes } from './modules/exams/exams.routes.js';
import { fhirRoutes } from './modules/fhir/fhir.routes.js';
import { hospitalSettingsRoutes } from './modules/hospital-settings/hospital-settings.routes.js';
import { hospitalizationRoutes } from './modules/hospitalizations/hospitalizations.routes.js';
import { icd10Routes } from './modules/icd10/icd10.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { medicationSafetyRoutes } from './modules/medication-safety/safety.routes.js';
import { notesRoutes } from './modules/notes/notes.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { patientsRoutes } from './modules/patients/patients.routes.js';
import { pharmacyRoutes } from './modules/pharmacy/pharmacy.routes.js';
import { queuesRoutes } from './modules/queues/queues.routes.js';
import { setupRoutes } from './modules/setup/setup.routes.js';
import { staffRoutes } from './modules/staff/staff.routes.js';
import { dhis2Routes } from './modules/stats/dhis2.routes.js';
import { statsRoutes } from './modules/stats/stats.routes.js';
import { structureRoutes } from './modules/structure/structure.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { triageRoutes } from './modules/triage/triage.routes.js';
import accessPlugin from './plugins/access.js';
import auditPlugin from './plugins/audit.js';
import authCachePlugin from './plugins/auth-cache.js';
import boardCachePlugin from './plugins/board-cache.js';
import clockCachePlugin from './plugins/clock-cache.js';
import dbPlugin from './plugins/db.js';
import errorsPlugin, { frameworkErrors, serializerCompiler, validatorCompiler } from './plugins/errors.js';
import jobsPlugin from './plugins/jobs.js';
import mailPlugin from './plugins/mail.js';
import openapiPlugin from './plugins/openapi.js';
import rateLimitPlugin from './plugins/rate-limit.js';
import redisPlugin from './plugins/redis.js';
import { addRequestIdHeader, requestLogOptions } from './plugins/request-log.js';
import securityHeaders, { appHelmetOptions } from './plugins/security-headers.js';
import spaPlugin from './plugins/spa.js';
import realtimeGateway from './realtime/gateway.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Stored files: issued documents and patient documents (decision 0023). */
    files: FileStorage;
  }
}

export interface AppDeps {
  /** An already open (and migrated) database; the app then leaves closing it to the caller. */
  database?: Database;
  /** Where the log lines go (standard output when absent). */
  logStream?: NodeJS.WritableStream;
  /** The background jobs' clock (tests move it); the system clock when absent. */
  clock?: () => Date;
  /** How long closing waits for running jobs before leaving them to another instance (default 5 s). */
  jobsStopTimeoutMs?: number;
  /** A running job's lease (default 60 s), renewed every third of it. */
  jobsLeaseMs?: number;
  /** Replaces the SMTP transport built from SMTP_URL (tests). */
  mailTransport?: MailTransport;
  /** Where files are stored (default: the store FILE_STORE names, decision 0057). */
  files?: FileStorage;
}

export { redactUrl } from './plugins/request-log.js';

/** Builds the application (plugins, modules, routes). It never listens: main.ts and tests decide. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...requestLogOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  addRequestIdHeader(app);

  const database =
    deps.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
    }));
  await app.register(dbPlugin, { database, owned: !deps.database });
  app.decorate(
    'files',
    deps.files ?? openFileStorage(config.fileStore, database.db, config.dataDir, app.log),
  );
  await app.register(errorsPlugin);
  // Security headers first, so that every answer carries them, refusals included.
  await app.register(securityHeaders, appHelmetOptions(config.publicUrl));
  await app.register(auditPlugin);
  await app.register(authCachePlugin);
  await app.register(boardCachePlugin);
  await app.register(clockCachePlugin);
  await app.register(accessPlugin);
  await app.register(redisPlugin);
  await app.register(rateLimitPlugin);
  await app.register(jobsPlugin, {
    now: deps.clock,
    stopTimeoutMs: deps.jobsStopTimeoutMs,
    leaseMs: deps.jobsLeaseMs,
  });
  await app.register(mailPlugin, { transport: deps.mailTransport });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(openapiPlugin, { version: config.version });
  // API answers of GET requests from 1 KB compressed on the fly (brotli 4, else gzip: decision 0017); the web
  // app's files are compressed at build time (plugins/spa.ts). Writes and their answers (tokens) are not.
  // Brotli's window is 256 KB (LGWIN 18) instead of its 4 MB default: an API page is far smaller, and every
  // answer's encoder allocated the whole window (decision 0074).
  app.addHook('onRoute', (route) => {
    acceptDeprecatedSearchAlias(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!(route.url.startsWith('/api/') && methods.every((m) => m === 'GET' || m === 'HEAD')))
      route.compress = false;
  });
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/json/,
    brotliOptions: {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 },
    },
  });

  await app.register(systemRoutes);
  await app.register(patientsRoutes);
  await app.register(admissionsRoutes);
  await app.register(triageRoutes);
  await app.register(queuesRoutes);
  await app.register(consultationsRoutes);
  await app.register(icd10Routes);
  await app.register(examsRoutes);
  await app.register(authRoutes);
  await app.register(realtimeGateway);
  await app.register(notificationsRoutes);
  await app.register(auditRoutes);
  await app.register(jobsRoutes);
  await app.register(structureRoutes);
  await app.register(hospitalizationRoutes);
  await app.register(staffRoutes);
  await app.register(setupRoutes);
  await app.register(hospitalSettingsRoutes);
  await app.register(pharmacyRoutes);
  await app.register(medicationSafetyRoutes);
  await app.register(documentsRoutes);
  await app.register(careRoutes);
  await app.register(medicalActsRoutes);
  await app.register(billingRoutes);
  await app.register(statsRoutes);
  await app.register(dhis2Routes);
  await app.register(appointmentsRoutes);
  await app.register(chatRoutes);
  await app.register(notesRoutes);
  await app.register(dictationRoutes);
  await app.register(fhirRoutes, { prefix: '/fhir/R4' });

  await app.register(spaPlugin, { webDist: config.webDist, buildId: config.buildId });
  return app;
}
