import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listenForChanges, NoticeCache } from '../lib/notice-cache.js';
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

/**
 * What a request's sign-in check reads from the database — the user, their memberships and whether the
 * token's session is still active — kept per instance for signed-in users whose check passed (decision 0012),
 * one entry per user and session, dropped by the notices of migration 0009's triggers on users, sessions,
 * memberships, hospitals and departments (`NoticeCache`: a client that signed out, or an administrator who
 * removed a role, is refused by this instance at once).
 */
export class AuthCache extends NoticeCache<AuthUser> {
  constructor(enabled: boolean, now: () => number = Date.now) {
    super(enabled, { maxEntries: MAX_ENTRIES, maxAgeMs: MAX_AGE_MS }, now);
  }

  /** The user of a valid token of `sessionId` (null: a token without a session), when kept and fresh. */
  get(userId: string, sessionId: string | null): AuthUser | undefined {
    return this.lookup(userId, sessionId ?? '');
  }

  /** Keeps an active user whose session (when the token has one) is active. */
  store(ticket: number, sessionId: string | null, user: AuthUser) {
    this.keep(ticket, user.id, sessionId ?? '', user);
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const cache = new AuthCache(app.config.authCache);
    app.decorate('authCache', cache);
    await listenForChanges(app, AUTH_CHANGED_CHANNEL, cache, app.config.authCache, 'auth cache');
  },
  { name: 'auth-cache', dependencies: ['db'] },
);
