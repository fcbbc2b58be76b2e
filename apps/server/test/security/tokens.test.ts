import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { memberships, users } from '../../src/db/schema/index.js';
import { signAccessToken } from '../../src/lib/tokens.js';
import { withNotifications } from '../../src/modules/notifications/notifications.service.js';
import { loginPair, makeAccount } from '../accounts.js';
import { createTestApp, type TestContext } from '../app.js';
import { makeHospital } from '../factories.js';
import { listenLocal, sleep } from '../ws-client.js';
import { designBodyProblem, send } from './harness.js';

/**
 * Forged and stale tokens (issue 8): each one is refused with 401 and the DESIGN §4 body on HTTP, on a route of a
 * signed-in user and on a hospital route, and the notification socket closes with 4401 (or refuses the upgrade).
 */

let ctx: TestContext;
let base: string;
let hospital: Awaited<ReturnType<typeof makeHospital>>;
const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

beforeAll(async () => {
  ctx = await createTestApp();
  base = await listenLocal(ctx.app);
  hospital = await makeHospital(ctx.app.db);
});
afterAll(() => ctx?.close());

/** A member of the hospital signed in through the API (the access token carries its session). */
async function signedIn() {
  const account = await makeAccount(ctx.app, { role: 'NURSE', hospitals: [{ id: hospital.id }] });
  const pair = await loginPair(ctx.app, account.email, account.password);
  return { ...account, ...pair };
}

function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

/** A token with the claims of `valid`, signed with `secret` and `alg`, with `over` claims changed. */
async function craft(valid: string, over: Record<string, unknown> = {}, alg = 'HS256', secret?: string) {
  const { iat: _, exp, ...claims } = claimsOf(valid);
  return new SignJWT({ ...claims, ...over })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime((over.exp as number | undefined) ?? (exp as number))
    .sign(new TextEncoder().encode(secret ?? ctx.config.jwtSecret));
}

async function http(authorization: string | null) {
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  const profile = await send(ctx.app, { method: 'GET', url: '/api/profile/', headers });
  const patients = await send(ctx.app, {
    method: 'GET',
    url: '/api/patients/',
    headers,
    hospitalId: hospital.id,
  });
  return { profile, patients };
}

/** How the notification socket treats a token: closed with a code, refused at the upgrade, or left open. */
function socketOutcome(token: string): Promise<{ closed?: number; refused?: number; open?: true }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base}/ws/notifications/${encodeURIComponent(token)}/`);
    let timer: NodeJS.Timeout | undefined;
    ws.on('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.on('open', () => {
      timer = setTimeout(() => {
        resolve({ open: true });
        ws.close();
      }, 800);
    });
    ws.on('close', (code) => {
      clearTimeout(timer);
      resolve({ closed: code });
    });
    ws.on('error', () => {});
  });
}

function expect401(res: Awaited<ReturnType<typeof send>>, code: string) {
  expect(res.statusCode, res.body).toBe(401);
  expect(designBodyProblem(res)).toBeNull();
  expect(res.json()).toEqual({ detail: expect.any(String), code });
}

const refusedSocket = (o: { closed?: number; refused?: number; open?: true }) =>
  o.closed === 4401 || (o.refused !== undefined && o.refused >= 400 && o.refused < 500);

describe('token table', () => {
  it('accepts a real session token (the baseline every forged token below is made from)', async () => {
    const me = await signedIn();
    const { profile, patients } = await http(`Bearer ${me.access}`);
    expect(profile.statusCode).toBe(200);
    expect(patients.statusCode).toBe(200);
    expect(await socketOutcome(me.access)).toEqual({ open: true });
  });

  it('refuses forged tokens with 401 on HTTP and 4401 on the socket', async () => {
    const me = await signedIn();
    const [header, payload, signature] = me.access.split('.') as [string, string, string];
    const other = await signedIn();
    const forged: Record<string, string> = {
      'alg none, no signature': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'alg none, signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`,
      'wrong signature': `${header}.${payload}.${signature.slice(0, -4)}${signature.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`,
      "another token's signature": `${header}.${payload}.${other.access.split('.')[2]}`,
      'payload changed (sub of another user)': `${header}.${b64({ ...claimsOf(me.access), sub: other.id })}.${signature}`,
      'signed with another secret': await craft(
        me.access,
        {},
        'HS256',
        `other-${randomBytes(16).toString('hex')}`,
      ),
      'HS512 with the right secret': await craft(me.access, {}, 'HS512'),
      'HS384 with the right secret': await craft(me.access, {}, 'HS384'),
      expired: await signAccessToken(
        ctx.config.jwtSecret,
        { userId: me.id, tokenVersion: 0, sessionId: String(claimsOf(me.access).sid) },
        -60,
      ),
      'refresh type': await craft(me.access, { typ: 'refresh' }),
      'no type': await craft(me.access, { typ: undefined }),
      'another issuer': await craft(me.access, { iss: 'someone-else' }),
      'no token version': await craft(me.access, { tv: undefined }),
      'token version as a string': await craft(me.access, { tv: '0' }),
      'unknown user': await craft(me.access, { sub: '0190a6f4-7d3c-7b3e-9c1a-2f4e5d6c7b8a' }),
      'user id not a uuid': await craft(me.access, { sub: "x' or '1'='1" }),
      'unknown session': await craft(me.access, { sid: '0190a6f4-7d3c-7b3e-9c1a-2f4e5d6c7b8a' }),
      'session id not a uuid': await craft(me.access, { sid: 'nope' }),
      'refresh token used as access token': me.refresh,
      garbage: 'not-a-token',
    };
    const failures: string[] = [];
    for (const [name, token] of Object.entries(forged)) {
      const { profile, patients } = await http(`Bearer ${token}`);
      for (const res of [profile, patients]) {
        if (res.statusCode !== 401 || designBodyProblem(res) || res.json().code !== 'token_not_valid')
          failures.push(`${name}: HTTP ${res.statusCode} ${res.body}`);
      }
      const ws = await socketOutcome(token);
      if (!refusedSocket(ws)) failures.push(`${name}: socket ${JSON.stringify(ws)}`);
    }
    console.log(
      `[security] token table: ${Object.entries(forged).length} forged tokens × 2 HTTP routes + socket`,
    );
    expect(failures).toEqual([]);
    // The real token still works: nothing above touched it.
    expect((await http(`Bearer ${me.access}`)).profile.statusCode).toBe(200);
  });

  it('refuses malformed Authorization headers with 401 not_authenticated', async () => {
    const me = await signedIn();
    const headers = [
      'Bearer',
      'Bearer ',
      'Bearer  x',
      `Bearer  ${me.access}`,
      `Basic ${Buffer.from(`${me.email}:${me.password}`).toString('base64')}`,
      `Bearer ${me.access}, Bearer ${me.access}`,
      `Bearer ${me.access} ${me.access}`,
      `Token ${me.access}`,
      me.access,
      `Bearer ${me.access}\u0000`,
      `Bearer ${'a'.repeat(8000)}.${'b'.repeat(8000)}.c`,
      `Bearer "${me.access}"`,
    ];
    const failures: string[] = [];
    for (const h of headers) {
      const { profile, patients } = await http(h);
      for (const res of [profile, patients]) {
        if (res.statusCode !== 401 || designBodyProblem(res))
          failures.push(`${h.slice(0, 40)}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
    expect401((await http(null)).profile, 'not_authenticated');
    expect401((await http('Bearer')).patients, 'not_authenticated');
    expect401((await http(`Bearer ${'a'.repeat(8000)}.${'b'.repeat(8000)}.c`)).profile, 'token_not_valid');
  });

  it('refuses the token of a disabled user, on HTTP and on the socket', async () => {
    const me = await signedIn();
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, me.id));
    await ctx.app.authCache.sync(); // a change behind the app's back arrives as a database notice
    const { profile, patients } = await http(`Bearer ${me.access}`);
    expect401(profile, 'token_not_valid');
    expect401(patients, 'token_not_valid');
    expect((await socketOutcome(me.access)).closed).toBe(4401);
  });

  it('refuses the token of a revoked session (signed out) and of a changed password', async () => {
    const me = await signedIn();
    const out = await send(ctx.app, {
      method: 'POST',
      url: '/api/logout/',
      token: me.access,
      body: { refresh: me.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect401((await http(`Bearer ${me.access}`)).profile, 'token_not_valid');
    expect((await socketOutcome(me.access)).closed).toBe(4401);

    const you = await signedIn();
    const second = await loginPair(ctx.app, you.email, you.password);
    const changed = await send(ctx.app, {
      method: 'POST',
      url: '/api/auth/change-password/',
      token: you.access,
      body: { current_password: you.password, new_password: 'copper-violet-harbour-88' },
    });
    expect(changed.statusCode).toBe(200);
    // The other session's access token dies with its session.
    expect401((await http(`Bearer ${second.access}`)).profile, 'token_not_valid');
    expect((await socketOutcome(second.access)).closed).toBe(4401);
  });

  it('membership removed: the token still names a valid user, but the hospital answers 403 (decision)', async () => {
    // The token authenticates a user; the hospital is checked on every request against current memberships.
    // So a removed membership is a 403 on that hospital's routes (audited), while the user's own routes work.
    const me = await signedIn();
    await ctx.app.db
      .update(memberships)
      .set({ isActive: false })
      .where(and(eq(memberships.userId, me.id), eq(memberships.hospitalId, hospital.id)));
    await ctx.app.authCache.sync();
    const { profile, patients } = await http(`Bearer ${me.access}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().hospitals).toEqual([]);
    expect(patients.statusCode).toBe(403);
    expect(designBodyProblem(patients)).toBeNull();
    expect(patients.json()).toEqual({ detail: expect.any(String) });
    // The socket is the user's: it opens, but carries nothing of the hospital any more.
    const ws = new WebSocket(`${base}/ws/notifications/${me.access}/`);
    const received: string[] = [];
    ws.on('message', (m) => received.push(String(m)));
    await new Promise((r) => ws.once('open', r));
    await sleep(100);
    await withNotifications(ctx.app, (_tx, notify) =>
      notify({ hospitalId: hospital.id, recipients: [me.id], type: 'other', title: { fr: 'x', en: 'x' } }),
    );
    await sleep(400);
    ws.close();
    expect(received).toEqual([]);
  });

  it('refuses socket tickets that are forged, reused or malformed', async () => {
    const me = await signedIn();
    const issue = async () => {
      const res = await send(ctx.app, {
        method: 'POST',
        url: '/api/notifications/ws-ticket/',
        token: me.access,
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { ticket: string }).ticket;
    };
    const ticket = await issue();
    expect(await socketOutcome(ticket)).toEqual({ open: true });
    expect((await socketOutcome(ticket)).closed).toBe(4401);
    const forged = randomBytes(16).toString('base64url');
    expect((await socketOutcome(forged)).closed).toBe(4401);
    const tampered = await issue();
    expect(
      (await socketOutcome(`${tampered.slice(0, -1)}${tampered.endsWith('A') ? 'B' : 'A'}`)).closed,
    ).toBe(4401);
    for (const weird of ['%00', "' or 1=1 --", 'a'.repeat(600), '..%2F..%2Fetc%2Fpasswd']) {
      expect(refusedSocket(await socketOutcome(decodeURIComponent(weird))), weird).toBe(true);
    }
  });

  it('leaves no connection open behind a refused upgrade (401, 404, 414): shutdown never waits on them', async () => {
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        ctx.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
    await sleep(200);
    const before = await connections();
    const paths = ['/api/patients/', '/api/nope/', `/ws/notifications/${'a'.repeat(600)}/`, '/api/health/'];
    for (const path of paths) {
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`${base}${path}`);
        // A client that answers nothing and keeps its end open: the server must still let go.
        ws.on('unexpected-response', () => resolve());
        ws.on('close', () => resolve());
        ws.on('error', () => resolve());
      });
    }
    const started = Date.now();
    while ((await connections()) > before && Date.now() - started < 8000) await sleep(100);
    expect(await connections()).toBeLessThanOrEqual(before);
  }, 20_000);
});
