import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { adminUrl, withDatabase } from './pg-url.js';

/** Which database the server tests run on: set per Vitest project (see vitest.config.ts). */
export const TEST_DB_KIND: 'embedded' | 'postgres' =
  process.env.GREENSEN_TEST_DB === 'postgres' ? 'postgres' : 'embedded';

export interface TestDatabase extends Database {
  /** PostgreSQL: the database's URL (the embedded one is in memory). */
  url?: string;
  /** Drops the database (PostgreSQL) or closes it (embedded). */
  destroy(): Promise<void>;
}

/** The migrated embedded template's tarball, read once per test file (worker) that asks for a database. */
let embeddedTemplate: Promise<Blob> | undefined;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite started from the migrated data directory
 * the global setup dumped, or a new PostgreSQL database copied from the migrated template the global setup made
 * (so no test sees data left by another or by an earlier run). Each call is a new, independent database.
 */
export async function createTestDatabase(options: { dataDir?: string } = {}): Promise<TestDatabase> {
  if (TEST_DB_KIND === 'embedded') {
    const file = inject('embeddedTemplate');
    if (!file) throw new Error('the embedded global setup did not run');
    embeddedTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
    // `dataDir`: on disk in that DATA_DIR (its lock taken) rather than in memory.
    const database = await openDatabase({ loadDataDir: await embeddedTemplate, dataDir: options.dataDir });
    return { ...database, destroy: () => database.close() };
  }
  const template = inject('templateDb');
  if (!template) throw new Error('the postgres global setup did not run');
  const name = `greensen_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        // Two copies of one template at the same instant can collide; try again shortly.
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl(), name);
  const database = await openDatabase({ url, poolSize: 5 });
  return {
    ...database,
    url,
    destroy: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
