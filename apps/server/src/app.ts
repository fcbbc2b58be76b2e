import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import type { MailTransport } from './lib/mail.js';
import { DiskStorage, type FileStorage } from './lib/storage.js';
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
import { hospitalSettingsRoutes } from './modules/hospital-settings/hospital-settings.routes.js';
import { hospitalizationRoutes } from './modules/hospitalizations/hospitalizations.routes.js';
import { icd10Routes } from './modules/icd10/icd10.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
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
import securityHeaders from './plugins/security-headers.js';
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
  /** Where files are stored (default: on disk under `DATA_DIR/files`). */
  files?: FileStorage;
}

/**
 * One log line per request, when it is answered, with its method and URL (Fastify writes two: one on arrival
 * without the status, one at the end without the URL); the arrival only at debug level.
 */
class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** Paths whose segments carry secrets (tokens in links and socket URLs): never logged in clear. */
const SECRET_PATHS = [
  /^(\/ws\/notifications\/)[^/?]+/,
  /^(\/api\/verify-email\/[^/]+\/)[^/?]+/,
  /^(\/api\/auth\/reset-password\/)[^/?]+/,
  /^(\/api\/setup\/)[^/?]+/,
];

export function redactUrl(url: string): string {
  let out = url.replace(/([?&](?:token|ticket|access|refresh)=)[^&]+/gi, '$1[redacted]');
  for (const re of SECRET_PATHS) out = out.replace(re, '$1[redacted]');
  return out;
}

/** Builds the application (plugins, modules, routes). It never listens: main.ts and tests decide. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(deps.logStream ? { stream: deps.logStream } : {}),
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["set-cookie"]'],
            serializers: {
              req: (req: { method: string; url: string; id: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                id: req.id,
                ip: req.ip,
              }),
            },
          },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('config', config);
  app.decorate('files', deps.files ?? new DiskStorage(join(config.dataDir, 'files')));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  const database =
    deps.database ??
    (await openDatabase({
      url: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
    }));
  await app.register(dbPlugin, { database, owned: !deps.database });
  await app.register(errorsPlugin);
  // Security headers first, so that every answer carries them, refusals included.
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // The in-app viewer frames a document fetched with the session (a blob: URL; decision 0024).
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https://') ? { maxAge: 15552000, includeSubDomains: true } : false,
  });
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
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!(route.url.startsWith('/api/') && methods.every((m) => m === 'GET' || m === 'HEAD')))
      route.compress = false;
  });
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/json/,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
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

  await app.register(spaPlugin, { webDist: config.webDist, buildId: config.buildId });
  return app;
}
