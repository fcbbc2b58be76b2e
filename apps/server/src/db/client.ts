import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

/** One type for both drivers: the query builder and transactions behave the same. */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'embedded' | 'postgres';
  /** Applies the committed SQL migrations (idempotent). */
  migrate(): Promise<void>;
  /** Resolves true when the database answers within the time limit. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATION_LOCK_ID = 7_261_337;

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PostgreSQL (PGlite) is used. */
  url?: string | undefined;
  /** Folder for the embedded database; absent means in memory. */
  dataDir?: string | undefined;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  return openEmbedded(options.dataDir);
}

async function openEmbedded(dataDir: string | undefined): Promise<Database> {
  let path: string | undefined;
  if (dataDir) {
    path = join(dataDir, 'pgdata');
    mkdirSync(path, { recursive: true });
  }
  const client = await PGlite.create(path, { extensions: { pg_trgm, unaccent } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'embedded',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => !closed && (await client.query('select 1')).rows.length === 1,
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: (err?: Error) => void) => void;

/**
 * A checked-out client whose connection breaks goes back to the pool (and is dropped) at once, and releasing it
 * again is harmless. Without this a transaction whose `BEGIN` fails on a dead connection never releases its
 * client (drizzle releases only after a successful `BEGIN`): a database restart then leaks pool slots until
 * every request waits for a connection that never comes (found by the PostgreSQL fault test).
 */
function releaseBrokenClients(pool: pg.Pool) {
  const guard = (client: pg.PoolClient) => {
    const release = client.release.bind(client);
    let released = false;
    const finish = (err?: Error | boolean) => {
      if (released) return;
      released = true;
      client.removeListener('error', finish);
      release(err);
    };
    client.on('error', finish);
    client.release = finish;
    return client;
  };
  const connect = pool.connect.bind(pool) as unknown as (
    cb?: ConnectCallback,
  ) => Promise<pg.PoolClient> | undefined;
  const guarded = (cb?: ConnectCallback) => {
    if (typeof cb === 'function') {
      return connect((err, client, done) => {
        if (client) guard(client);
        cb(err, client, client ? client.release : done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then(guard);
  };
  pool.connect = guarded as typeof pool.connect;
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A query that cannot finish (server gone mid-query) must not hang a request forever.
    query_timeout: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one: the pool drops its listener on checkout, and a connection lost between two
  // statements of a transaction would then be an unhandled 'error' event (found by the PostgreSQL fault test).
  // The next query on that client fails instead, and the request answers 503.
  pool.on('connect', (client) => client.on('error', () => {}));
  releaseBrokenClients(pool);
  const db = drizzlePg(pool, { schema });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several instances may start together: a session-level advisory lock lets one migrate at a time.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: async (timeoutMs = 2000) => {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<boolean>((res) => {
          timer = setTimeout(() => res(false), timeoutMs);
        });
        const query = db.execute(sql`select 1`).then(() => true);
        return await Promise.race([query, timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
