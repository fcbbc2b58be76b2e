import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../test/factories.js';
import { listenLocal, openSocket, sleep, waitUntil } from '../../test/ws-client.js';
import { withNotifications } from '../modules/notifications/notifications.service.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) {
  console.warn(
    '[multi-instance] SKIPPED: TEST_REDIS_URL is not set; the two-instance Redis fan-out test needs a Redis server.',
  );
}

/** Two API instances on one database and one Redis (same prefix), as behind a load balancer. */
describe.skipIf(!REDIS_URL)('two server instances on one Redis', () => {
  let a: TestContext;
  let b: TestContext;
  let baseB: string;
  let h1: Awaited<ReturnType<typeof makeHospital>>;
  let h2: Awaited<ReturnType<typeof makeHospital>>;

  beforeAll(async () => {
    const redisPrefix = `greensen-test:${randomBytes(6).toString('hex')}:`;
    a = await createTestApp({ redisUrl: REDIS_URL, redisPrefix });
    b = await createTestApp({ redisUrl: REDIS_URL, redisPrefix }, { database: a.database });
    expect(a.app.realtime.bus.kind).toBe('redis');
    expect(a.app.realtime.instanceId).not.toBe(b.app.realtime.instanceId);
    baseB = await listenLocal(b.app);
    await listenLocal(a.app);
    h1 = await makeHospital(a.app.db);
    h2 = await makeHospital(a.app.db);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function member(hospitalId: string) {
    const user = await makeUser(a.app.db, { role: 'DOCTOR', hospitals: [{ id: hospitalId }] });
    return { ...user, token: await tokenFor(a.config.jwtSecret, user) };
  }

  /** A ticket issued by instance A, redeemed by a socket on instance B. */
  async function connectToB(user: { id: string; token: string }) {
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/notifications/ws-ticket/',
      headers: authHeaders(user.token),
    });
    expect(res.statusCode).toBe(200);
    const socket = await openSocket(baseB, res.json().ticket);
    await waitUntil(() => b.app.realtime.socketCount(user.id) === 1);
    return socket;
  }

  it('delivers a notification created through A to the socket on B, and to no other user or hospital', async () => {
    const me = await member(h1.id);
    const colleague = await member(h1.id);
    const stranger = await member(h2.id);
    const mine = await connectToB(me);
    const colleagues = await connectToB(colleague);
    const strangers = await connectToB(stranger);

    const started = Date.now();
    const [created] = await withNotifications(a.app, (_tx, notify) =>
      notify({
        hospitalId: h1.id,
        recipients: [me.id],
        type: 'execution_assigned',
        title: { fr: 'Patient assigné', en: 'Patient assigned' },
        data: { action: 'execution_assigned' },
      }),
    );
    const got = await mine.next((m) => m.action === 'new_notification', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(got).toEqual({ action: 'new_notification', hospital: h1.id, message: created });

    // A notification of h1 addressed to the h2 member (not a member of h1) is not pushed either.
    await withNotifications(a.app, (_tx, notify) =>
      notify({ hospitalId: h1.id, recipients: [stranger.id], type: 'other', title: { fr: 'x', en: 'x' } }),
    );
    await sleep(300);
    expect(colleagues.messages).toEqual([]);
    expect(strangers.messages).toEqual([]);
    expect(mine.messages).toHaveLength(1);

    // Marking read through A reaches the device connected to B.
    const read = await a.app.inject({
      method: 'POST',
      url: '/api/notifications/mark-read/',
      headers: authHeaders(me.token, h1.id),
      payload: { notification_ids: [created!.id] },
    });
    expect(read.json()).toEqual({ updated: 1, unread_count: 0 });
    expect(await mine.next()).toEqual({
      action: 'mark_read',
      hospital: h1.id,
      message: { ids: [created!.id], unread_count: 0 },
    });
    await sleep(100);
    expect(colleagues.messages).toEqual([]);
    for (const s of [mine, colleagues, strangers]) s.close();
  });

  it("delivers one event's notifications to every recipient on B, from one bus message (issue 16)", async () => {
    const people = await Promise.all(Array.from({ length: 5 }, () => member(h1.id)));
    const sockets = await Promise.all(people.map((p) => connectToB(p)));
    const created = await withNotifications(a.app, (_tx, notify) =>
      notify({
        hospitalId: h1.id,
        recipients: people.map((p) => p.id),
        type: 'hospitalization',
        title: { fr: 'Patient en attente de lit', en: 'Patient waiting for a bed' },
        data: { action: 'hospitalization_pending' },
      }),
    );
    const ids = [];
    for (const socket of sockets) {
      const got = await socket.next((m) => m.action === 'new_notification', 2000);
      expect(got.hospital).toBe(h1.id);
      ids.push((got.message as { id: string }).id);
    }
    expect(ids.sort()).toEqual(created.map((n) => n.id).sort());
    for (const s of sockets) s.close();
  });

  it('redeems a ticket once across instances, and disconnects a user everywhere', async () => {
    const me = await member(h1.id);
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/notifications/ws-ticket/',
      headers: authHeaders(me.token),
    });
    const { ticket } = res.json();
    const onB = await openSocket(baseB, ticket);
    await waitUntil(() => b.app.realtime.socketCount(me.id) === 1);
    const replay = await openSocket(baseB, ticket);
    expect((await replay.closed).code).toBe(4401);

    await a.app.realtime.disconnectUser(me.id);
    expect(await onB.closed).toEqual({ code: 4401, reason: 'invalid token' });
  });
});
