import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { adminUrl, withDatabase } from './pg-url.js';

/** PostgreSQL project only: one migrated template database per run, dropped at the end. */
declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  if (project.config.env?.GREENSEN_TEST_DB !== 'postgres') return;
  const name = `greensen_tpl_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const database = await openDatabase({ url: withDatabase(adminUrl(), name), poolSize: 1 });
  await database.migrate();
  await database.close();
  project.provide('templateDb', name);
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
}
