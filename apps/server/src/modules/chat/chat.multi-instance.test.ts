import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { listenLocal, openSocket, sleep, waitUntil } from '../../../test/ws-client.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) {
  console.warn(
    '[chat multi-instance] SKIPPED: TEST_REDIS_URL is not set; the two-instance test needs Redis.',
  );
}

/** Two API instances on one database and one Redis: a message sent through A reaches a socket on B. */
describe.skipIf(!REDIS_URL)('chat across two server instances', () => {
  let a: TestContext;
  let b: TestContext;
  let baseB: string;
  let h1: Awaited<ReturnType<typeof makeHospital>>;

  beforeAll(async () => {
    const redisPrefix = `greensen-test:${randomBytes(6).toString('hex')}:`;
    a = await createTestApp({ redisUrl: REDIS_URL, redisPrefix });
    b = await createTestApp({ redisUrl: REDIS_URL, redisPrefix }, { database: a.database });
    baseB = await listenLocal(b.app);
    await listenLocal(a.app);
    h1 = await makeHospital(a.app.db);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function member() {
    const user = await makeUser(a.app.db, { role: 'DOCTOR', hospitals: [{ id: h1.id }] });
    const token = await tokenFor(a.config.jwtSecret, user);
    return { id: user.id, token, headers: authHeaders(token, h1.id) };
  }

  async function connectToB(user: { id: string; token: string }) {
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/notifications/ws-ticket/',
      headers: authHeaders(user.token),
    });
    const socket = await openSocket(baseB, res.json().ticket);
    await waitUntil(() => b.app.realtime.socketCount(user.id) === 1);
    return socket;
  }

  it('pushes a message and its read receipt sent through A to the members’ sockets on B, and to nobody else', async () => {
    const me = await member();
    const you = await member();
    const outsider = await member();
    const conv = await a.app.inject({
      method: 'POST',
      url: '/api/chat/conversations/',
      headers: me.headers,
      payload: { kind: 'direct', user: you.id },
    });
    expect(conv.statusCode).toBe(201);
    const yours = await connectToB(you);
    const outsiders = await connectToB(outsider);

    const id = randomUUID();
    const started = Date.now();
    const sent = await a.app.inject({
      method: 'POST',
      url: `/api/chat/conversations/${conv.json().id}/messages/`,
      headers: me.headers,
      payload: { id, body: 'Bonjour depuis l’instance A' },
    });
    expect(sent.statusCode).toBe(201);
    const got = await yours.next((m) => m.action === 'chat.message.created', 2000);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(got).toMatchObject({
      action: 'chat.message.created',
      hospital: h1.id,
      message: { id, body: 'Bonjour depuis l’instance A' },
    });

    // Reading through A: the receipt reaches B too.
    const mine = await connectToB(me);
    await a.app.inject({
      method: 'POST',
      url: `/api/chat/conversations/${conv.json().id}/read/`,
      headers: you.headers,
      payload: { message: id },
    });
    const receipt = await mine.next((m) => m.action === 'chat.read', 2000);
    expect(receipt.message).toMatchObject({
      conversation: conv.json().id,
      user: you.id,
      last_read_message: id,
    });
    await sleep(200);
    expect(outsiders.messages).toEqual([]);
    for (const s of [yours, outsiders, mine]) s.close();
  });

  it('stops pushing to a member removed through A, on B, at once', async () => {
    const me = await member();
    const you = await member();
    const conv = await a.app.inject({
      method: 'POST',
      url: '/api/chat/conversations/',
      headers: me.headers,
      payload: { kind: 'group', title: 'Garde de nuit', members: [you.id] },
    });
    expect(conv.statusCode).toBe(201);
    const id = conv.json().id as string;
    const yours = await connectToB(you);
    const removed = await a.app.inject({
      method: 'DELETE',
      url: `/api/chat/conversations/${id}/members/${you.id}/`,
      headers: me.headers,
    });
    expect(removed.statusCode).toBe(204);
    const told = await yours.next((m) => m.action === 'chat.message.created', 2000);
    expect(told.message).toMatchObject({ system: { event: 'member_removed', user: { id: you.id } } });
    const sent = await a.app.inject({
      method: 'POST',
      url: `/api/chat/conversations/${id}/messages/`,
      headers: me.headers,
      payload: { id: randomUUID(), body: 'Plus pour vous' },
    });
    expect(sent.statusCode).toBe(201);
    await sleep(300);
    expect(yours.messages.filter((m) => m.action === 'chat.message.created')).toHaveLength(1);
    const gone = await b.app.inject({
      method: 'GET',
      url: `/api/chat/conversations/${id}/messages/`,
      headers: you.headers,
    });
    expect(gone.statusCode).toBe(404);
    yours.close();
  });
});
