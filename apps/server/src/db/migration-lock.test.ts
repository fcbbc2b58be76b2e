import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB_KIND, type TestDatabase } from '../../test/database.js';
import { MigrationLockTimeout } from './client.js';

const MIGRATION_LOCK_ID = 7_261_337;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.destroy());

function recorder() {
  const lines: string[] = [];
  return {
    lines,
    log: { warn: (m: string) => lines.push(`warn ${m}`), info: (m: string) => lines.push(`info ${m}`) },
  };
}

describe(`the migrations at start (${TEST_DB_KIND})`, () => {
  if (TEST_DB_KIND === 'postgres') {
    it('waits for another instance holding the lock, says so, and gives up after the time limit', async () => {
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        const waiting = recorder();
        await expect(database.migrate({ log: waiting.log, lockTimeoutMs: 1200 })).rejects.toBeInstanceOf(
          MigrationLockTimeout,
        );
        expect(waiting.lines).toEqual(['warn waiting for the migration lock held by another instance…']);

        // Released while this one waits: it takes the lock and migrates.
        const second = recorder();
        const migrating = database.migrate({ log: second.log, lockTimeoutMs: 60_000 });
        await new Promise((r) => setTimeout(r, 300));
        await other.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        await migrating;
        expect(second.lines).toEqual([
          'warn waiting for the migration lock held by another instance…',
          'info migration lock taken',
        ]);
      } finally {
        await other.end();
      }
    });
  } else {
    it('migrates without a lock to wait for (one writer per embedded database) and logs nothing', async () => {
      const quiet = recorder();
      await database.migrate({ log: quiet.log, lockTimeoutMs: 1 });
      expect(quiet.lines).toEqual([]);
    });
  }
});
