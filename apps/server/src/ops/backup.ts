import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import type { Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { setJobsHeld } from '../jobs/queue.js';
import { DiskStorage, StoredFileCorrupt } from '../lib/storage.js';

/**
 * `cli.js backup <archive>` and `cli.js restore <archive>` (decision 0058): one tar archive holding the database and
 * every stored file.
 *
 * - PostgreSQL: `pg_dump -Fc` (one consistent snapshot of every table, `stored_files` included — the files of
 *   `FILE_STORE=database`); it needs the `postgresql-client` package of the server's major version or newer.
 * - Embedded: the data directory as PGlite dumps it (after a checkpoint), taken under the data directory's lock:
 *   the server must be stopped (one writer per embedded database).
 * - `FILE_STORE=disk`: `DATA_DIR/files` (with each file's checksum), copied after the database's snapshot. Files are
 *   written once under a new key and never changed, so every file a row of the snapshot refers to is there.
 *
 * A restore goes into an empty place only, and the restored installation's background jobs are held (no mail, no
 * SMS) until an administrator releases them (`cli.js release-jobs`).
 */

export const MANIFEST = 'manifest.json';
const PG_DUMP = 'database.pgdump';
const PGDATA = 'pgdata.tar.gz';
const FILES = 'files';

export interface BackupManifest {
  format: 'greensen-backup';
  version: 1;
  engine: 'postgres' | 'embedded';
  file_store: 'database' | 'disk';
  created_at: string;
  app_version: string;
  /** Stored files in the archive's `files/` (the disk store); those of the database store are in the dump. */
  files: number;
}

/** A backup or restore that cannot be done as asked (the message says why and what to do). */
export class BackupRefused extends Error {}

/** `url` without its password, and the password for `PGPASSWORD` (never on a command line others can read). */
function pgConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (err) =>
      reject(
        (err as { code?: string }).code === 'ENOENT'
          ? new BackupRefused(
              `${command} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's major version or newer.`,
            )
          : err,
      ),
    );
    child.on('exit', (code) =>
      code === 0
        ? resolvePromise()
        : reject(new BackupRefused(`${command} failed (exit code ${code}):\n${stderr.trim()}`)),
    );
  });
}

function diskFilesDir(config: Config): string {
  return join(config.dataDir, FILES);
}

function isEmptyDir(path: string): boolean {
  return !existsSync(path) || readdirSync(path).length === 0;
}

export interface BackupReport {
  archive: string;
  manifest: BackupManifest;
}

/** Writes the archive (under a temporary name, renamed once whole: a failed backup leaves no archive). */
export async function backup(config: Config, archivePath: string): Promise<BackupReport> {
  const archive = resolve(archivePath);
  if (existsSync(archive)) throw new BackupRefused(`${archive} exists already: give a new file name.`);
  mkdirSync(dirname(archive), { recursive: true });
  const staging = mkdtempSync(join(dirname(archive), `.${basename(archive)}.`));
  const partial = `${archive}.partial`;
  try {
    const engine = config.databaseUrl ? 'postgres' : 'embedded';
    if (config.databaseUrl) {
      const { url, env } = pgConnection(config.databaseUrl);
      await run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          '--file',
          join(staging, PG_DUMP),
          '--dbname',
          url,
        ],
        env,
      );
    } else {
      // Opening takes the data directory's lock: a running server makes this refuse (DataDirLocked).
      const database = await openDatabase({ dataDir: config.dataDir });
      try {
        const dump = await database.dumpDataDir!('gzip');
        await writeFile(join(staging, PGDATA), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await database.close();
      }
    }
    const disk = new DiskStorage(diskFilesDir(config));
    const keys = config.fileStore === 'disk' ? await disk.keys() : [];
    const manifest: BackupManifest = {
      format: 'greensen-backup',
      version: 1,
      engine,
      file_store: config.fileStore,
      created_at: new Date().toISOString(),
      app_version: config.version,
      files: keys.length,
    };
    writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create({ file: partial, cwd: staging, portable: true }, [
      MANIFEST,
      engine === 'postgres' ? PG_DUMP : PGDATA,
    ]);
    // The stored files (each with its `.sha256`), appended from DATA_DIR after the database's snapshot.
    if (keys.length > 0) {
      const entries = keys.flatMap((k) => {
        const sidecar = `${FILES}/${k}.sha256`;
        return existsSync(join(config.dataDir, sidecar)) ? [`${FILES}/${k}`, sidecar] : [`${FILES}/${k}`];
      });
      await tar.replace({ file: partial, cwd: config.dataDir, portable: true }, entries);
    }
    renameSync(partial, archive);
    return { archive, manifest };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** Stored files restored to DATA_DIR/files, each checked against its checksum. */
  files: number;
}

/** Restores an archive into an empty database (PostgreSQL) or an empty DATA_DIR (embedded), jobs held. */
export async function restore(config: Config, archivePath: string): Promise<RestoreReport> {
  const archive = resolve(archivePath);
  if (!existsSync(archive)) throw new BackupRefused(`${archive} does not exist.`);
  mkdirSync(config.dataDir, { recursive: true });
  const staging = mkdtempSync(join(config.dataDir, '.restore-'));
  try {
    await tar.extract({ file: archive, cwd: staging, filter: (path) => !path.startsWith(`${FILES}/`) });
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(readFileSync(join(staging, MANIFEST), 'utf8')) as BackupManifest;
    } catch {
      throw new BackupRefused(`${archive} is not a Greensen backup (no ${MANIFEST}).`);
    }
    if (manifest.format !== 'greensen-backup' || manifest.version !== 1)
      throw new BackupRefused(`${archive} is not a Greensen backup this version can read.`);
    const engine = config.databaseUrl ? 'postgres' : 'embedded';
    if (manifest.engine !== engine)
      throw new BackupRefused(
        manifest.engine === 'postgres'
          ? 'This archive holds a PostgreSQL database: set DATABASE_URL to an empty database to restore it.'
          : 'This archive holds an embedded database: unset DATABASE_URL and set DATA_DIR to an empty directory.',
      );
    const filesDir = diskFilesDir(config);
    if (manifest.files > 0 && !isEmptyDir(filesDir))
      throw new BackupRefused(`${filesDir} is not empty: a restore goes into an empty place only.`);

    if (config.databaseUrl) {
      const database = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
      try {
        const tables = await database.db.execute<{ n: number }>(sql`
          select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p', 'v', 'm', 'S')
            and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`);
        if (tables.rows[0]!.n > 0)
          throw new BackupRefused(
            'The database DATABASE_URL names is not empty: a restore goes into an empty database only (CREATE DATABASE a new one).',
          );
      } finally {
        await database.close();
      }
      const { url, env } = pgConnection(config.databaseUrl);
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          '--dbname',
          url,
          join(staging, PG_DUMP),
        ],
        env,
      );
      const restored = await openDatabase({ url: config.databaseUrl, poolSize: 1 });
      try {
        await setJobsHeld(restored.db, true, null);
      } finally {
        await restored.close();
      }
    } else {
      const pgdata = join(config.dataDir, 'pgdata');
      if (!isEmptyDir(pgdata))
        throw new BackupRefused(`${pgdata} is not empty: a restore goes into an empty DATA_DIR only.`);
      const dump = new Blob([await readFile(join(staging, PGDATA))]);
      const restored = await openDatabase({ dataDir: config.dataDir, loadDataDir: dump });
      try {
        await setJobsHeld(restored.db, true, null);
      } finally {
        await restored.close();
      }
    }

    let files = 0;
    if (manifest.files > 0) {
      await tar.extract({
        file: archive,
        cwd: config.dataDir,
        filter: (path) => path.startsWith(`${FILES}/`),
      });
      const disk = new DiskStorage(filesDir);
      for (const key of await disk.keys()) {
        try {
          await disk.get(key);
        } catch (err) {
          if (err instanceof StoredFileCorrupt)
            throw new BackupRefused(`${key}: its bytes fail their checksum in the archive.`);
          throw err;
        }
        files++;
      }
      if (files !== manifest.files)
        throw new BackupRefused(`The archive lists ${manifest.files} stored files but holds ${files}.`);
    }
    return { manifest, files };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
