import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientIp } from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital } from '../../../test/factories.js';
import { redactUrl } from '../../app.js';
import { appSettings, auditEvents, hospitals, memberships, users } from '../../db/schema/index.js';
import { issueSetupLink, SETUP_TOKEN_TTL_MS } from './setup.service.js';

const PASSWORD = 'harbour-violet-compass-31';

const tokenOf = (link: string) => new URL(link).hash.replace('#setup=', '');

function body(token: string, over: Record<string, unknown> = {}) {
  return {
    token,
    name: 'Hôpital Régional de Thiès',
    code: 'hrt',
    time_zone: 'Africa/Dakar',
    currency: 'xof',
    triage_scale: 'SATS',
    first_name: 'Mariama',
    last_name: 'Ndiaye',
    email: 'Direction@HRT.example.sn',
    password: PASSWORD,
    ...over,
  };
}

describe('first start of a real installation (setup link)', () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp({ publicUrl: 'https://his.example.sn' });
  });
  afterEach(() => ctx.close());

  const post = (payload: object, lang = 'fr') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/setup/',
      payload,
      headers: { 'accept-language': lang },
      remoteAddress: clientIp(),
    });
  const check = (token: string) => ctx.app.inject({ url: `/api/setup/${token}/`, remoteAddress: clientIp() });

  it('prints a link on an empty installation; it creates the hospital and its administrator, signed in, once', async () => {
    const issued = await issueSetupLink(ctx.app.db, ctx.config.publicUrl);
    expect(issued).not.toBeNull();
    const { link, expiresAt } = issued!;
    // The token rides in the fragment: the page's own request never carries it to the server.
    expect(link).toMatch(/^https:\/\/his\.example\.sn\/register#setup=[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(SETUP_TOKEN_TTL_MS - 60_000);
    const token = tokenOf(link);
    // Only a hash of it is stored.
    const stored = await ctx.app.db.select().from(appSettings);
    expect(JSON.stringify(stored)).not.toContain(token);

    const state = await check(token);
    expect(state.statusCode).toBe(200);
    expect(new Date(state.json().expires_at).getTime()).toBe(expiresAt.getTime());

    const res = await post(body(token));
    expect(res.statusCode).toBe(201);
    const session = res.json();
    expect(session).toMatchObject({ access: expect.any(String), refresh: expect.any(String) });
    expect(session.user.email).toBe('direction@hrt.example.sn');
    expect(session.user.active_roles).toEqual([
      { role_code: 'ADMIN', hospital: session.user.hospitals[0].id, department: null },
    ]);
    const hospitalId = session.user.hospitals[0].id as string;
    const [hospital] = await ctx.app.db.select().from(hospitals).where(eq(hospitals.id, hospitalId));
    expect(hospital).toMatchObject({
      name: 'Hôpital Régional de Thiès',
      code: 'HRT',
      timeZone: 'Africa/Dakar',
      currency: 'XOF',
      triageScale: 'SATS',
    });
    // The session works in the new hospital, as its administrator.
    const staff = await ctx.app.inject({
      url: '/api/admin/staff/',
      headers: authHeaders(session.access, hospitalId),
    });
    expect(staff.statusCode).toBe(200);
    expect(staff.json().count).toBe(1);

    // Audited, without the token anywhere in the trail.
    const trail = await ctx.app.db.select().from(auditEvents);
    expect(trail.map((a) => a.action)).toEqual(expect.arrayContaining(['setup.complete', 'auth.login']));
    expect(trail.find((a) => a.action === 'setup.complete')).toMatchObject({
      hospitalId,
      userId: session.user.id,
      details: { hospital_code: 'HRT', email: 'direction@hrt.example.sn' },
    });
    expect(JSON.stringify(trail)).not.toContain(token);

    // Used once: the link, and any other printed link, are 404 now; a restart prints nothing.
    expect((await check(token)).statusCode).toBe(404);
    const again = await post(body(token, { code: 'HRT2', email: 'autre@hrt.example.sn' }));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      detail: "Ce lien d'installation n'est pas valide, a expiré ou a déjà servi.",
    });
    expect(await issueSetupLink(ctx.app.db, ctx.config.publicUrl)).toBeNull();
    expect(await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(users)).toEqual([{ n: 1 }]);
  });

  it('refuses unknown and expired links, and every link once the installation has data', async () => {
    expect((await check('not-a-real-token')).statusCode).toBe(404);
    const expired = await issueSetupLink(
      ctx.app.db,
      ctx.config.publicUrl,
      new Date(Date.now() - SETUP_TOKEN_TTL_MS - 1000),
    );
    expect((await check(tokenOf(expired!.link))).statusCode).toBe(404);
    expect((await post(body(tokenOf(expired!.link)))).statusCode).toBe(404);

    // A restart while still empty prints a fresh link that works; the earlier ones keep working too.
    const first = tokenOf((await issueSetupLink(ctx.app.db, ctx.config.publicUrl))!.link);
    const second = tokenOf((await issueSetupLink(ctx.app.db, ctx.config.publicUrl))!.link);
    expect(first).not.toBe(second);
    expect((await check(first)).statusCode).toBe(200);
    expect((await check(second)).statusCode).toBe(200);

    // As soon as any hospital exists (created otherwise), no link works.
    await makeHospital(ctx.app.db);
    expect((await check(first)).statusCode).toBe(404);
    expect((await post(body(second))).statusCode).toBe(404);
    expect(await issueSetupLink(ctx.app.db, ctx.config.publicUrl)).toBeNull();
  });

  it('checks the form like the rest of the app: password policy, time zone, currency, in French and English', async () => {
    const token = tokenOf((await issueSetupLink(ctx.app.db, ctx.config.publicUrl))!.link);
    const weak = await post(
      body(token, { password: 'password1234', time_zone: 'Mars/Olympus', currency: 'francs' }),
    );
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json())).toEqual(expect.arrayContaining(['password', 'time_zone', 'currency']));
    expect(weak.json().time_zone[0]).toMatch(/Fuseau horaire inconnu/);
    const en = await post(body(token, { email: 'not-an-email', code: 'bad code!' }), 'en');
    expect(en.statusCode).toBe(400);
    expect(Object.keys(en.json()).sort()).toEqual(['code', 'email']);
    expect(en.json().code[0]).toMatch(/Invalid code/);
    // A refused form spends nothing: the link still works.
    expect((await check(token)).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous setups win, with the same link or two different ones', async () => {
    const a = tokenOf((await issueSetupLink(ctx.app.db, ctx.config.publicUrl))!.link);
    const b = tokenOf((await issueSetupLink(ctx.app.db, ctx.config.publicUrl))!.link);
    const results = await Promise.all([
      post(body(a, { code: 'ONE', email: 'one@example.sn' })),
      post(body(a, { code: 'TWO', email: 'two@example.sn' })),
      post(body(b, { code: 'THREE', email: 'three@example.sn' })),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 404, 404]);
    expect(await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(hospitals)).toEqual([{ n: 1 }]);
    expect(await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(users)).toEqual([{ n: 1 }]);
    expect(await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(memberships)).toEqual([{ n: 1 }]);
  });

  it('never writes the token of a setup page request to the log', () => {
    expect(redactUrl('/api/setup/abc_DEF-123/')).toBe('/api/setup/[redacted]/');
    expect(redactUrl('/api/setup/')).toBe('/api/setup/');
  });
});
