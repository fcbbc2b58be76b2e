import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, type TestContext } from '../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../test/factories.js';
import { listenLocal, openSocket, sleep, waitUntil } from '../../test/ws-client.js';
import { redactUrl } from '../app.js';
import { authSessions, users } from '../db/schema/index.js';
import { signAccessToken } from '../lib/tokens.js';
import { withNotifications } from '../modules/notifications/notifications.service.js';
import { decodeSend, encodeSend } from './bus-message.js';
import { createMemoryTicketStore, WS_TICKET_TTL_S } from './tickets.js';

describe('notification socket', () => {
  let ctx: TestContext;
  let base: string;
  let h1: Awaited<ReturnType<typeof makeHospital>>;
  let h2: Awaited<ReturnType<typeof makeHospital>>;

  beforeAll(async () => {
    ctx = await createTestApp();
    base = await listenLocal(ctx.app);
    h1 = await makeHospital(ctx.app.db);
    h2 = await makeHospital(ctx.app.db);
  });
  afterAll(() => ctx.close());

  async function member(hospitals = [h1.id]) {
    const user = await makeUser(ctx.app.db, { role: 'DOCTOR', hospitals: hospitals.map((id) => ({ id })) });
    return { ...user, token: await tokenFor(ctx.config.jwtSecret, user) };
  }

  async function ticketFor(token: string) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/ws-ticket/',
      headers: authHeaders(token),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { ticket: string; expires_in: number };
  }

  /** Opens a socket with a fresh ticket and waits until the server has registered it. */
  async function connect(user: { id: string; token: string }) {
    const before = ctx.app.realtime.socketCount(user.id);
    const { ticket } = await ticketFor(user.token);
    const socket = await openSocket(base, ticket);
    await waitUntil(() => ctx.app.realtime.socketCount(user.id) === before + 1);
    return socket;
  }

  const notifyOne = (recipient: string, hospitalId = h1.id, title = 'Nouveau patient') =>
    withNotifications(ctx.app, (_tx, notify) =>
      notify({
        hospitalId,
        recipients: [recipient],
        type: 'execution_assigned',
        title: { fr: title, en: title },
        message: { fr: 'Consultation à faire', en: 'Consultation to do' },
        data: { action: 'execution_assigned', admission_id: 'a1' },
        initiatedBy: null,
      }),
    );

  it('issues a single-use ticket valid 30 s, to signed-in users only', async () => {
    const me = await member();
    const { ticket, expires_in } = await ticketFor(me.token);
    expect(expires_in).toBe(30);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const anon = await ctx.app.inject({ method: 'POST', url: '/api/notifications/ws-ticket/' });
    expect(anon.statusCode).toBe(401);

    const first = await openSocket(base, ticket);
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 1);
    const again = await openSocket(base, ticket);
    expect(await again.closed).toEqual({ code: 4401, reason: 'invalid token' });
    expect(first.ws.readyState).toBe(first.ws.OPEN);
    first.close();
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 0);
  });

  it('expires tickets after 30 s', async () => {
    let now = 1_000_000;
    const store = createMemoryTicketStore(() => now);
    const claims = { userId: 'u', tokenVersion: 0, sessionId: null };
    const fresh = await store.issue(claims);
    const old = await store.issue(claims);
    now += WS_TICKET_TTL_S * 1000 - 1;
    expect(await store.redeem(fresh)).toEqual(claims);
    now += 1;
    expect(await store.redeem(old)).toBeNull();
    expect(await store.redeem('x'.repeat(22))).toBeNull();
    store.close();
  });

  it('closes with 4401 "invalid token" for a bad token, a forged one, or a disabled user', async () => {
    const bad = await openSocket(base, 'garbage');
    expect(await bad.closed).toEqual({ code: 4401, reason: 'invalid token' });
    const forged = await openSocket(base, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl');
    expect((await forged.closed).code).toBe(4401);

    const disabled = await member();
    const { ticket } = await ticketFor(disabled.token);
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, disabled.id));
    await ctx.app.authCache.sync(); // a change behind the app's back arrives as a database notice
    const viaTicket = await openSocket(base, ticket);
    expect((await viaTicket.closed).code).toBe(4401);
    const viaToken = await openSocket(base, disabled.token);
    expect((await viaToken.closed).code).toBe(4401);
  });

  it('accepts a valid access token too, and never logs it (the URL is redacted)', async () => {
    const me = await member();
    const socket = await openSocket(base, me.token);
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 1);
    expect(redactUrl(`/ws/notifications/${me.token}/`)).toBe('/ws/notifications/[redacted]/');
    socket.close();
  });

  it('pushes a committed notification to every socket of its recipient within a second', async () => {
    const me = await member();
    const other = await member();
    const phone = await connect(me);
    const desk = await connect(me);
    const theirs = await connect(other);

    const started = Date.now();
    const [created] = await notifyOne(me.id);
    const got = await phone.next((m) => m.action === 'new_notification', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(got).toEqual({ action: 'new_notification', hospital: h1.id, message: created });
    expect(got.message).toMatchObject({ title: 'Nouveau patient', is_read: false, hospital: h1.id });
    await desk.next((m) => m.action === 'new_notification');

    await sleep(150);
    expect(theirs.messages).toEqual([]);
    for (const s of [phone, desk, theirs]) s.close();
  });

  it("pushes one event's notifications to every recipient's sockets, as one bus message (issue 16)", async () => {
    const people = await Promise.all([member(), member(), member()]);
    const sockets = [];
    for (const p of people) sockets.push(await connect(p), await connect(p));
    const outsider = await member([h2.id]);
    const theirs = await connect(outsider);
    const published: string[] = [];
    const bus = ctx.app.realtime.bus;
    const publish = bus.publish.bind(bus);
    bus.publish = async (channel, message) => {
      published.push(message);
      return publish(channel, message);
    };
    try {
      const created = await withNotifications(ctx.app, (_tx, notify) =>
        notify({
          hospitalId: h1.id,
          recipients: [...people.map((p) => p.id), outsider.id],
          type: 'hospitalization',
          title: { fr: 'Patient en attente de lit', en: 'Patient waiting for a bed' },
          data: { action: 'hospitalization_pending' },
        }),
      );
      expect(created).toHaveLength(4);
      const received: string[] = [];
      for (const socket of sockets) {
        const got = await socket.next((m) => m.action === 'new_notification', 1000);
        const mine = created.find((n) => n.id === (got.message as { id: string }).id);
        expect(got).toEqual({ action: 'new_notification', hospital: h1.id, message: mine });
        received.push(mine!.id);
      }
      // Both sockets of a person get that person's notification; each person their own.
      expect([received[0], received[2], received[4]]).toEqual([received[1], received[3], received[5]]);
      expect(new Set(received).size).toBe(3);
      expect(published).toHaveLength(1);
      const [origin, type] = published[0]!.split('\n');
      expect([origin, type]).toEqual([ctx.app.realtime.instanceId, 'send']);
      const body = published[0]!.slice(`${origin}\n${type}\n`.length);
      const recipients: string[] = [];
      const ids: string[] = [];
      decodeSend(
        body,
        () => true,
        (userId, hospital, json) => {
          expect(hospital).toBe(h1.id);
          recipients.push(userId);
          ids.push((JSON.parse(json) as { message: { id: string } }).message.id);
        },
      );
      expect(recipients.sort()).toEqual([...people, outsider].map((p) => p.id).sort());
      expect(ids.sort()).toEqual(created.map((n) => n.id).sort());
      // The four envelopes differ only in their notification's id: one template, a line of ids each.
      expect(body.split('\n')[0]).toBe('1');
      // The member of another hospital only: nothing reaches them.
      await sleep(150);
      expect(theirs.messages).toEqual([]);
    } finally {
      bus.publish = publish;
      for (const s of [...sockets, theirs]) s.close();
    }
  });

  it('publishes an event to the other instances before writing to its own sockets', async () => {
    const me = await member();
    const socket = await connect(me);
    const order: string[] = [];
    const bus = ctx.app.realtime.bus;
    const publish = bus.publish.bind(bus);
    bus.publish = async (channel, message) => {
      order.push('publish');
      return publish(channel, message);
    };
    const wsSend = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, ...args: unknown[]) {
      order.push('socket');
      return (wsSend as (...a: unknown[]) => void).apply(this, args);
    } as WebSocket['send'];
    try {
      await notifyOne(me.id);
      expect((await socket.next()).action).toBe('new_notification');
      expect(order).toEqual(['publish', 'socket']);
    } finally {
      bus.publish = publish;
      WebSocket.prototype.send = wsSend;
      socket.close();
    }
  });

  it("reads another instance's bus message without parsing it: each delivery to its user's sockets, as it came", async () => {
    const me = await member();
    const socket = await connect(me);
    const other = await member();
    const theirs = await connect(other);
    try {
      const envelope = {
        action: 'new_notification',
        hospital: h1.id,
        message: { id: 'n1', title: 'a\tb\nc' },
      };
      const strange = { action: 'new_notification', hospital: h2.id, message: { id: 'n2' } };
      const body = encodeSend([
        { userId: me.id, hospital: h1.id, json: JSON.stringify(envelope) },
        { userId: me.id, hospital: h2.id, json: JSON.stringify(strange) },
      ]);
      await ctx.app.realtime.bus.publish('realtime', `another-instance\nsend\n${body}\nno tabs here`);
      expect(await socket.next()).toEqual(envelope);
      // Own messages are skipped (already delivered when emitted).
      await ctx.app.realtime.bus.publish(
        'realtime',
        `${ctx.app.realtime.instanceId}\nsend\n${encodeSend([{ userId: other.id, hospital: null, json: JSON.stringify(envelope) }])}`,
      );
      await ctx.app.realtime.bus.publish('realtime', `another-instance\ndisconnect\n${other.id}\t`);
      expect((await theirs.closed).code).toBe(4401);
      expect(theirs.messages).toEqual([]);
      await sleep(100);
      expect(socket.messages).toEqual([envelope]);
    } finally {
      socket.close();
      theirs.close();
    }
  });

  it('pushes nothing for a rolled-back transaction', async () => {
    const me = await member();
    const socket = await connect(me);
    await expect(
      withNotifications(ctx.app, async (_tx, notify) => {
        await notify({
          hospitalId: h1.id,
          recipients: [me.id],
          type: 'consultation',
          title: { fr: 'annulée', en: 'rolled back' },
        });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await notifyOne(me.id, h1.id, 'validée');
    const first = await socket.next();
    expect(first.message).toMatchObject({ title: 'validée' });
    await sleep(100);
    expect(socket.messages).toHaveLength(1);
    socket.close();
  });

  it("never delivers a hospital's notification to a user who is not a member of it", async () => {
    const me = await member([h1.id]);
    const socket = await connect(me);
    await notifyOne(me.id, h2.id, 'autre hôpital');
    await notifyOne(me.id, h1.id, 'mon hôpital');
    const got = await socket.next();
    expect(got.message).toMatchObject({ title: 'mon hôpital' });
    await sleep(100);
    expect(socket.messages).toHaveLength(1);
    socket.close();
  });

  it('delivers every hospital of the user on one socket, tagged with its hospital', async () => {
    const me = await member([h1.id, h2.id]);
    const socket = await connect(me);
    await notifyOne(me.id, h2.id);
    expect((await socket.next()).hospital).toBe(h2.id);
    socket.close();
  });

  it("pushes mark_read and delete_notification to the user's other devices, and to nobody else", async () => {
    const me = await member();
    const other = await member();
    const [a] = await notifyOne(me.id);
    const [b] = await notifyOne(me.id);
    const phone = await connect(me);
    const desk = await connect(me);
    const theirs = await connect(other);

    const one = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/mark-read/',
      headers: authHeaders(me.token, h1.id),
      payload: { notification_ids: [a!.id] },
    });
    expect(one.json()).toEqual({ updated: 1, unread_count: 1 });
    const expected = { action: 'mark_read', hospital: h1.id, message: { ids: [a!.id], unread_count: 1 } };
    expect(await desk.next()).toEqual(expected);
    expect(await phone.next()).toEqual(expected);

    await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/mark-read/',
      headers: authHeaders(me.token, h1.id),
      payload: {},
    });
    expect(await desk.next()).toEqual({
      action: 'mark_read',
      hospital: h1.id,
      message: { ids: null, unread_count: 0 },
    });

    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/notifications/${b!.id}/`,
      headers: authHeaders(me.token, h1.id),
    });
    expect(del.statusCode).toBe(204);
    expect(await phone.next((m) => m.action === 'delete_notification')).toEqual({
      action: 'delete_notification',
      hospital: h1.id,
      message: { id: b!.id, unread_count: 0 },
    });

    await sleep(100);
    expect(theirs.messages).toEqual([]);
    for (const s of [phone, desk, theirs]) s.close();
  });

  it('closes the sockets of a user disconnected by the account code (all, or one session)', async () => {
    const me = await member();
    const other = await member();
    const a = await connect(me);
    const b = await connect(me);
    const theirs = await connect(other);
    await ctx.app.realtime.disconnectUser(me.id);
    expect(await a.closed).toEqual({ code: 4401, reason: 'invalid token' });
    expect((await b.closed).code).toBe(4401);
    await sleep(50);
    expect(theirs.ws.readyState).toBe(theirs.ws.OPEN);
    theirs.close();
  });

  it('drops sockets of users disabled or whose tokens were revoked, at the periodic re-check', async () => {
    const disabled = await member();
    const revoked = await member();
    const fine = await member();
    const s1 = await connect(disabled);
    const s2 = await connect(revoked);
    const s3 = await connect(fine);
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, disabled.id));
    await ctx.app.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, revoked.id));
    await ctx.app.realtime.recheck();
    expect((await s1.closed).code).toBe(4401);
    expect((await s2.closed).code).toBe(4401);
    await sleep(50);
    expect(s3.ws.readyState).toBe(s3.ws.OPEN);
    s3.close();
  });

  it('drops the sockets of a signed-out session at the re-check, and keeps the other sessions', async () => {
    const me = await member();
    const [ended, kept] = await ctx.app.db
      .insert(authSessions)
      .values([
        { userId: me.id, tokenVersion: 0 },
        { userId: me.id, tokenVersion: 0 },
      ])
      .returning();
    const tokenIn = (sessionId: string) =>
      signAccessToken(ctx.config.jwtSecret, { userId: me.id, tokenVersion: 0, sessionId });
    const a = await connect({ id: me.id, token: await tokenIn(ended!.id) });
    const b = await connect({ id: me.id, token: await tokenIn(kept!.id) });
    await ctx.app.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(eq(authSessions.id, ended!.id));
    await ctx.app.realtime.recheck();
    expect((await a.closed).code).toBe(4401);
    await sleep(50);
    expect(b.ws.readyState).toBe(b.ws.OPEN);
    // Neither a token of the ended session nor a ticket issued before it ended opens a socket any more.
    const early = await ticketFor(await tokenIn(kept!.id));
    await ctx.app.db.update(authSessions).set({ revokedAt: new Date() }).where(eq(authSessions.id, kept!.id));
    await ctx.app.authCache.sync();
    expect((await (await openSocket(base, early.ticket)).closed).code).toBe(4401);
    expect((await (await openSocket(base, await tokenIn(ended!.id))).closed).code).toBe(4401);
    b.close();
  });

  it('terminates sockets that miss a heartbeat pong and keeps the ones that answer', async () => {
    const me = await member();
    const { ticket } = await ticketFor(me.token);
    const silent = await openSocket(base, ticket, { autoPong: false });
    // Registered before the second one opens: `connect` counts from the sockets already there.
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 1);
    const lively = await connect(me);
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 2);
    ctx.app.realtime.heartbeat();
    await sleep(100);
    ctx.app.realtime.heartbeat();
    expect((await silent.closed).code).toBe(1006);
    await waitUntil(() => ctx.app.realtime.socketCount(me.id) === 1);
    expect(lively.ws.readyState).toBe(lively.ws.OPEN);
    lively.close();
  });
});

describe('notification socket with Redis unreachable', () => {
  it('keeps serving: local sockets still receive, tickets answer 503', async () => {
    const ctx = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const base = await listenLocal(ctx.app);
      const h = await makeHospital(ctx.app.db);
      const user = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h.id }] });
      const token = await tokenFor(ctx.config.jwtSecret, user);
      const ticket = await ctx.app.inject({
        method: 'POST',
        url: '/api/notifications/ws-ticket/',
        headers: authHeaders(token),
      });
      expect(ticket.statusCode).toBe(503);
      expect(ticket.json()).toEqual({ detail: expect.any(String) });

      const socket = await openSocket(base, token);
      await waitUntil(() => ctx.app.realtime.socketCount(user.id) === 1);
      await withNotifications(ctx.app, (_tx, notify) =>
        notify({
          hospitalId: h.id,
          recipients: [user.id],
          type: 'other',
          title: { fr: 'local', en: 'local' },
        }),
      );
      expect((await socket.next()).message).toMatchObject({ title: 'local' });
      socket.close();
    } finally {
      await ctx.close();
    }
  }, 30_000);
});
