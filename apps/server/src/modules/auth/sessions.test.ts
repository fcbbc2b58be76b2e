import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_PASSWORD,
  bearer,
  login,
  loginPair,
  makeAccount,
  uniqueEmail,
} from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { auditEvents, authSessions, refreshTokens, users } from '../../db/schema/index.js';

describe('sessions: login, profile, refresh, logout', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  const refresh = (token: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: token } });
  const profile = (access: string) => ctx.app.inject({ url: '/api/profile/', headers: bearer(access) });

  it('signs in with the tokens and the user body of the specification', async () => {
    const h = await makeHospital(ctx.app.db);
    const dept = h.departments[0]!;
    const acct = await makeAccount(ctx.app, {
      role: 'NURSE',
      hospitals: [{ id: h.id, departmentId: dept.id }],
    });
    const res = await login(ctx.app, `  ${acct.email.toUpperCase()} `);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      user: {
        id: acct.id,
        email: acct.email,
        username: expect.any(String),
        full_name: 'Test User',
        profile: { first_name: 'Test', last_name: 'User', language_preference: 'fr' },
        hospitals: [{ id: h.id, name: h.name, code: h.code }],
        departments: [{ id: dept.id, name: dept.name, hospital: h.id }],
        active_roles: [{ role_code: 'NURSE', hospital: h.id, department: dept.id }],
        roles: [{ code: 'NURSE', name: 'Infirmier(ère)' }],
        has_pin: false,
      },
    });
    expect(body.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The access token works, and the profile is the same body.
    const me = await profile(body.access);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.user);
    // The refresh token is stored hashed, never in clear.
    const stored = await ctx.app.db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens);
    expect(stored.map((r) => r.hash)).not.toContain(body.refresh);
    const audit = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, acct.id), eq(auditEvents.action, 'auth.login')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'success', details: { email: acct.email } });
  });

  it('answers the same 401 for an unknown email, a wrong password and a disabled account, and audits each', async () => {
    const acct = await makeAccount(ctx.app);
    const disabled = await makeAccount(ctx.app, { active: false });
    const unknownEmail = uniqueEmail('nobody');
    const answers = [
      await login(ctx.app, unknownEmail),
      await login(ctx.app, acct.email, 'wrong-password-but-long'),
      await login(ctx.app, disabled.email),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(answers[0]!.json());
    }
    expect(answers[0]!.json()).toEqual({
      detail: 'Adresse e-mail ou mot de passe incorrect.',
      code: 'invalid_credentials',
    });
    const failures = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'auth.login'), eq(auditEvents.outcome, 'failure')));
    const emails = failures.map((f) => (f.details as { email: string }).email);
    expect(emails).toEqual(expect.arrayContaining([unknownEmail, acct.email, disabled.email]));
    // The attempted password never reaches the audit trail.
    expect(JSON.stringify(failures)).not.toContain('wrong-password-but-long');
  });

  it('refuses an unverified account with 403 email_not_verified, but only with the right password', async () => {
    const acct = await makeAccount(ctx.app, { verified: false });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/',
      headers: { 'accept-language': 'en' },
      payload: { email: acct.email, password: ACCOUNT_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: expect.stringMatching(/verif/i), code: 'email_not_verified' });
    expect((await login(ctx.app, acct.email, 'not-the-password-at-all')).statusCode).toBe(401);
  });

  it('rotates the refresh token on every refresh; the new pair works', async () => {
    const acct = await makeAccount(ctx.app);
    const first = await loginPair(ctx.app, acct.email);
    const r1 = await refresh(first.refresh);
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(Object.keys(second).sort()).toEqual(['access', 'refresh']);
    expect(second.refresh).not.toBe(first.refresh);
    expect((await profile(second.access)).statusCode).toBe(200);
    const r2 = await refresh(second.refresh);
    expect(r2.statusCode).toBe(200);
    expect((await profile(r2.json().access)).statusCode).toBe(200);
  });

  it('treats a rotated refresh token presented again as theft: the whole family dies, access tokens too', async () => {
    const acct = await makeAccount(ctx.app);
    const first = await loginPair(ctx.app, acct.email);
    const other = await loginPair(ctx.app, acct.email); // another device: must survive
    const newest = (await refresh(first.refresh)).json();
    expect((await profile(newest.access)).statusCode).toBe(200);

    const reuse = await refresh(first.refresh);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ code: 'token_not_valid', detail: expect.any(String) });

    expect((await refresh(newest.refresh)).statusCode).toBe(401);
    expect((await profile(newest.access)).statusCode).toBe(401);
    expect((await profile(first.access)).statusCode).toBe(401);
    // The other session of the same user is untouched.
    expect((await profile(other.access)).statusCode).toBe(200);
    expect((await refresh(other.refresh)).statusCode).toBe(200);

    const [session] = await ctx.app.db
      .select()
      .from(authSessions)
      .where(and(eq(authSessions.userId, acct.id), eq(authSessions.revokedReason, 'reuse')));
    expect(session).toBeDefined();
    const audit = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, acct.id), eq(auditEvents.action, 'auth.refresh_reuse')));
    expect(audit).toHaveLength(1);
  });

  it('refuses unknown, malformed and expired refresh tokens', async () => {
    expect((await refresh('not-a-token')).statusCode).toBe(401);
    const bad = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('refresh');

    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    const [s] = await ctx.app.db.select().from(authSessions).where(eq(authSessions.userId, acct.id));
    await ctx.app.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.sessionId, s!.id));
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
  });

  it('logout revokes the session: its refresh and access tokens stop working', async () => {
    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    const other = await loginPair(ctx.app, acct.email);
    const nothing = await ctx.app.inject({ method: 'POST', url: '/api/logout/', payload: {} });
    expect(nothing.statusCode).toBe(401);

    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: bearer(pair.access),
      payload: { refresh: pair.refresh },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String) });
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
    expect((await profile(pair.access)).statusCode).toBe(401);
    expect((await profile(other.access)).statusCode).toBe(200);
    const audit = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, acct.id), eq(auditEvents.action, 'auth.logout')));
    expect(audit).toHaveLength(1);
  });

  it('logout with the refresh token alone (access token expired) still ends that session', async () => {
    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: bearer('expired.or.forged.token'),
      payload: { refresh: pair.refresh },
    });
    expect(res.statusCode).toBe(200);
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
    expect((await profile(pair.access)).statusCode).toBe(401);
    const audit = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, acct.id), eq(auditEvents.action, 'auth.logout')));
    expect(audit).toHaveLength(1);
  });

  it('logout cannot end a session of another user', async () => {
    const a = await makeAccount(ctx.app);
    const b = await makeAccount(ctx.app);
    const pa = await loginPair(ctx.app, a.email);
    const pb = await loginPair(ctx.app, b.email);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/logout/',
      headers: bearer(pa.access),
      payload: { refresh: pb.refresh },
    });
    expect((await refresh(pb.refresh)).statusCode).toBe(200);
  });

  it('a disabled user: the next API call and the next refresh fail', async () => {
    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    expect((await profile(pair.access)).statusCode).toBe(200);
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, acct.id));
    await ctx.app.authCache.sync(); // a change behind the app's back arrives as a database notice
    expect((await profile(pair.access)).statusCode).toBe(401);
    expect((await refresh(pair.refresh)).statusCode).toBe(401);
  });

  it('an account without a membership signs in and sees no hospital (waiting for assignment)', async () => {
    const acct = await makeAccount(ctx.app);
    const pair = await loginPair(ctx.app, acct.email);
    const me = (await profile(pair.access)).json();
    expect(me).toMatchObject({ hospitals: [], departments: [], active_roles: [], roles: [] });
  });

  it('updates the language and the names; role names follow Accept-Language', async () => {
    const h = await makeHospital(ctx.app.db);
    const acct = await makeAccount(ctx.app, { role: 'SAGE_FEMME', hospitals: [{ id: h.id }] });
    const pair = await loginPair(ctx.app, acct.email);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile/',
      headers: { ...bearer(pair.access), 'accept-language': 'en' },
      payload: { profile: { language_preference: 'en', first_name: ' Awa ', last_name: 'Diallo' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      full_name: 'Awa Diallo',
      profile: { first_name: 'Awa', last_name: 'Diallo', language_preference: 'en' },
      roles: [{ code: 'SAGE_FEMME', name: 'Midwife' }],
    });
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: '/api/profile/',
      headers: bearer(pair.access),
      payload: { profile: { language_preference: 'de' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty(['profile.language_preference']);
    expect((await profile(pair.access)).json().profile.language_preference).toBe('en');
  });

  it('rejects an access token whose session is unknown, even when well signed', async () => {
    const { signAccessToken } = await import('../../lib/tokens.js');
    const acct = await makeAccount(ctx.app);
    const forged = await signAccessToken(ctx.config.jwtSecret, {
      userId: acct.id,
      tokenVersion: acct.tokenVersion,
      sessionId: '01890000-0000-7000-8000-000000000000',
    });
    expect((await profile(forged)).statusCode).toBe(401);
  });

  it('documents every auth route in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject('/api/docs/openapi.json')).json();
    for (const [path, method] of [
      ['/api/login/', 'post'],
      ['/api/token/refresh/', 'post'],
      ['/api/logout/', 'post'],
      ['/api/profile/', 'get'],
      ['/api/profile/', 'put'],
      ['/api/register/', 'post'],
      ['/api/verify-email/{uid}/{token}/', 'get'],
      ['/api/register/resend-verification/', 'post'],
      ['/api/auth/forgot-password/', 'post'],
      ['/api/auth/reset-password/', 'post'],
      ['/api/auth/change-password/', 'post'],
      ['/api/pin/setup/', 'post'],
      ['/api/pin/', 'delete'],
      ['/api/pin/verify/', 'post'],
      ['/api/unlock/', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(doc.paths[path][method].tags).toContain('auth');
    }
  });
});

describe('the hospital a person last worked in (issue 25)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('comes first in the profile, so that the next sign-in opens it again', async () => {
    const a = await makeHospital(ctx.app.db, {
      code: `AA${Date.now().toString(36).slice(-4).toUpperCase()}`,
    });
    const z = await makeHospital(ctx.app.db, {
      code: `ZZ${Date.now().toString(36).slice(-4).toUpperCase()}`,
    });
    const user = await makeUser(ctx.app.db, {
      role: 'DOCTOR',
      hospitals: [{ id: a.id }, { id: z.id }],
    });
    const token = await tokenFor(ctx.config.jwtSecret, user);
    const profile = async () =>
      (await ctx.app.inject({ url: '/api/profile/', headers: authHeaders(token) })).json() as {
        hospitals: { id: string }[];
      };
    // By code at first; after working in the second hospital, that one first.
    expect((await profile()).hospitals.map((h) => h.id)).toEqual([a.id, z.id]);
    const work = await ctx.app.inject({ url: '/api/admissions/', headers: authHeaders(token, z.id) });
    expect(work.statusCode).toBe(200);
    const stored = await ctx.app.db
      .select({ last: users.lastHospitalId })
      .from(users)
      .where(eq(users.id, user.id));
    expect(stored[0]!.last).toBe(z.id);
    ctx.app.authCache.clear();
    expect((await profile()).hospitals.map((h) => h.id)).toEqual([z.id, a.id]);
  });
});
