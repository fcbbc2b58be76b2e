import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { DiskStorage } from '../src/lib/storage.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/**
 * An app on a fresh database with a fixed secret and silent logs; `overrides` adjust the config.
 * `options.database` shares an existing test database instead (a second instance of a multi-instance test):
 * that app then leaves the database to its owner. Each app gets its own Redis prefix unless `redisPrefix` is
 * overridden (instances of one test pass the same one). `options.deps` passes the app's other dependencies
 * (the jobs' clock, a fake mail transport).
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  options: { database?: TestDatabase; deps?: Omit<AppDeps, 'database'> } = {},
): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig(
    { APP_ENV: 'development', LOG_LEVEL: 'silent', JWT_SECRET: 'test-secret-0123456789abcdef0123456789' },
    {
      redisUrl: process.env.TEST_REDIS_URL || undefined,
      redisPrefix: `greensen-test:${randomBytes(6).toString('hex')}:`,
      ...overrides,
    },
  );
  // Stored files (documents) go to a directory of this app, removed when it closes; `fileStore: 'database'` puts
  // them in the test database instead (what instances sharing one database read).
  const filesDir = join(tmpdir(), `greensen-test-files-${randomBytes(6).toString('hex')}`);
  const files = overrides.fileStore === 'database' ? undefined : new DiskStorage(filesDir);
  const app = await buildApp(config, { files, ...options.deps, database });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      rmSync(filesDir, { recursive: true, force: true });
      if (!options.database) await database.destroy();
    },
  };
}
