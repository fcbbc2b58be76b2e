import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginPair, makeAccount } from '../../test/accounts.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { TEST_DB_KIND } from '../../test/database.js';
import { makeHospital } from '../../test/factories.js';
import { authSessions, hospitals, memberships, users } from '../db/schema/index.js';
import type { AuthUser } from '../modules/users/users.repository.js';
import { AUTH_CHANGED_CHANNEL, AuthCache } from './auth-cache.js';

const user = (id: string, tokenVersion = 0) => ({ id, tokenVersion }) as AuthUser;
const U1 = '00000000-0000-7000-8000-000000000001';
const U2 = '00000000-0000-7000-8000-000000000002';
const S1 = '00000000-0000-7000-8000-0000000000a1';
const S2 = '00000000-0000-7000-8000-0000000000a2';

describe('AuthCache (unit)', () => {
  const listening = (now = () => 0) => {
    const cache = new AuthCache(true, now);
    cache.setListening(true);
    return cache;
  };

  it('keeps a checked user per session, and only while it listens to the change notices', () => {
    const cache = listening();
    cache.store(cache.ticket(), S1, user(U1));
    expect(cache.get(U1, S1)?.id).toBe(U1);
    expect(cache.get(U1, S2)).toBeUndefined();
    expect(cache.get(U1, null)).toBeUndefined();
    cache.setListening(false);
    expect(cache.get(U1, S1)).toBeUndefined();
    cache.store(cache.ticket(), S1, user(U1));
    expect(cache.size).toBe(0);
    const off = new AuthCache(false);
    off.setListening(true);
    off.store(off.ticket(), S1, user(U1));
    expect(off.active).toBe(false);
    expect(off.get(U1, S1)).toBeUndefined();
  });

  it("a user's notice drops that user's sessions only; `*` drops everyone", () => {
    const cache = listening();
    cache.store(cache.ticket(), S1, user(U1));
    cache.store(cache.ticket(), S2, user(U1));
    cache.store(cache.ticket(), null, user(U2));
    cache.notice(U1);
    expect(cache.get(U1, S1)).toBeUndefined();
    expect(cache.get(U1, S2)).toBeUndefined();
    expect(cache.get(U2, null)?.id).toBe(U2);
    cache.notice('*');
    expect(cache.size).toBe(0);
  });

  it('does not keep what was read from the database while a notice came in', () => {
    const cache = listening();
    const ticket = cache.ticket();
    cache.notice(U2); // any notice: the read may predate a change of this user too
    cache.store(ticket, S1, user(U1));
    expect(cache.get(U1, S1)).toBeUndefined();
    cache.store(cache.ticket(), S1, user(U1));
    expect(cache.get(U1, S1)?.id).toBe(U1);
  });

  it('reads the database again after 60 s even without a notice', () => {
    let now = 1_000;
    const cache = listening(() => now);
    cache.store(cache.ticket(), S1, user(U1));
    now += 59_999;
    expect(cache.get(U1, S1)).toBeDefined();
    now += 2;
    expect(cache.get(U1, S1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most 10,000 entries, dropping the oldest', () => {
    const cache = listening();
    const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
    for (let n = 0; n < 10_001; n += 1) cache.store(cache.ticket(), null, user(id(n)));
    expect(cache.size).toBe(10_000);
    expect(cache.get(id(0), null)).toBeUndefined();
    expect(cache.get(id(1), null)).toBeDefined();
    expect(cache.get(id(10_000), null)).toBeDefined();
    cache.notice(id(1));
    expect(cache.size).toBe(9_999);
  });
});

describe(`auth cache in the app (${TEST_DB_KIND})`, () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    a = await createTestApp();
    // A second instance on the same database, as behind a load balancer.
    b = await createTestApp({}, { database: a.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const profile = (ctx: TestContext, access: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ url: '/api/profile/', headers: { ...bearer(access), ...headers } });
  const patients = (ctx: TestContext, access: string, hospitalId: string) =>
    ctx.app.inject({ url: '/api/patients/', headers: { ...bearer(access), 'hospital-id': hospitalId } });

  async function member() {
    const h = await makeHospital(a.app.db);
    const acct = await makeAccount(a.app, {
      role: 'SECRETARY',
      hospitals: [{ id: h.id, departmentId: h.departments[0]!.id }],
    });
    return { h, acct, pair: await loginPair(a.app, acct.email) };
  }

  it('listens on both instances and answers repeated requests without reading the user again', async () => {
    expect(a.app.authCache.active).toBe(true);
    expect(b.app.authCache.active).toBe(true);
    const { pair } = await member();
    const before = { hits: a.app.authCache.hits, misses: a.app.authCache.misses };
    for (let i = 0; i < 5; i += 1) expect((await profile(a, pair.access)).statusCode).toBe(200);
    expect(a.app.authCache.misses - before.misses).toBe(1);
    expect(a.app.authCache.hits - before.hits).toBe(4);
  });

  it('the profile answer, written once per kept user and language, follows a change of name on every instance', async () => {
    const { pair } = await member();
    const fr = await profile(b, pair.access, { 'accept-language': 'fr' });
    expect((await profile(b, pair.access, { 'accept-language': 'fr' })).body).toBe(fr.body);
    const en = await profile(b, pair.access, { 'accept-language': 'en' });
    expect(en.json().roles[0].name).not.toBe(fr.json().roles[0].name);
    const put = await a.app.inject({
      method: 'PUT',
      url: '/api/profile/',
      headers: bearer(pair.access),
      payload: { profile: { first_name: 'Ornella', last_name: 'Kabeya' } },
    });
    expect(put.statusCode, put.body).toBe(200);
    await b.app.authCache.sync();
    for (const lang of ['fr', 'en']) {
      const after = await profile(b, pair.access, { 'accept-language': lang });
      expect(after.json()).toMatchObject({ full_name: 'Ornella Kabeya', profile: { first_name: 'Ornella' } });
    }
  });

  it('a sign-out through one instance ends the token on the other at once', async () => {
    const { pair } = await member();
    expect((await profile(b, pair.access)).statusCode).toBe(200); // kept by B
    const out = await a.app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: bearer(pair.access),
      payload: { refresh: pair.refresh },
    });
    expect(out.statusCode).toBe(200);
    await b.app.authCache.sync();
    expect((await profile(b, pair.access)).statusCode).toBe(401);
    expect((await profile(a, pair.access)).statusCode).toBe(401);
  });

  it('changes made directly in the database reach every instance: disabled user, removed membership, closed hospital', async () => {
    const disabled = await member();
    const removed = await member();
    const closed = await member();
    for (const m of [disabled, removed, closed]) {
      for (const ctx of [a, b]) expect((await patients(ctx, m.pair.access, m.h.id)).statusCode).toBe(200);
    }
    await a.app.db.update(users).set({ isActive: false }).where(eq(users.id, disabled.acct.id));
    await a.app.db
      .update(memberships)
      .set({ isActive: false })
      .where(and(eq(memberships.userId, removed.acct.id), eq(memberships.hospitalId, removed.h.id)));
    await a.app.db.update(hospitals).set({ isActive: false }).where(eq(hospitals.id, closed.h.id));
    for (const ctx of [a, b]) {
      await ctx.app.authCache.sync();
      expect((await patients(ctx, disabled.pair.access, disabled.h.id)).statusCode).toBe(401);
      expect((await patients(ctx, removed.pair.access, removed.h.id)).statusCode).toBe(403);
      expect((await patients(ctx, closed.pair.access, closed.h.id)).statusCode).toBe(403);
      expect((await profile(ctx, removed.pair.access)).json().hospitals).toEqual([]);
    }
  });

  it('a session revoked in the database ends its tokens but not the user’s other sessions', async () => {
    const { acct, pair } = await member();
    const other = await loginPair(a.app, acct.email);
    for (const p of [pair, other]) expect((await profile(b, p.access)).statusCode).toBe(200);
    const [session] = await a.app.db
      .select({ id: authSessions.id })
      .from(authSessions)
      .where(eq(authSessions.userId, acct.id))
      .orderBy(authSessions.createdAt)
      .limit(1);
    await a.app.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(eq(authSessions.id, session!.id));
    await b.app.authCache.sync();
    expect((await profile(b, pair.access)).statusCode).toBe(401);
    expect((await profile(b, other.access)).statusCode).toBe(200);
  });

  it.runIf(TEST_DB_KIND === 'postgres')(
    'a lost listening connection turns the cache off (requests still checked in the database) until it listens again',
    async () => {
      const { acct, pair } = await member();
      expect((await profile(b, pair.access)).statusCode).toBe(200);
      const killed = await a.app.db.execute(
        `select pg_terminate_backend(pid) as done from pg_stat_activity
          where application_name = 'greensen-listen-${AUTH_CHANGED_CHANNEL}' and datname = current_database()`,
      );
      expect(killed.rows.length).toBe(2); // one per instance
      await expect.poll(() => b.app.authCache.active, { timeout: 5000, interval: 20 }).toBe(false);
      expect(b.app.authCache.size).toBe(0);
      // Off: the check reads the database, so a change is seen without any notice.
      await a.app.db.update(users).set({ isActive: false }).where(eq(users.id, acct.id));
      expect((await profile(b, pair.access)).statusCode).toBe(401);
      await a.app.db.update(users).set({ isActive: true }).where(eq(users.id, acct.id));
      await expect.poll(() => b.app.authCache.active, { timeout: 10_000, interval: 50 }).toBe(true);
      expect((await profile(b, pair.access)).statusCode).toBe(200);
      expect((await profile(b, pair.access)).statusCode).toBe(200);
      expect(b.app.authCache.size).toBeGreaterThan(0);
    },
  );

  it('AUTH_CACHE=off: every request reads the database', async () => {
    const off = await createTestApp({ authCache: false }, { database: a.database });
    try {
      const { pair } = await member();
      for (let i = 0; i < 3; i += 1) expect((await profile(off, pair.access)).statusCode).toBe(200);
      expect(off.app.authCache.active).toBe(false);
      expect(off.app.authCache.hits).toBe(0);
      expect(off.app.authCache.size).toBe(0);
    } finally {
      await off.close();
    }
  });
});
