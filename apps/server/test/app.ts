import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** An app on a fresh database with a fixed secret and silent logs; `overrides` adjust the config. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = loadConfig(
    { APP_ENV: 'development', LOG_LEVEL: 'silent', JWT_SECRET: 'test-secret-0123456789abcdef0123456789' },
    { redisUrl: process.env.TEST_REDIS_URL || undefined, ...overrides },
  );
  const app = await buildApp(config, { database });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.destroy();
    },
  };
}
