import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, login, makeAccount, outboxFor, uniqueEmail } from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { LOGIN_LIMITS } from './auth.service.js';

describe('rate limits on the account endpoints', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('stops failures from one address after 10, while the owner still signs in from elsewhere', async () => {
    const acct = await makeAccount(ctx.app);
    const attacker = clientIp();
    for (let i = 0; i < LOGIN_LIMITS.perSource; i++) {
      expect((await login(ctx.app, acct.email, `wrong-password-${i}`, attacker)).statusCode).toBe(401);
    }
    // From the attacker's address even the right password is refused now…
    const limited = await login(ctx.app, acct.email, acct.password, attacker);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: 'Trop de tentatives. Veuillez réessayer plus tard.' });
    // …but the owner, at her own workstation, is not locked out of her account.
    expect((await login(ctx.app, acct.email, acct.password, clientIp())).statusCode).toBe(200);
    // Another account is not affected either.
    const other = await makeAccount(ctx.app);
    expect((await login(ctx.app, other.email, other.password, attacker)).statusCode).toBe(200);
  });

  it('past 50 failures from many addresses, lets in only the addresses the account signed in from', async () => {
    const acct = await makeAccount(ctx.app);
    const workstation = clientIp();
    expect((await login(ctx.app, acct.email, acct.password, workstation)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      expect((await login(ctx.app, acct.email, `wrong-password-${i}`, clientIp())).statusCode).toBe(401);
    }
    // A new address is refused, even with the right password, and the refusal is audited.
    expect((await login(ctx.app, acct.email, acct.password, clientIp())).statusCode).toBe(429);
    const throttled = await ctx.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'auth.login_throttled' and details->>'email' = ${acct.email}`,
    );
    expect(Number(throttled.rows[0]?.n)).toBe(1);
    // The owner's workstation still gets in.
    expect((await login(ctx.app, acct.email, acct.password, workstation)).statusCode).toBe(200);
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
