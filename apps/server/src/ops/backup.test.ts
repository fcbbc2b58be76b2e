import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/app.js';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../../test/database.js';
import { createPatient, journeyHospital } from '../../test/journey.js';
import { uploadPatientPdf } from '../../test/multipart.js';
import { adminUrl, withDatabase } from '../../test/pg-url.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { jobsHeld, setJobsHeld } from '../jobs/queue.js';
import { DiskStorage } from '../lib/storage.js';
import { BackupRefused, backup, restore } from './backup.js';

const scratch = mkdtempSync(join(tmpdir(), 'greensen-backup-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
});

const SECRET = 'test-secret-0123456789abcdef0123456789';

/** An empty PostgreSQL database (dropped at the end). */
async function emptyPostgres(): Promise<string> {
  const name = `greensen_r_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  return withDatabase(adminUrl(), name);
}

/** The configuration a command-line task would read for this installation. */
function configOf(place: { url?: string; dataDir: string }) {
  return loadConfig({
    JWT_SECRET: SECRET,
    DATA_DIR: place.dataDir,
    ...(place.url ? { DATABASE_URL: place.url } : {}),
  });
}

describe(`backup and restore (${TEST_DB_KIND})`, () => {
  it('restores elsewhere the same patients and byte-identical documents, with jobs held until released', async () => {
    // The installation: files in the database with PostgreSQL, under DATA_DIR/files with the embedded engine.
    const source = { dataDir: join(scratch, 'source') };
    mkdirSync(source.dataDir);
    const sourceDb: TestDatabase =
      TEST_DB_KIND === 'embedded' ? await createTestDatabase(source) : await createTestDatabase();
    cleanups.push(() => sourceDb.destroy());
    const sourceConfig = configOf({ url: sourceDb.url, dataDir: source.dataDir });
    const files =
      sourceConfig.fileStore === 'disk' ? new DiskStorage(join(source.dataDir, 'files')) : undefined;
    expect(sourceConfig.fileStore).toBe(TEST_DB_KIND === 'embedded' ? 'disk' : 'database');
    const a = await createTestApp(
      { fileStore: sourceConfig.fileStore },
      { database: sourceDb, deps: { files } },
    );
    const h = await journeyHospital(a);
    const secretary = await h.as('SECRETARY');
    const patient = await createPatient(a.app, secretary);
    const scan = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200_000)]);
    const documentId = await uploadPatientPdf(a.app, secretary.headers, patient.id, scan);
    await a.close();
    // The embedded database is backed up by a command: the server (here the test) has stopped and let it go.
    if (TEST_DB_KIND === 'embedded') await sourceDb.close();

    const archive = join(scratch, 'backup.tar');
    const { manifest } = await backup(sourceConfig, archive);
    expect(manifest).toMatchObject({
      engine: TEST_DB_KIND,
      file_store: sourceConfig.fileStore,
      files: TEST_DB_KIND === 'embedded' ? 1 : 0,
    });
    await expect(backup(sourceConfig, archive)).rejects.toThrow('exists already');

    // Elsewhere: an empty database, an empty DATA_DIR.
    const target = {
      url: TEST_DB_KIND === 'postgres' ? await emptyPostgres() : undefined,
      dataDir: join(scratch, 'target'),
    };
    const targetConfig = configOf(target);
    const report = await restore(targetConfig, archive);
    expect(report.files).toBe(TEST_DB_KIND === 'embedded' ? 1 : 0);
    // Into an empty place only.
    await expect(restore(targetConfig, archive)).rejects.toBeInstanceOf(BackupRefused);

    const restoredDb = await openDatabase({
      url: target.url,
      dataDir: target.url ? undefined : target.dataDir,
    });
    cleanups.push(() => restoredDb.close());
    await restoredDb.migrate();
    expect(await jobsHeld(restoredDb.db)).toBe(true);
    const b = await createTestApp(
      { fileStore: targetConfig.fileStore },
      {
        database: { ...restoredDb, destroy: () => restoredDb.close() },
        deps: {
          files:
            targetConfig.fileStore === 'disk' ? new DiskStorage(join(target.dataDir, 'files')) : undefined,
        },
      },
    );
    cleanups.push(() => b.close());
    const found = await b.app.inject({
      method: 'GET',
      url: `/api/patients/${patient.id}/`,
      headers: secretary.headers,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toMatchObject({
      record_number: patient.record_number,
      last_name: patient.last_name,
    });
    const down = await b.app.inject({
      method: 'GET',
      url: `/api/patient-documents/${documentId}/file/`,
      headers: secretary.headers,
    });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(scan)).toBe(true);

    // Held: a job due now does not run; released, it does.
    await b.app.jobs.stop();
    await b.app.jobs.enqueue('maintenance.purge', {});
    expect(await b.app.jobs.runDue()).toBe(0);
    await setJobsHeld(restoredDb.db, false, null);
    expect(await b.app.jobs.runDue()).toBeGreaterThan(0);
  }, 180_000);

  it('refuses a place that is not empty, and an archive of the other engine', async () => {
    const dataDir = join(scratch, 'busy');
    mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
    const archive = join(scratch, 'backup.tar');
    expect(existsSync(archive)).toBe(true); // written by the first test
    if (TEST_DB_KIND === 'embedded') {
      const other = await createTestDatabase({ dataDir });
      await other.close();
      await expect(restore(configOf({ dataDir }), archive)).rejects.toThrow('is not empty');
      await expect(
        restore(
          configOf({ dataDir: join(scratch, 'pg'), url: 'postgres://nobody@127.0.0.1:1/none' }),
          archive,
        ),
      ).rejects.toThrow('holds an embedded database');
    } else {
      const busy = await createTestDatabase();
      cleanups.push(() => busy.destroy());
      await expect(restore(configOf({ dataDir, url: busy.url }), archive)).rejects.toThrow('is not empty');
      await expect(restore(configOf({ dataDir: join(scratch, 'emb') }), archive)).rejects.toThrow(
        'holds a PostgreSQL database',
      );
    }
  });
});
