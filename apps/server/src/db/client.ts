import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ParserOptions,
  PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  types,
} from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import * as schema from './schema/index.js';

/** One type for both drivers: the query builder and transactions behave the same. */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'embedded' | 'postgres';
  /**
   * Applies the committed SQL migrations (idempotent). PostgreSQL: one instance at a time (an advisory lock); a
   * starting instance that finds it held logs that it waits, and gives up after `lockTimeoutMs`
   * (`MigrationLockTimeout`).
   */
  migrate(options?: MigrateOptions): Promise<void>;
  /** Resolves true when the database answers within the time limit. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * Listens to a notification channel (PostgreSQL `LISTEN`). Resolves once the first attempt to listen is
   * over, whether it succeeded or not (`handlers.state` says which, then and at every change).
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
  /**
   * Embedded only: the whole data directory as an uncompressed tarball, after a checkpoint — what
   * `DatabaseOptions.loadDataDir` starts another embedded database from (a migrated template).
   */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
  close(): Promise<void>;
}

export interface MigrateOptions {
  log?: { warn(msg: string): void; info(msg: string): void };
  /** How long to wait for another instance's migrations (default 5 minutes). */
  lockTimeoutMs?: number;
}

/** Another instance held the migration lock longer than the start may wait. */
export class MigrationLockTimeout extends Error {
  constructor(ms: number) {
    super(
      `Gave up after ${Math.round(ms / 1000)} s waiting for the migration lock held by another instance ` +
        '(another instance migrating, or a session stuck holding it: see pg_locks, locktype advisory). ' +
        'Raise MIGRATION_LOCK_TIMEOUT_S or end that session, then start again.',
    );
  }
}

export interface ListenHandlers {
  /** One notice's payload (`pg_notify(channel, payload)`), when the transaction that sent it commits. */
  notice(payload: string): void;
  /**
   * The listening connection is up (true) or lost (false). Notices sent while it is down are lost: whatever
   * they would have invalidated must be dropped. A lost connection is re-opened (every 0.25 s to 5 s).
   */
  state(listening: boolean): void;
}

export interface Listener {
  /**
   * Resolves true once every notice committed before the call has reached `handlers.notice` (a round trip
   * on the listening connection: the server sends pending notices before the answer), false when that cannot
   * be confirmed (not listening, or no answer within `timeoutMs`).
   */
  sync(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A promise that resolves `fallback` after `ms` unless `work` settles first; a rejection becomes `fallback`. */
async function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((res) => {
    timer = setTimeout(() => res(fallback), ms);
  });
  try {
    return await Promise.race([work.catch(() => fallback), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const MIGRATION_LOCK_ID = 7_261_337;

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PostgreSQL (PGlite) is used. */
  url?: string | undefined;
  /** Folder for the embedded database; absent means in memory. */
  dataDir?: string | undefined;
  /**
   * Embedded only: start from this data directory (a tarball from `Database.dumpDataDir`) instead of an empty
   * cluster — skips the cluster's creation and every migration the tarball already holds.
   */
  loadDataDir?: Blob | undefined;
  poolSize?: number;
  /**
   * How many repeated statements stay prepared (256 by default; 0: none, every statement parsed and planned at
   * every run): on the embedded database `EmbeddedStatements`, on PostgreSQL per connection (`RepeatedStatements`).
   */
  preparedStatements?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url)
    return openPostgres(options.url, options.poolSize ?? 10, options.preparedStatements ?? 256);
  return openEmbedded(options.dataDir, options.loadDataDir, options.preparedStatements);
}

/**
 * The types drizzle's PGlite driver keeps as text (timestamps, dates, intervals and their arrays, numeric arrays):
 * the same parsers it passes with every query.
 */
const KEPT_AS_TEXT: ParserOptions = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
    (oid) => [oid, (value: string) => value],
  ),
);

/** The protocol messages PGlite answers (what `parseResults` reads). */
type Messages = Parameters<typeof parse.parseResults>[0];

/** A statement prepared on the embedded database: its name, parameter types and row description. */
interface Prepared {
  name: string;
  paramTypes: number[];
  /** The `RowDescription` of the statement (none for a statement that returns no rows). */
  rowDescription: Messages;
}

/** PostgreSQL's "cached plan must not change result type": a table changed under a prepared statement. */
const RESULT_TYPE_CHANGED = '0A000';

/** Statements worth keeping prepared: the data statements (not `SET`, `BEGIN`, DDL or `CHECKPOINT`). */
const PREPARABLE = /^[\s(]*(select|with|insert|update|delete)\b/i;

/**
 * Which data statements came back (decision 0050): a statement run once is not worth a prepared plan, so both
 * engines name a statement from its second sighting. Texts seen once are many (lists of n parameters,
 * migrations): past `limit` of them the sightings are forgotten rather than grown forever.
 */
class Sightings {
  readonly #once = new Set<string>();

  constructor(private readonly limit: number) {}

  /** True when `text` is a data statement seen once before (the caller keeps it from then on). */
  repeated(text: string): boolean {
    if (!PREPARABLE.test(text)) return false;
    if (this.#once.delete(text)) return true;
    if (this.#once.size >= this.limit) this.#once.clear();
    this.#once.add(text);
    return false;
  }
}

/**
 * Server-side prepared statements for the embedded database (decision 0050), as JDBC's `prepareThreshold` does:
 * a data statement's text seen a second time is parsed once under a name, and later runs only bind and execute
 * it. PostgreSQL's plan cache then skips the parse and analysis every time, and the planning too once a generic
 * plan is estimated no worse than the custom ones (after five runs, `plan_cache_mode = auto`). drizzle sends every
 * statement unnamed, so PGlite parsed, analysed and planned each one again at every run, in the server's own
 * thread: half the time of the nurse's task list (5 ms of planning for 4 ms of execution).
 *
 * The protocol is PGlite's own query path (`parse`, `describe`, `bind`, `execute`, `sync` under its query lock) with
 * a named statement; the answers are parsed by PGlite's own `parseResults`, with the row description kept from the
 * statement's description. At most `limit` statements stay prepared (the least recently used is closed).
 */
class EmbeddedStatements {
  readonly #statements = new Map<string, Prepared>();
  readonly #sightings: Sightings;
  #next = 0;

  constructor(
    private readonly client: PGlite,
    /** How many statements stay prepared at most; 0 prepares none. */
    private readonly limit = 256,
  ) {
    this.#sightings = new Sightings(4 * limit);
  }

  /** Runs `text` as `client.query` would; `inTransaction`: under a transaction's lock (the caller holds it). */
  async query<T>(
    text: string,
    params: unknown[] = [],
    options: QueryOptions | undefined,
    run: () => Promise<Results<T>>,
    inTransaction: boolean,
  ): Promise<Results<T>> {
    if (this.limit === 0 || options?.blob || !this.#worthPreparing(text)) return run();
    const client = this.client;
    const work = () =>
      client._runExclusiveQuery(async () => {
        const send = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });
        const statement = await this.#prepared(text, options, send);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement.paramTypes[i]!;
          const serializer = options?.serializers?.[type] ?? client.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const messages: Messages = [...statement.rowDescription];
        try {
          messages.push(
            ...(await send(protocol.serialize.bind({ statement: statement.name, values }))),
            ...(await send(protocol.serialize.execute({}))),
          );
        } catch (error) {
          // A statement whose result changed shape under it (DDL since it was prepared) is prepared again.
          if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) this.#statements.delete(text);
          throw Object.assign(error as object, { query: text, params });
        } finally {
          messages.push(...(await send(protocol.serialize.sync())));
        }
        if (!inTransaction) await client.syncToFs();
        return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
      });
    if (inTransaction) return work();
    await client._checkReady();
    try {
      return await client._runExclusiveTransaction(work);
    } catch (error) {
      // Outside a transaction nothing was done yet: the statement runs again, unprepared this time.
      if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) return run();
      throw error;
    }
  }

  /** Prepared already, or a data statement seen before. */
  #worthPreparing(text: string): boolean {
    return this.#statements.has(text) || this.#sightings.repeated(text);
  }

  async #prepared(
    text: string,
    options: QueryOptions | undefined,
    send: (message: Uint8Array) => Promise<Messages>,
  ): Promise<Prepared> {
    const known = this.#statements.get(text);
    if (known) {
      // Most recently used last: the first entry is the one to close when the cache is full.
      this.#statements.delete(text);
      this.#statements.set(text, known);
      return known;
    }
    if (this.#statements.size >= this.limit) {
      const [oldest, statement] = this.#statements.entries().next().value as [string, Prepared];
      this.#statements.delete(oldest);
      await send(protocol.serialize.close({ type: 'S', name: statement.name }));
    }
    const name = `greensen_${++this.#next}`;
    let described: Messages;
    try {
      await send(protocol.serialize.parse({ name, text, types: options?.paramTypes ?? [] }));
      described = await send(protocol.serialize.describe({ type: 'S', name }));
    } catch (error) {
      throw Object.assign(error as object, { query: text });
    } finally {
      await send(protocol.serialize.sync());
    }
    const statement: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      rowDescription: described.filter((m) => m.name === 'rowDescription'),
    };
    this.#statements.set(text, statement);
    return statement;
  }
}

/**
 * The client as drizzle sees it: queries without their per-query parsers, which the client already has (PGlite
 * merges per-query parsers into its whole table, one entry per array type of the catalogue, several hundred, on
 * every query: a third of the cost of a simple statement, docs/performance.md), and repeated statements prepared
 * (`EmbeddedStatements`). Transactions get the same view.
 */
function embeddedClient<T extends Pick<Transaction, 'query'>>(
  client: T,
  statements: EmbeddedStatements,
  inTransaction: boolean,
): T {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'query')
        return <R>(text: string, params?: unknown[], options?: QueryOptions) => {
          const own = options && { ...options, parsers: undefined };
          return statements.query<R>(
            text,
            params,
            own,
            () => target.query<R>(text, params, own),
            inTransaction,
          );
        };
      if (prop === 'transaction' && target instanceof PGlite)
        return <R>(fn: (tx: Transaction) => Promise<R>) =>
          target.transaction((tx) => fn(embeddedClient(tx, statements, true)));
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function openEmbedded(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
  preparedStatements = 256,
): Promise<Database> {
  let path: string | undefined;
  let unlock = () => {};
  if (dataDir) {
    path = join(dataDir, 'pgdata');
    mkdirSync(path, { recursive: true });
    // One process at a time on a data directory (the server, or a command-line task): the others refuse.
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(path, {
      extensions: { btree_gist, pg_trgm, unaccent },
      parsers: KEPT_AS_TEXT,
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  // The array types the client reads from the catalogue when it starts replaced the option's array entries.
  Object.assign(client.parsers, KEPT_AS_TEXT);
  const db = drizzlePglite(
    embeddedClient(client, new EmbeddedStatements(client, preparedStatements), false),
    {
      schema,
    },
  ) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'embedded',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => !closed && (await client.query('select 1')).rows.length === 1,
    // One connection: a notice reaches the listeners before the statement that committed it resolves.
    listen: async (channel, handlers) => {
      const unlisten = await client.listen(channel, handlers.notice);
      handlers.state(true);
      return {
        sync: async () => !closed,
        close: async () => {
          if (!closed) await unlisten().catch(() => {});
        },
      };
    },
    dumpDataDir: async (compression = 'none') => {
      await client.query('checkpoint');
      return client.dumpDataDir(compression);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * PostgreSQL: repeated data statements prepared under a name on each connection (decision 0050), as on the
 * embedded engine. drizzle sends every statement unnamed, so the server parsed, analysed and planned each one at
 * every run; node-postgres parses a named statement once per connection and then only binds and executes it, and
 * PostgreSQL's plan cache keeps a generic plan when it is estimated no worse than the custom ones. A statement is
 * named from its second sighting in this process (its text's hash: the same on every connection), and each
 * connection keeps at most `limit` of them (the first ones it meets; the pool closes idle connections, so the set
 * renews itself). Statements a caller named itself are left as they are.
 */
class RepeatedStatements {
  readonly #names = new Map<string, string>();
  readonly #sightings = new Sightings(4096);

  /** The name of `text` once it has been seen before, else undefined. */
  nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known) return known;
    if (!this.#sightings.repeated(text)) return undefined;
    const name = `greensen_${createHash('sha1').update(text).digest('hex').slice(0, 32)}`;
    if (this.#names.size >= 4096) this.#names.clear();
    this.#names.set(text, name);
    return name;
  }

  /** Names the repeated statements `client` runs, at most `limit` per connection. */
  prepareOn(client: pg.PoolClient, limit: number) {
    if (limit === 0) return;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const named = new Set<string>();
    client.query = ((config: unknown, ...rest: unknown[]) => {
      if (config && typeof config === 'object' && 'text' in config && !(config as { name?: string }).name) {
        const name = this.nameOf((config as { text: string }).text);
        if (name && (named.has(name) || named.size < limit)) {
          named.add(name);
          return query({ ...config, name }, ...rest);
        }
      }
      return query(config, ...rest);
    }) as typeof client.query;
  }
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

async function openPostgres(url: string, max: number, preparedStatements: number): Promise<Database> {
  // The PostgreSQL driver is loaded only where PostgreSQL is used (issue 38: the embedded database's start).
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
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
  const repeated = new RepeatedStatements();
  pool.on('connect', (client) => repeated.prepareOn(client, preparedStatements));
  releaseBrokenClients(pool);
  const db = drizzlePg(pool, { schema });
  let closed = false;
  return {
    db,
    kind: 'postgres',
    migrate: async ({ log, lockTimeoutMs = 300_000 } = {}) => {
      // Several instances may start together: a session-level advisory lock lets one migrate at a time. The wait
      // is logged and bounded.
      const client = await pool.connect();
      const take = async () =>
        (await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [MIGRATION_LOCK_ID]))
          .rows[0]!.ok;
      try {
        if (!(await take())) {
          log?.warn('waiting for the migration lock held by another instance…');
          const deadline = Date.now() + lockTimeoutMs;
          for (;;) {
            await new Promise((r) => setTimeout(r, Math.min(500, lockTimeoutMs)));
            if (await take()) break;
            if (Date.now() >= deadline) throw new MigrationLockTimeout(lockTimeoutMs);
          }
          log?.info('migration lock taken');
        }
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: async (timeoutMs = 2000) =>
      !closed &&
      within(
        db.execute(sql`select 1`).then(() => true),
        timeoutMs,
        false,
      ),
    listen: (channel, handlers) => listenPostgres(pg, url, channel, handlers),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * A dedicated connection (not one of the pool's) that listens to `channel` and comes back after a loss:
 * every 0.25 s, doubling up to 5 s, until it listens again or is closed.
 */
async function listenPostgres(
  pg: typeof import('pg').default,
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<Listener> {
  let current: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = 250;

  const schedule = () => {
    if (closed) return;
    retry = setTimeout(() => void open(), delay);
    retry.unref();
    delay = Math.min(delay * 2, 5000);
  };
  const open = async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 3000,
      query_timeout: 5000,
      keepAlive: true,
      application_name: `greensen-listen-${channel}`,
    });
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      client.end().catch(() => {});
      if (current === client) {
        current = null;
        handlers.state(false);
      }
      schedule();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === channel) handlers.notice(n.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      lost();
      return;
    }
    if (closed || gone) {
      if (!gone) {
        gone = true;
        await client.end().catch(() => {});
      }
      return;
    }
    current = client;
    delay = 250;
    handlers.state(true);
  };

  // One round trip at a time on the connection; callers that come while one is on its way share the next one
  // (the one on its way may have been sent before their own changes committed).
  let inFlight: Promise<boolean> | null = null;
  let queued: Promise<boolean> | null = null;
  const roundTrip = (timeoutMs: number): Promise<boolean> => {
    const client = current;
    if (!client) return Promise.resolve(false);
    const trip = within(
      client.query('select 1').then(() => true),
      timeoutMs,
      false,
    ).then((answered) => {
      // No answer in time: the connection is treated as lost (and opened again).
      if (!answered && current === client) client.end().catch(() => {});
      return answered;
    });
    inFlight = trip.finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  await open();
  if (!current) handlers.state(false);
  return {
    sync: (timeoutMs = 2000) => {
      if (!inFlight) return roundTrip(timeoutMs);
      queued ??= inFlight.then(() => {
        queued = null;
        return roundTrip(timeoutMs);
      });
      return queued;
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = null;
      if (client) await client.end().catch(() => {});
    },
  };
}
