import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { adminUrl, withDatabase } from './pg-url.js';

/**
 * One migrated template per project and run, which every test file copies (test/database.ts): a PostgreSQL
 * database (`CREATE DATABASE … TEMPLATE`), or for the embedded project a tarball of a migrated PGlite data
 * directory (`loadDataDir`). Either way the migrations run here, once, on each engine.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
    embeddedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (project.config.env?.GREENSEN_TEST_DB !== 'postgres') return embeddedTemplate(project);
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

/** Embedded project: a migrated in-memory database's data directory, written to a file removed at the end. */
async function embeddedTemplate(project: TestProject) {
  const database = await openDatabase({});
  let tarball: Blob;
  try {
    await database.migrate();
    if (!database.dumpDataDir) throw new Error('the embedded database cannot be dumped');
    tarball = await database.dumpDataDir();
  } finally {
    await database.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'greensen-template-'));
  const file = join(dir, 'pgdata.tar');
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  project.provide('embeddedTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
