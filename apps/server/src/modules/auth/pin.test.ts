import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginPair, makeAccount } from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { auditEvents, authSessions, users } from '../../db/schema/index.js';

describe('locked session: PIN and password unlock', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  const call = (method: 'POST' | 'DELETE', url: string, access: string, payload?: object, lang = 'fr') =>
    ctx.app.inject({ method, url, headers: { ...bearer(access), 'accept-language': lang }, payload });
  const profile = (access: string) => ctx.app.inject({ url: '/api/profile/', headers: bearer(access) });

  it('sets a PIN with the password, verifies it, and removes it', async () => {
    const acct = await makeAccount(ctx.app);
    const { access } = await loginPair(ctx.app, acct.email);
    const wrongPassword = await call('POST', '/api/pin/setup/', access, {
      pin: '4826',
      password: 'nope-nope-nope',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual({ password: ['Mot de passe incorrect.'] });

    const badFormat = await call(
      'POST',
      '/api/pin/setup/',
      access,
      { pin: '12a', password: acct.password },
      'en',
    );
    expect(badFormat.json()).toEqual({ pin: ['The PIN must be 4 to 6 digits.'] });
    const trivial = await call('POST', '/api/pin/setup/', access, { pin: '1234', password: acct.password });
    expect(trivial.json()).toEqual({ pin: [expect.stringMatching(/trop simple/)] });

    const set = await call('POST', '/api/pin/setup/', access, { pin: '482613', password: acct.password });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ has_pin: true });
    expect((await profile(access)).json().has_pin).toBe(true);
    const [row] = await ctx.app.db.select().from(users).where(eq(users.id, acct.id));
    expect(row!.pinHash).toMatch(/^\$argon2id\$/);

    expect((await call('POST', '/api/pin/verify/', access, { pin: '482613' })).json()).toEqual({ ok: true });
    const wrong = await call('POST', '/api/pin/verify/', access, { pin: '000000' }, 'en');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ pin: ['Incorrect PIN.'], attempts_left: 4 });

    expect((await call('DELETE', '/api/pin/', access)).json()).toEqual({ has_pin: false });
    const none = await call('POST', '/api/pin/verify/', access, { pin: '482613' });
    expect(none.statusCode).toBe(409);
  });

  it('resets the count on success, and the fifth wrong PIN in a row closes this session only', async () => {
    const acct = await makeAccount(ctx.app);
    const locked = await loginPair(ctx.app, acct.email);
    const other = await loginPair(ctx.app, acct.email);
    await call('POST', '/api/pin/setup/', locked.access, { pin: '5190', password: acct.password });

    for (const left of [4, 3]) {
      expect(
        (await call('POST', '/api/pin/verify/', locked.access, { pin: '0000' })).json().attempts_left,
      ).toBe(left);
    }
    expect((await call('POST', '/api/pin/verify/', locked.access, { pin: '5190' })).statusCode).toBe(200);
    for (const left of [4, 3, 2, 1]) {
      const res = await call('POST', '/api/pin/verify/', locked.access, { pin: '0000' });
      expect(res.json().attempts_left).toBe(left);
    }
    const fifth = await call('POST', '/api/pin/verify/', locked.access, { pin: '0000' });
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json()).toEqual({ detail: expect.any(String), code: 'pin_locked' });

    expect((await profile(locked.access)).statusCode).toBe(401);
    const refresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: locked.refresh },
    });
    expect(refresh.statusCode).toBe(401);
    // Nothing else was bumped: the other session of the user goes on.
    expect((await profile(other.access)).statusCode).toBe(200);
    const [s] = await ctx.app.db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.userId, acct.id), eq(authSessions.revokedReason, 'pin_locked')));
    expect(s).toBeDefined();
    const audit = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, acct.id), eq(auditEvents.action, 'auth.pin_lockout')));
    expect(audit).toHaveLength(1);
  });

  it('unlocks with the password when there is no PIN, with the same five-failure rule', async () => {
    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    expect((await call('POST', '/api/unlock/', pair.access, { password: acct.password })).json()).toEqual({
      ok: true,
    });
    for (const left of [4, 3, 2, 1]) {
      const res = await call('POST', '/api/unlock/', pair.access, { password: 'wrong-wrong-wrong' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ password: ['Mot de passe incorrect.'], attempts_left: left });
    }
    const fifth = await call('POST', '/api/unlock/', pair.access, { password: 'wrong-wrong-wrong' });
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().code).toBe('pin_locked');
    expect((await profile(pair.access)).statusCode).toBe(401);
    // Signing in again starts with a clean count.
    const again = await loginPair(ctx.app, acct.email);
    const res = await call('POST', '/api/unlock/', again.access, { password: 'wrong-wrong-wrong' });
    expect(res.json().attempts_left).toBe(4);
  });

  it('needs a signed-in user', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/pin/verify/', payload: { pin: '1234' } });
    expect(res.statusCode).toBe(401);
  });
});
