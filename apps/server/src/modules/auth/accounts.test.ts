import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  clientIp,
  lastLink,
  login,
  loginPair,
  makeAccount,
  outboxFor,
  uniqueEmail,
} from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { makeHospital, makeUser } from '../../../test/factories.js';
import { auditEvents, emailTokens, jobs, notifications, users } from '../../db/schema/index.js';

const NEW_PASSWORD = 'quiet-orchard-copper-88';

describe('registration, verification, password reset', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ publicUrl: 'https://greensen.example.org' });
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url, payload, headers, remoteAddress: clientIp() });
  const register = (payload: object, headers: Record<string, string> = {}) =>
    post('/api/register/', payload, headers);
  const registration = (email = uniqueEmail('reg')) => ({
    email,
    first_name: 'Awa',
    last_name: 'Diallo',
    password: 'saffron-tiger-window-12',
  });
  const actions = async (userId: string) =>
    (await ctx.app.db.select().from(auditEvents).where(eq(auditEvents.userId, userId))).map(
      (a) => `${a.action}:${a.outcome}`,
    );

  it('register → verification mail in the outbox → verify link → sign in, with no hospital yet', async () => {
    const body = registration();
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(String), email: body.email, detail: expect.any(String) });

    // Not verified yet: the right password gets 403.
    expect((await login(ctx.app, body.email, body.password)).statusCode).toBe(403);

    const { url, path, mail } = await lastLink(ctx.app, body.email);
    expect(mail.subject).toMatch(/Vérifiez/);
    expect(url.startsWith(`https://greensen.example.org/verify-email/${created.id}/`)).toBe(true);
    const token = path.split('/')[3]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only a hash of the token is stored.
    const stored = await ctx.app.db.select().from(emailTokens).where(eq(emailTokens.userId, created.id));
    expect(stored.map((t) => t.tokenHash)).not.toContain(token);

    const verify = await ctx.app.inject(`/api/verify-email/${created.id}/${token}/`);
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ detail: expect.any(String) });
    // Single use.
    const again = await ctx.app.inject(`/api/verify-email/${created.id}/${token}/`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'Ce lien de vérification est invalide ou a expiré.' });

    const pair = await loginPair(ctx.app, body.email, body.password);
    expect(pair.user).toMatchObject({
      email: body.email,
      full_name: 'Awa Diallo',
      hospitals: [],
      active_roles: [],
    });
    expect(await actions(created.id)).toEqual(
      expect.arrayContaining(['auth.register:success', 'auth.email_verified:success', 'auth.login:success']),
    );
  });

  it('a verified account waiting for assignment notifies the administrators of each hospital, once', async () => {
    const h = await makeHospital(ctx.app.db);
    const admin = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: h.id }] });
    const nurse = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h.id }] });
    const body = registration();
    const created = (await register(body)).json();
    const forAdmin = () =>
      ctx.app.db.select().from(notifications).where(eq(notifications.recipientId, admin.id));
    expect(await forAdmin()).toHaveLength(0); // an unverified sign-up bothers nobody
    const { path } = await lastLink(ctx.app, body.email);
    expect((await ctx.app.inject(`/api/verify-email/${created.id}/${path.split('/')[3]}/`)).statusCode).toBe(
      200,
    );
    const sent = await forAdmin();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      notificationType: 'other',
      hospitalId: h.id,
      data: { action: 'account_waiting', user_id: created.id },
    });
    expect(
      await ctx.app.db.select().from(notifications).where(eq(notifications.recipientId, nurse.id)),
    ).toHaveLength(0);
  });

  it('writes the mail and the link in the language of the request (English under /en)', async () => {
    const body = registration();
    const res = await register(body, { 'accept-language': 'en-US,en;q=0.9' });
    expect(res.json().detail).toMatch(/verification link/);
    const { url, mail } = await lastLink(ctx.app, body.email);
    expect(url.startsWith(`https://greensen.example.org/en/verify-email/${res.json().id}/`)).toBe(true);
    expect(mail.subject).toBe('Verify your email address — Greensen');
    expect(mail.textBody).toMatch(/^Hello Awa,/);
    const [u] = await ctx.app.db.select().from(users).where(eq(users.id, res.json().id));
    expect(u!.languagePreference).toBe('en');
  });

  it('refuses a duplicate email with a field error, and a taken username', async () => {
    const acct = await makeAccount(ctx.app);
    const dup = await register({ ...registration(acct.email.toUpperCase()) });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ email: ['Un compte existe déjà avec cette adresse e-mail.'] });
    const first = registration();
    expect((await register({ ...first, username: 'awa.d' })).statusCode).toBe(201);
    // An empty username is derived from the email.
    expect((await register({ ...registration(), username: '' })).statusCode).toBe(201);
    const taken = await register({ ...registration(), username: 'awa.d' }, { 'accept-language': 'en' });
    expect(taken.json()).toEqual({ username: ['This username is already taken.'] });
  });

  it('checks passwords: 12 to 128 characters, not a common one, messages in French or English', async () => {
    const short = await register({ ...registration(), password: 'court' });
    expect(short.statusCode).toBe(400);
    expect(short.json().password).toEqual(['Le mot de passe doit contenir au moins 12 caractères.']);
    const shortEn = await register({ ...registration(), password: 'short' }, { 'accept-language': 'en' });
    expect(shortEn.json().password).toEqual(['The password must be at least 12 characters long.']);
    const long = await register({ ...registration(), password: 'x'.repeat(129) });
    expect(long.json().password).toEqual(['Le mot de passe ne peut pas dépasser 128 caractères.']);
    for (const common of ['password123456', 'AzertyUiop123', 'motdepasse123', 'Septembre2024!']) {
      const res = await register({ ...registration(), password: common }, { 'accept-language': 'en' });
      expect(res.statusCode, common).toBe(400);
      expect(res.json().password, common).toEqual([expect.stringMatching(/too common/)]);
    }
    const bad = await register({
      email: 'not-an-email',
      first_name: '',
      last_name: 'X',
      password: NEW_PASSWORD,
    });
    expect(bad.json()).toMatchObject({
      email: ['Saisissez une adresse e-mail valide.'],
      first_name: ['Ce champ est obligatoire.'],
    });
  });

  it('answers resend-verification the same for an unknown, a verified and an unverified address', async () => {
    const verified = await makeAccount(ctx.app);
    const pending = await makeAccount(ctx.app, { verified: false });
    const unknown = uniqueEmail('ghost');
    const answers = await Promise.all(
      [unknown, verified.email, pending.email].map((email) =>
        post('/api/register/resend-verification/', { email }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(answers[0]!.body);
    }
    expect(await outboxFor(ctx.app, unknown)).toHaveLength(0);
    expect(await outboxFor(ctx.app, verified.email)).toHaveLength(0);
    const { path } = await lastLink(ctx.app, pending.email);
    const [, , uid, token] = path.split('/');
    expect((await ctx.app.inject(`/api/verify-email/${uid}/${token}/`)).statusCode).toBe(200);
    expect((await login(ctx.app, pending.email)).statusCode).toBe(200);
  });

  it('refuses verification links that are expired, of another user or malformed, with {error}', async () => {
    const a = await makeAccount(ctx.app, { verified: false });
    const b = await makeAccount(ctx.app, { verified: false });
    await post('/api/register/resend-verification/', { email: a.email });
    const { path } = await lastLink(ctx.app, a.email);
    const token = path.split('/')[3]!;
    expect((await ctx.app.inject(`/api/verify-email/${b.id}/${token}/`)).statusCode).toBe(400);
    for (const bad of [`not-a-uuid/${token}`, `${'a'.repeat(300)}/${token}`, `${a.id}/${'t'.repeat(400)}`]) {
      const res = await ctx.app.inject(`/api/verify-email/${bad}/`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'Ce lien de vérification est invalide ou a expiré.' });
    }
    await ctx.app.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, a.id));
    const expired = await ctx.app.inject({
      url: `/api/verify-email/${a.id}/${token}/`,
      headers: { 'accept-language': 'en' },
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ error: 'This verification link is invalid or has expired.' });
    expect((await login(ctx.app, a.email)).statusCode).toBe(403);
  });

  it('answers forgot-password the same for known and unknown addresses; only the known one gets mail', async () => {
    const acct = await makeAccount(ctx.app);
    const unknown = uniqueEmail('ghost');
    const known = await post('/api/auth/forgot-password/', { email: acct.email });
    const none = await post('/api/auth/forgot-password/', { email: unknown });
    expect(known.statusCode).toBe(200);
    expect(none.statusCode).toBe(200);
    expect(known.body).toBe(none.body);
    expect(await outboxFor(ctx.app, unknown)).toHaveLength(0);
    expect(await outboxFor(ctx.app, acct.email)).toHaveLength(1);
    const requested = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'auth.password_reset_requested'));
    expect(requested.map((r) => (r.details as { email: string }).email)).toEqual(
      expect.arrayContaining([acct.email, unknown]),
    );
    const invalid = await post('/api/auth/forgot-password/', { email: 'nope' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toHaveProperty('email');
  });

  it('forgot → outbox link → reset: every old session dies, the new password signs in', async () => {
    const acct = await makeAccount(ctx.app);
    const before = await loginPair(ctx.app, acct.email);
    await post('/api/auth/forgot-password/', { email: acct.email });
    const { url, path } = await lastLink(ctx.app, acct.email);
    // One segment `{uid}.{token}`, as the web route /reset-password/{token} expects.
    expect(url.startsWith(`https://greensen.example.org/reset-password/${acct.id}.`)).toBe(true);
    const [uid, token] = path.split('/')[2]!.split('.');

    const weak = await post('/api/auth/reset-password/', { uid, token, new_password: 'password123456' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toHaveProperty('new_password');

    const res = await post('/api/auth/reset-password/', { uid, token, new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String) });

    expect((await ctx.app.inject({ url: '/api/profile/', headers: bearer(before.access) })).statusCode).toBe(
      401,
    );
    const refreshed = await ctx.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: before.refresh },
    });
    expect(refreshed.statusCode).toBe(401);
    expect((await login(ctx.app, acct.email)).statusCode).toBe(401);
    expect((await login(ctx.app, acct.email, NEW_PASSWORD)).statusCode).toBe(200);

    // Single use.
    const again = await post('/api/auth/reset-password/', {
      uid,
      token,
      new_password: 'another-fine-phrase-9',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ token: ['Lien de réinitialisation invalide ou expiré.'] });
    expect(await actions(acct.id)).toEqual(
      expect.arrayContaining(['auth.password_reset:success', 'auth.password_reset:failure']),
    );
  });

  it('accepts the link segment `{uid}.{token}` as the token, and refuses expired or replaced links', async () => {
    const acct = await makeAccount(ctx.app);
    await post('/api/auth/forgot-password/', { email: acct.email });
    const firstSegment = (await lastLink(ctx.app, acct.email)).path.split('/')[2]!;
    await post('/api/auth/forgot-password/', { email: acct.email });
    const secondSegment = (await lastLink(ctx.app, acct.email)).path.split('/')[2]!;
    expect(secondSegment).not.toBe(firstSegment);
    // A newer link replaces the older one.
    const old = await post(
      '/api/auth/reset-password/',
      { token: firstSegment, new_password: NEW_PASSWORD },
      { 'accept-language': 'en' },
    );
    expect(old.json()).toEqual({ token: ['Invalid or expired reset link.'] });
    // Expired.
    await ctx.app.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(emailTokens.userId, acct.id), eq(emailTokens.purpose, 'reset')));
    const expired = await post('/api/auth/reset-password/', {
      token: secondSegment,
      new_password: NEW_PASSWORD,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toHaveProperty('token');
    // A fresh, valid one given as a single segment works.
    await post('/api/auth/forgot-password/', { email: acct.email });
    const third = (await lastLink(ctx.app, acct.email)).path.split('/')[2]!;
    const ok = await post('/api/auth/reset-password/', { token: third, new_password: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
    // The mail token of another user does not work for this one.
    const other = await makeAccount(ctx.app);
    await post('/api/auth/forgot-password/', { email: other.email });
    const otherToken = (await lastLink(ctx.app, other.email)).path.split('/')[2]!.split('.')[1];
    const crossed = await post('/api/auth/reset-password/', {
      uid: acct.id,
      token: otherToken,
      new_password: NEW_PASSWORD,
    });
    expect(crossed.statusCode).toBe(400);
  });

  it('changes the password: other sessions end, this one goes on with the fresh pair only', async () => {
    const acct = await makeAccount(ctx.app);
    const here = await loginPair(ctx.app, acct.email);
    const elsewhere = await loginPair(ctx.app, acct.email);
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password/',
      headers: bearer(here.access),
      payload: { current_password: 'not-my-password-at-all', new_password: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ current_password: ['Mot de passe incorrect.'] });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password/',
      headers: bearer(here.access),
      payload: { current_password: acct.password, new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const pair = res.json();
    expect(pair).toEqual({
      access: expect.any(String),
      refresh: expect.any(String),
      detail: expect.any(String),
    });
    const me = (access: string) => ctx.app.inject({ url: '/api/profile/', headers: bearer(access) });
    const refresh = (token: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: token } });
    expect((await me(pair.access)).statusCode).toBe(200);
    // Every older access token is dead; the other session is gone for good.
    expect((await me(here.access)).statusCode).toBe(401);
    expect((await me(elsewhere.access)).statusCode).toBe(401);
    expect((await refresh(elsewhere.refresh)).statusCode).toBe(401);
    // This session goes on with the new pair only: the refresh token issued before the change is refused (a
    // thief holding a copy is shut out), without ending the session it belonged to.
    expect((await refresh(here.refresh)).statusCode).toBe(401);
    const renewed = await refresh(pair.refresh);
    expect(renewed.statusCode).toBe(200);
    expect((await me(renewed.json().access)).statusCode).toBe(200);
    expect((await refresh(renewed.json().refresh)).statusCode).toBe(200);
    expect((await login(ctx.app, acct.email)).statusCode).toBe(401);
    expect((await login(ctx.app, acct.email, NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('mail through an SMTP server that is down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Nothing listens on port 9: the connection is refused at once. The test runs the delivery job itself.
    ctx = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:9', jobsWorker: false });
  });
  afterAll(() => ctx.close());

  it('still answers the request, keeps the mail in the outbox with the error and retries it later', async () => {
    const acct = await makeAccount(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password/',
      payload: { email: acct.email },
    });
    expect(res.statusCode).toBe(200);
    expect((await outboxFor(ctx.app, acct.email))[0]).toMatchObject({ sentAt: null, error: null });
    // The delivery job's first try fails: the error is on the mail, and the job waits for its next try.
    expect(await ctx.app.jobs.runDue()).toBe(1);
    const [mail] = await outboxFor(ctx.app, acct.email);
    expect(mail).toBeDefined();
    expect(mail!.error).toBeTruthy();
    expect(mail!.sentAt).toBeNull();
    expect(mail!.textBody).toContain(`/reset-password/${acct.id}.`);
    const [delivery] = await ctx.app.db.select().from(jobs).where(eq(jobs.key, mail!.id));
    expect(delivery).toMatchObject({ name: 'mail.deliver', state: 'queued', attempts: 1 });
    expect(delivery!.runAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });
});
