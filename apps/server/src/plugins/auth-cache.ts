import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Listener } from '../db/client.js';
import type { AuthUser } from '../modules/users/users.repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    authCache: AuthCache;
  }
}

/** The PostgreSQL channel the triggers of migration 0009 notify: a user id, or `*` for everyone. */
export const AUTH_CHANGED_CHANNEL = 'greensen_auth_changed';
/** Entries kept at most (the oldest go first). */
const MAX_ENTRIES = 10_000;
/** An entry is read again from the database after this long even without a notice (a safety net). */
const MAX_AGE_MS = 60_000;

interface Entry {
  user: AuthUser;
  expires: number;
}

/**
 * What a request's sign-in check reads from the database — the user, their memberships and whether the
 * token's session is still active — kept per instance for signed-in users whose check passed (decision 0012).
 *
 * It is only used while the instance listens to the database's change notices: triggers on users, sessions,
 * memberships, hospitals and departments notify every instance when a change commits, wherever it was made
 * (this instance, another one, or by hand in the database), and the entries concerned are dropped. A loss of
 * the listening connection empties the cache and turns it off until it listens again.
 *
 * A check that reads the database while a notice arrives does not keep what it read (`ticket`/`store`), and
 * every write request waits for the notices it caused before it answers (`sync`, from the onSend hook), so a
 * client that signed out, or an administrator who removed a role, is refused by this instance at once.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysByUser = new Map<string, Set<string>>();
  /** Increased by every notice: a read that started before one is not stored. */
  private generation = 0;
  private listening = false;
  private listener: Listener | null = null;
  hits = 0;
  misses = 0;

  constructor(
    private readonly enabled: boolean,
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

  /** A change notice: a user's id, or `*`. */
  notice(payload: string) {
    if (payload === '*') {
      this.clear();
      return;
    }
    this.generation += 1;
    const keys = this.keysByUser.get(payload);
    if (!keys) return;
    for (const key of keys) this.entries.delete(key);
    this.keysByUser.delete(payload);
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
    this.keysByUser.clear();
  }

  /** The user of a valid token of `sessionId` (null: a token without a session), when kept and fresh. */
  get(userId: string, sessionId: string | null): AuthUser | undefined {
    if (!this.active) return undefined;
    const key = `${userId}/${sessionId ?? ''}`;
    const entry = this.entries.get(key);
    if (entry && entry.expires > this.now()) {
      this.hits += 1;
      return entry.user;
    }
    if (entry) this.drop(key, userId);
    this.misses += 1;
    return undefined;
  }

  /** Taken before reading the database; `store` keeps the result only if no notice came in between. */
  ticket(): number {
    return this.generation;
  }

  /** Keeps an active user whose session (when the token has one) is active. */
  store(ticket: number, sessionId: string | null, user: AuthUser) {
    if (!this.active || ticket !== this.generation) return;
    const key = `${user.id}/${sessionId ?? ''}`;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.drop(oldest, oldest.slice(0, oldest.indexOf('/')));
    }
    this.entries.set(key, { user, expires: this.now() + MAX_AGE_MS });
    let keys = this.keysByUser.get(user.id);
    if (!keys) {
      keys = new Set();
      this.keysByUser.set(user.id, keys);
    }
    keys.add(key);
  }

  /**
   * Waits until every change notice committed before the call has been applied. When that cannot be
   * confirmed (the listening connection is down or slow), everything is dropped instead.
   */
  async sync(): Promise<void> {
    if (!this.active || !this.listener) return;
    if (!(await this.listener.sync())) this.clear();
  }

  private drop(key: string, userId: string) {
    this.entries.delete(key);
    const keys = this.keysByUser.get(userId);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByUser.delete(userId);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export default fp(
  async (app: FastifyInstance) => {
    const cache = new AuthCache(app.config.authCache);
    app.decorate('authCache', cache);
    if (!app.config.authCache) return;
    let wasListening: boolean | null = null;
    const listener = await app.database.listen(AUTH_CHANGED_CHANNEL, {
      notice: (payload) => cache.notice(payload),
      state: (listening) => {
        cache.setListening(listening);
        if (wasListening !== null && listening !== wasListening) {
          if (listening) app.log.info('auth cache: listening to change notices again');
          else app.log.warn('auth cache: change notices lost, every request reads the database');
        }
        wasListening = listening;
      },
    });
    cache.attach(listener);
    // A write may have changed a user, a session or a membership: the answer waits for its notices, so that
    // the client's next request (to this instance) is checked against the change.
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (SAFE_METHODS.has(request.method)) done(null, payload);
      else cache.sync().then(() => done(null, payload), done);
    });
    app.addHook('onClose', async () => {
      cache.setListening(false);
      await listener.close();
    });
  },
  { name: 'auth-cache', dependencies: ['db'] },
);
