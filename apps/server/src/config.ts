import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ModuleName, parseModuleList } from '@greensen/shared/domain/modules';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * The hospital's own speech-to-text service (issue 23, decision 0034): dictations are POSTed there as audio and
   * its `{text}` answer is returned; without it, recordings are kept as patient documents to be typed later.
   */
  TRANSCRIPTION_URL: z
    .string()
    .regex(/^https?:\/\//, 'TRANSCRIPTION_URL must be an http:// or https:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Sender of the mails (verification, password reset). */
  MAIL_FROM: z.string().min(3).optional(),
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Modules added to APP_ENV's set (decision 0021): `admin,hospitals`. Unknown names refuse the start. */
  EXTRA_MODULES: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const { modules, unknown } = parseModuleList(value);
      if (unknown.length > 0)
        ctx.addIssue({ code: 'custom', message: `unknown module(s): ${unknown.join(', ')}` });
      return modules;
    }),
  MAINTENANCE_MODE: bool,
  /** `off`: the first start on an empty embedded database prints the setup link instead of seeding the demo. */
  DEMO: z.enum(['on', 'off']).default('on'),
  JWT_SECRET: z.string().optional(),
  /**
   * Key of the secrets kept encrypted in the database (mobile-money operators' callback secrets, decision 0040):
   * at least 32 characters. Unset: no secret can be stored or read (callbacks are refused), outside production a
   * key derived from JWT_SECRET.
   */
  SECRETS_KEY: z.string().min(32).optional(),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  WEB_DIST: z.string().optional(),
  /** Where stored files live (decision 0057): `database` (default with PostgreSQL) or `disk` (DATA_DIR/files). */
  FILE_STORE: z.enum(['database', 'disk']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool,
  AUTH_CACHE: z.enum(['on', 'off']).default('on'),
  BOARD_CACHE: z.enum(['on', 'off']).default('on'),
  CLOCK_CACHE: z.enum(['on', 'off']).default('on'),
  JOBS_WORKER: z.enum(['on', 'off']).default('on'),
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  JOBS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  BUILD_ID: z.string().optional(),
  /** How long a starting instance waits for another's migrations (PostgreSQL advisory lock) before it gives up. */
  MIGRATION_LOCK_TIMEOUT_S: z.coerce.number().int().min(1).max(86_400).default(300),
});

export type AppEnvironment = 'development' | 'test' | 'production';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  /** The speech-to-text service dictations are sent to (TRANSCRIPTION_URL), or none. */
  transcriptionUrl: string | undefined;
  mailFrom: string;
  appEnv: AppEnvironment;
  /**
   * Modules this installation adds to the environment's set of the specification (EXTRA_MODULES): a production
   * hospital opts in to `admin` and `hospitals` without changing the specification's sets.
   */
  extraModules: ModuleName[];
  maintenanceMode: boolean;
  /**
   * Seed the demo on the first start of an empty embedded database (outside production). Off (`DEMO=off`,
   * `npm start -- --no-demo`): that start prints the one-time setup link of a real installation instead.
   */
  demo: boolean;
  jwtSecret: string;
  /** Key of the secrets encrypted in the database (decision 0040), or null: none can be stored or read. */
  secretsKey: string | null;
  publicUrl: string;
  dataDir: string;
  webDist: string | undefined;
  /**
   * Where stored files live (FILE_STORE, decision 0057): in the database (the default with PostgreSQL: every
   * instance reads them, the database's backup holds them) or on disk under DATA_DIR/files (the embedded default).
   */
  fileStore: 'database' | 'disk';
  logLevel: string;
  trustProxy: boolean;
  /** Keep signed-in users' checks per instance, dropped on the database's change notices (decision 0012). */
  authCache: boolean;
  /** Keep the bed boards answered, dropped by the database's change notices (docs/performance.md). */
  boardCache: boolean;
  /** Keep each hospital's zone and shift times, dropped by the database's change notices (docs/performance.md). */
  clockCache: boolean;
  /** Run the background jobs' worker loop in this instance (decision 0015); off: it only queues jobs. */
  jobsWorker: boolean;
  /** Jobs one instance runs at once. */
  jobsConcurrency: number;
  /** Time between two polls for due jobs (a job queued for now wakes the workers at once anyway). */
  jobsPollMs: number;
  buildId: string;
  /** How long a starting instance waits for the migration lock (MIGRATION_LOCK_TIMEOUT_S), in milliseconds. */
  migrationLockTimeoutMs: number;
  version: string;
  /** Key prefix for Redis (rate limits, pub/sub channels): lets tests share one server. */
  redisPrefix: string;
}

export class ConfigError extends Error {}

/**
 * The built web app beside a server build (`apps/web/dist` from `apps/server/dist`), when it is there (it has an
 * `index.html`): what `node apps/server/dist/main.js` serves unless WEB_DIST names another folder.
 */
export function webDistBeside(serverDist: string): string | undefined {
  const dir = resolve(serverDist, '../../web/dist');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

const WEAK_SECRETS = new Set(['secret', 'changeme', 'change-me', 'greensen', 'password', 'jwt-secret']);

/** Reads the environment once, validates it and returns the typed configuration. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  let jwtSecret = e.JWT_SECRET;
  if (e.APP_ENV === 'production') {
    if (!jwtSecret || jwtSecret.length < 32 || WEAK_SECRETS.has(jwtSecret.toLowerCase())) {
      throw new ConfigError(
        'JWT_SECRET must be set to a random value of at least 32 characters in production',
      );
    }
  }
  // Outside production a missing secret gets a random one per process: tokens do not survive a restart,
  // which is safe; set JWT_SECRET to keep sessions across restarts or share them between instances.
  jwtSecret ??= randomBytes(32).toString('hex');
  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    port,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    transcriptionUrl: e.TRANSCRIPTION_URL,
    mailFrom: e.MAIL_FROM ?? `Greensen <no-reply@${new URL(publicUrl).hostname}>`,
    appEnv: e.APP_ENV,
    extraModules: e.EXTRA_MODULES,
    maintenanceMode: e.MAINTENANCE_MODE,
    demo: e.DEMO === 'on',
    jwtSecret,
    secretsKey: e.SECRETS_KEY ?? (e.APP_ENV === 'production' || !e.JWT_SECRET ? null : `dev:${e.JWT_SECRET}`),
    publicUrl,
    dataDir: resolve(e.DATA_DIR),
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : undefined,
    fileStore: e.FILE_STORE ?? (e.DATABASE_URL ? 'database' : 'disk'),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    authCache: e.AUTH_CACHE === 'on',
    boardCache: e.BOARD_CACHE === 'on',
    clockCache: e.CLOCK_CACHE === 'on',
    jobsWorker: e.JOBS_WORKER === 'on',
    jobsConcurrency: e.JOBS_CONCURRENCY,
    jobsPollMs: e.JOBS_POLL_MS,
    buildId: e.BUILD_ID ?? 'dev',
    migrationLockTimeoutMs: e.MIGRATION_LOCK_TIMEOUT_S * 1000,
    version: '0.1.0',
    redisPrefix: 'greensen:',
    ...overrides,
  };
}
