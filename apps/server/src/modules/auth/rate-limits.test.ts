import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, login, makeAccount, outboxFor, uniqueEmail } from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';

describe('rate limits on the account endpoints', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('refuses logins with 429 after 10 failures on one account in 15 minutes, from any address', async () => {
    const acct = await makeAccount(ctx.app);
    for (let i = 0; i < 10; i++) {
      // Each attempt from another address: the per-IP limit does not apply, the per-account one does.
      expect((await login(ctx.app, acct.email, `wrong-password-${i}`, clientIp())).statusCode).toBe(401);
    }
    const limited = await login(ctx.app, acct.email, acct.password, clientIp());
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Trop de tentatives. Veuillez réessayer plus tard.' });
    // Another account is not affected.
    const other = await makeAccount(ctx.app);
    expect((await login(ctx.app, other.email)).statusCode).toBe(200);
  });

  it('limits forgot-password per account (same answer otherwise), case-insensitively', async () => {
    const acct = await makeAccount(ctx.app);
    const forgot = (email: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/forgot-password/',
        payload: { email },
        remoteAddress: clientIp(),
        headers: { 'accept-language': 'en' },
      });
    for (let i = 0; i < 10; i++) {
      expect((await forgot(i % 2 ? acct.email.toUpperCase() : acct.email)).statusCode).toBe(200);
    }
    const limited = await forgot(acct.email);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Too many attempts. Please try again later.' });
    expect(await outboxFor(ctx.app, acct.email)).toHaveLength(10);
  });

  it('limits one address to 60 requests a minute on login', async () => {
    const ip = clientIp();
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/login/',
        // Malformed bodies: the limit counts before validation, and no password is hashed.
        payload: { email: uniqueEmail(), password: '' },
        remoteAddress: ip,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 60).every((c) => c === 400)).toBe(true);
    expect(codes[60]).toBe(429);
    // Another address still gets through.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: uniqueEmail(), password: '' },
      remoteAddress: clientIp(),
    });
    expect(res.statusCode).toBe(400);
  });

  it('limits registrations and resends per account', async () => {
    const email = uniqueEmail('flood');
    const post = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, payload, remoteAddress: clientIp() });
    const body = { email, first_name: 'A', last_name: 'B', password: 'granite-meadow-lamp-31' };
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await post('/api/register/', body)).statusCode);
    expect(codes).toEqual([201, ...Array(9).fill(400), 429]);
    // Resend counts separately: 10 pass, the 11th is refused.
    const resends: number[] = [];
    for (let i = 0; i < 11; i++)
      resends.push((await post('/api/register/resend-verification/', { email })).statusCode);
    expect(resends).toEqual([...Array(10).fill(200), 429]);
  });
});
