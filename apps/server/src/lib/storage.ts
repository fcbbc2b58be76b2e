import { createHash, randomBytes } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client.js';
import { ApiError } from './errors.js';

/** The stores a stored file can live in (`FILE_STORE`, decision 0057). */
export type FileStoreKind = 'database' | 'disk';

/** Where a corrupt file is reported (the app's logger). */
export interface StorageLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Where files (issued documents' PDFs, patient documents, chat attachments, dictation audio) are kept, by key
 * (decisions 0023, 0057): in the database (`stored_files`, the default with PostgreSQL, so that every instance
 * reads them and the database's backup holds them) or on disk under `DATA_DIR/files` (the embedded engine).
 * Keys are made by the server (`documents/<hospital>/<year>/<id>.pdf`), never from a user's file name. Both
 * stores keep each file's SHA-256 and check it at every read: bytes that do not match are never returned
 * (`StoredFileCorrupt`, a 500 with its own message, logged as an error).
 */
export interface FileStorage {
  readonly kind: FileStoreKind;
  /**
   * Stores `bytes` under `key`. `tx`: the transaction of the row that refers to the file — the database store
   * writes the file in it (the file exists if and only if the row commits); the disk store writes at once (a
   * file without a row is harmless and never served).
   */
  put(key: string, bytes: Uint8Array, tx?: Queryable): Promise<void>;
  /** The bytes, or null when the key has none; throws `StoredFileCorrupt` when they fail their checksum. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Resolves true when the store can be read and written (health). */
  check(): Promise<boolean>;
}

/** A stored file whose bytes no longer match the checksum kept when it was stored. */
export class StoredFileCorrupt extends ApiError {
  constructor(readonly storageKey: string) {
    super(500, 'error.stored_file_corrupt', { code: 'stored_file_corrupt' });
  }
}

const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)*$/;
const SIDECAR = '.sha256';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function checkKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.endsWith(SIDECAR) || key.endsWith('.tmp'))
    throw new Error('invalid storage key');
}

/** Writes a file whole or not at all (a temporary file renamed into place). */
async function writeWhole(path: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, bytes, { flag: 'wx', mode: 0o640 });
  await rename(tmp, path);
}

/**
 * Files under a directory (`DATA_DIR/files`), each with its checksum beside it (`<file>.sha256`, written before
 * the file). A file stored before checksums existed has none: it is served once and its checksum written then
 * (trusted on first read, logged); every later read checks it.
 */
export class DiskStorage implements FileStorage {
  readonly kind = 'disk' as const;
  readonly root: string;

  constructor(
    root: string,
    private readonly log?: StorageLog,
  ) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    checkKey(key);
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error('invalid storage key');
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    await writeWhole(`${path}${SIDECAR}`, `${sha256(bytes)}\n`);
    await writeWhole(path, bytes);
  }

  async get(key: string): Promise<Buffer | null> {
    const path = this.path(key);
    const bytes = await readOrNull(path);
    if (!bytes) return null;
    const expected = (await readOrNull(`${path}${SIDECAR}`))?.toString('utf8').trim();
    const actual = sha256(bytes);
    if (expected === undefined) {
      this.log?.warn({ key }, 'stored file without a checksum: served, its checksum written now');
      await writeWhole(`${path}${SIDECAR}`, `${actual}\n`);
      return bytes;
    }
    if (expected !== actual) {
      this.log?.error({ key, expected, actual }, 'stored file failed its checksum; not served');
      throw new StoredFileCorrupt(key);
    }
    return bytes;
  }

  /** The checksum kept for `key` (null: none, a file stored before checksums). */
  async checksum(key: string): Promise<string | null> {
    return (await readOrNull(`${this.path(key)}${SIDECAR}`))?.toString('utf8').trim() ?? null;
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    await rm(path, { force: true });
    await rm(`${path}${SIDECAR}`, { force: true });
  }

  async check(): Promise<boolean> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.R_OK | constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }

  /** Every stored key (checksums and unfinished temporary files left out), for migrate-files and backups. */
  async keys(): Promise<string[]> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return [];
      throw err;
    }
    const keys: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const parent = (entry as { parentPath?: string }).parentPath ?? entry.path;
      const key = relative(this.root, join(parent, entry.name)).split(sep).join('/');
      if (key.endsWith(SIDECAR) || key.endsWith('.tmp') || !KEY.test(key)) continue;
      keys.push(key);
    }
    return keys.sort();
  }
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EISDIR') return null;
    throw err;
  }
}

/** The bytes of a `bytea` column as either driver returns them (a Buffer from `pg`, a Uint8Array from PGlite). */
function asBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new Error('unexpected bytea value');
}

/** Stores a file's row (`stored_files`), replacing the bytes a key had. */
export async function insertStoredFile(q: Queryable, key: string, bytes: Uint8Array, checksum: string) {
  await q.execute(sql`
    insert into stored_files (key, bytes, size, sha256)
    values (${key}, ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)}, ${bytes.byteLength}, ${checksum})
    on conflict (key) do update set bytes = excluded.bytes, size = excluded.size, sha256 = excluded.sha256,
      created_at = now()`);
}

/** The checksum the database keeps for `key`, or null when it has no such file. */
export async function storedFileChecksum(q: Queryable, key: string): Promise<string | null> {
  const res = await q.execute<{ sha256: string }>(sql`select sha256 from stored_files where key = ${key}`);
  return res.rows[0]?.sha256 ?? null;
}

/** Files in the database (`stored_files`): every instance on the same PostgreSQL reads the same bytes. */
export class DatabaseStorage implements FileStorage {
  readonly kind = 'database' as const;

  constructor(
    private readonly db: Db,
    private readonly log?: StorageLog,
  ) {}

  async put(key: string, bytes: Uint8Array, tx?: Queryable): Promise<void> {
    checkKey(key);
    await insertStoredFile(tx ?? this.db, key, bytes, sha256(bytes));
  }

  async get(key: string): Promise<Buffer | null> {
    checkKey(key);
    const res = await this.db.execute<{ bytes: unknown; sha256: string }>(
      sql`select bytes, sha256 from stored_files where key = ${key}`,
    );
    const row = res.rows[0];
    if (!row) return null;
    const bytes = asBuffer(row.bytes);
    const actual = sha256(bytes);
    if (actual !== row.sha256) {
      this.log?.error({ key, expected: row.sha256, actual }, 'stored file failed its checksum; not served');
      throw new StoredFileCorrupt(key);
    }
    return bytes;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.db.execute(sql`delete from stored_files where key = ${key}`);
  }

  async check(): Promise<boolean> {
    try {
      await this.db.execute(sql`select 1 from stored_files limit 1`);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The store `FILE_STORE` names: `database` (the default with PostgreSQL) or `disk` under `DATA_DIR/files` (the
 * default with the embedded engine).
 */
export function openFileStorage(kind: FileStoreKind, db: Db, dataDir: string, log?: StorageLog): FileStorage {
  return kind === 'database' ? new DatabaseStorage(db, log) : new DiskStorage(join(dataDir, 'files'), log);
}

/** What `migrate-files` did. */
export interface FileMigrationReport {
  /** Files found under the directory. */
  found: number;
  /** Copied into the database now. */
  copied: number;
  /** In the database already with the same checksum (an earlier run). */
  present: number;
  /** Not copied: their bytes fail their checksum, or the database has other bytes under the key. */
  refused: { key: string; reason: string }[];
}

/**
 * Copies every file of a disk store into the database store (`cli.js migrate-files`): each file's bytes are
 * checked against its checksum (when it has one) before, and read back and checked after, the copy. Running it
 * again copies nothing twice. The disk files are left in place (remove them once a backup holds the database).
 */
export async function migrateFilesToDatabase(disk: DiskStorage, db: Db): Promise<FileMigrationReport> {
  const report: FileMigrationReport = { found: 0, copied: 0, present: 0, refused: [] };
  const target = new DatabaseStorage(db);
  for (const key of await disk.keys()) {
    report.found++;
    let bytes: Buffer | null;
    try {
      bytes = await disk.get(key);
    } catch (err) {
      if (!(err instanceof StoredFileCorrupt)) throw err;
      report.refused.push({ key, reason: 'its bytes fail their checksum' });
      continue;
    }
    if (!bytes) continue;
    const checksum = sha256(bytes);
    const existing = await storedFileChecksum(db, key);
    if (existing === checksum) {
      report.present++;
      continue;
    }
    if (existing !== null) {
      report.refused.push({ key, reason: 'the database holds other bytes under this key' });
      continue;
    }
    await insertStoredFile(db, key, bytes, checksum);
    const back = await target.get(key);
    if (!back || sha256(back) !== checksum) throw new Error(`${key}: the copy read back differs`);
    report.copied++;
  }
  return report;
}
