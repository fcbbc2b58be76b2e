import type { FastifyInstance } from 'fastify';
import type { Listener } from '../db/client.js';

/**
 * What an instance keeps of the database between requests, dropped by the database's own change notices
 * (`pg_notify` from triggers, sent when the writing transaction commits, wherever it ran: this instance,
 * another one, or by hand). Entries belong to an owner (a user, a hospital): a notice names the owner whose
 * entries go, or `*` for all of them. Used by the cache of signed-in users (decision 0012) and the bed board
 * (docs/performance.md §bed board).
 *
 * It is only used while the instance listens: a lost listening connection empties it and turns it off until
 * it listens again. A read that started before a notice arrived is not kept (`ticket`/`keep`), and every write
 * request waits for the notices it caused before it answers (`sync`, see `listenForChanges`), so the client's
 * next request to this instance sees its own change. An entry is read again after `maxAgeMs` even without a
 * notice (a safety net for what no trigger watches).
 */
export class NoticeCache<V> {
  private readonly entries = new Map<string, { value: V; owner: string; expires: number }>();
  private readonly keysByOwner = new Map<string, Set<string>>();
  /** Increased by every notice: a read that started before one is not kept. */
  private generation = 0;
  private listening = false;
  private listener: Listener | null = null;
  hits = 0;
  misses = 0;

  constructor(
    private readonly enabled: boolean,
    private readonly limits: { maxEntries: number; maxAgeMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get active(): boolean {
    return this.enabled && this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  attach(listener: Listener) {
    this.listener = listener;
  }

  /** The listening connection is up or lost: either way, what was kept may have missed notices. */
  setListening(listening: boolean) {
    this.clear();
    this.listening = listening;
  }

  /** A change notice: an owner's id, or `*`. */
  notice(payload: string) {
    if (payload === '*') {
      this.clear();
      return;
    }
    this.generation += 1;
    const keys = this.keysByOwner.get(payload);
    if (!keys) return;
    for (const key of keys) this.entries.delete(key);
    this.keysByOwner.delete(payload);
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
    this.keysByOwner.clear();
  }

  /** The value kept for `owner` under `key`, when kept and fresh. */
  lookup(owner: string, key: string): V | undefined {
    if (!this.active) return undefined;
    const full = `${owner}/${key}`;
    const entry = this.entries.get(full);
    if (entry && entry.expires > this.now()) {
      this.hits += 1;
      return entry.value;
    }
    if (entry) this.drop(full, owner);
    this.misses += 1;
    return undefined;
  }

  /** Taken before reading the database; `keep` stores the result only if no notice came in between. */
  ticket(): number {
    return this.generation;
  }

  keep(ticket: number, owner: string, key: string, value: V) {
    if (!this.active || ticket !== this.generation) return;
    const full = `${owner}/${key}`;
    this.entries.delete(full);
    if (this.entries.size >= this.limits.maxEntries) {
      const oldest = this.entries.entries().next().value;
      if (oldest) this.drop(oldest[0], oldest[1].owner);
    }
    this.entries.set(full, { value, owner, expires: this.now() + this.limits.maxAgeMs });
    let keys = this.keysByOwner.get(owner);
    if (!keys) {
      keys = new Set();
      this.keysByOwner.set(owner, keys);
    }
    keys.add(full);
  }

  /**
   * Waits until every change notice committed before the call has been applied. When that cannot be
   * confirmed (the listening connection is down or slow), everything is dropped instead.
   */
  async sync(): Promise<void> {
    if (!this.active || !this.listener) return;
    if (!(await this.listener.sync())) this.clear();
  }

  private drop(full: string, owner: string) {
    this.entries.delete(full);
    const keys = this.keysByOwner.get(owner);
    keys?.delete(full);
    if (keys?.size === 0) this.keysByOwner.delete(owner);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The caches whose notices an app's write requests wait for (one `onSend` hook per app, see below). */
const SYNCED = new WeakMap<FastifyInstance, Set<NoticeCache<unknown>>>();

/**
 * Feeds `cache` with the notices of `channel` for the life of the app: the listening state is logged when it
 * changes, and every write request's answer waits for the notices it caused (so that the client's next request
 * to this instance reads its change). Does nothing when the cache is switched off.
 */
export async function listenForChanges(
  app: FastifyInstance,
  channel: string,
  cache: NoticeCache<unknown>,
  enabled: boolean,
  name: string,
): Promise<void> {
  if (!enabled) return;
  let wasListening: boolean | null = null;
  const listener = await app.database.listen(channel, {
    notice: (payload) => cache.notice(payload),
    state: (listening) => {
      cache.setListening(listening);
      if (wasListening !== null && listening !== wasListening) {
        if (listening) app.log.info(`${name}: listening to change notices again`);
        else app.log.warn(`${name}: change notices lost, every request reads the database`);
      }
      wasListening = listening;
    },
  });
  cache.attach(listener);
  // One hook for all the app's caches, their syncs at once: a write's answer waited for each listening
  // connection's round trip in turn (three on every POST, PATCH and DELETE).
  let caches = SYNCED.get(app);
  if (!caches) {
    const all = new Set<NoticeCache<unknown>>();
    caches = all;
    SYNCED.set(app, all);
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (SAFE_METHODS.has(request.method)) done(null, payload);
      else
        Promise.all([...all].map((c) => c.sync())).then(
          () => done(null, payload),
          (err: Error) => done(err),
        );
    });
  }
  caches.add(cache);
  app.addHook('onClose', async () => {
    cache.setListening(false);
    await listener.close();
  });
}
