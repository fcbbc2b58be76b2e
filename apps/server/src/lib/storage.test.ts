import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { createPatient, journeyHospital } from '../../test/journey.js';
import { uploadPatientPdf } from '../../test/multipart.js';
import {
  DatabaseStorage,
  DiskStorage,
  type FileStorage,
  migrateFilesToDatabase,
  StoredFileCorrupt,
  sha256,
} from './storage.js';

let database: TestDatabase;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'greensen-storage-'));
});
afterAll(async () => {
  await database?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const key = (prefix: string) => `${prefix}/${randomBytes(4).toString('hex')}/file.pdf`;

describe.each([
  ['database', () => new DatabaseStorage(database.db)],
  ['disk', () => new DiskStorage(join(dir, 'contract'))],
] as const)('the %s file store', (_kind, make: () => FileStorage) => {
  it('keeps bytes by key, replaces and deletes them, refuses a key that could leave the store', async () => {
    const store = make();
    const k = key('documents');
    const bytes = randomBytes(200_000);
    expect(await store.get(k)).toBeNull();
    await store.put(k, bytes);
    expect((await store.get(k))?.equals(bytes)).toBe(true);
    const other = Buffer.from('%PDF-1.4 second version');
    await store.put(k, other);
    expect((await store.get(k))?.equals(other)).toBe(true);
    await store.delete(k);
    expect(await store.get(k)).toBeNull();
    for (const bad of ['../etc/passwd', 'documents/../../x', '/abs', 'Upper/case', 'a/b.sha256'])
      await expect(store.put(bad, bytes)).rejects.toThrow('invalid storage key');
    expect(await store.check()).toBe(true);
  });

  it('never returns bytes that fail their checksum', async () => {
    const store = make();
    const k = key('patient-documents');
    await store.put(k, Buffer.from('the original scan'));
    if (store instanceof DatabaseStorage)
      await database.db.execute(
        sql`update stored_files set bytes = ${Buffer.from('the altered scan!')} where key = ${k}`,
      );
    else writeFileSync(join((store as DiskStorage).root, k), 'the altered scan!');
    const read = store.get(k);
    await expect(read).rejects.toBeInstanceOf(StoredFileCorrupt);
    await expect(store.get(k)).rejects.toMatchObject({ statusCode: 500, storageKey: k });
  });
});

describe('a disk file stored before checksums', () => {
  it('is served once and checked from then on', async () => {
    const store = new DiskStorage(join(dir, 'legacy'));
    const k = key('documents');
    await store.put(k, Buffer.from('old file'));
    rmSync(join(store.root, `${k}.sha256`));
    expect((await store.get(k))?.toString()).toBe('old file');
    expect(readFileSync(join(store.root, `${k}.sha256`), 'utf8').trim()).toBe(
      sha256(Buffer.from('old file')),
    );
    writeFileSync(join(store.root, k), 'changed file');
    await expect(store.get(k)).rejects.toBeInstanceOf(StoredFileCorrupt);
  });
});

describe('migrate-files', () => {
  it('copies every disk file into the database once, checked, and refuses a corrupt one', async () => {
    const disk = new DiskStorage(join(dir, 'migrate'));
    const files = new Map<string, Buffer>();
    for (let i = 0; i < 5; i++) {
      const k = key(`documents/h${i}`);
      files.set(k, randomBytes(1000 + i));
      await disk.put(k, files.get(k)!);
    }
    const corrupt = key('patient-documents');
    await disk.put(corrupt, Buffer.from('good'));
    writeFileSync(join(disk.root, corrupt), 'bad!');
    // A half-written temporary file of an interrupted put is not a stored file.
    writeFileSync(join(disk.root, 'documents', 'x.pdf.abc123.tmp'), 'partial');

    const first = await migrateFilesToDatabase(disk, database.db);
    expect(first).toEqual({
      found: 6,
      copied: 5,
      present: 0,
      refused: [{ key: corrupt, reason: 'its bytes fail their checksum' }],
    });
    const db = new DatabaseStorage(database.db);
    for (const [k, bytes] of files) expect((await db.get(k))?.equals(bytes)).toBe(true);
    expect(await db.get(corrupt)).toBeNull();

    const again = await migrateFilesToDatabase(disk, database.db);
    expect(again).toMatchObject({ found: 6, copied: 0, present: 5 });
    const rows = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from stored_files where key like 'documents/h%'`,
    );
    expect(rows.rows[0]!.n).toBe(5);
  });
});

describe('two instances on one database (FILE_STORE=database)', () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    a = await createTestApp({ fileStore: 'database' });
    b = await createTestApp({ fileStore: 'database' }, { database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves through B the document uploaded through A, byte for byte; a corrupt one is a clear 500', async () => {
    const h = await journeyHospital(a);
    const secretary = await h.as('SECRETARY');
    const patient = await createPatient(a.app, secretary);
    const scan = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(300_000)]);
    const id = await uploadPatientPdf(a.app, secretary.headers, patient.id, scan);
    const down = await b.app.inject({
      method: 'GET',
      url: `/api/patient-documents/${id}/file/`,
      headers: secretary.headers,
    });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.rawPayload.equals(scan)).toBe(true);

    await a.database.db.execute(
      sql`update stored_files set bytes = ${Buffer.from('damaged')}
          where key = (select storage_key from patient_documents where id = ${id})`,
    );
    const damaged = await b.app.inject({
      method: 'GET',
      url: `/api/patient-documents/${id}/file/`,
      headers: { ...secretary.headers, 'accept-language': 'en' },
    });
    expect(damaged.statusCode).toBe(500);
    expect(damaged.json()).toEqual({
      detail: 'This stored file failed its integrity check: it is not served. Tell the administrator.',
      code: 'stored_file_corrupt',
    });
  });
});
