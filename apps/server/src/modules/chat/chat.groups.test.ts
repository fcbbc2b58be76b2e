import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';
import { multipart } from '../../../test/multipart.js';
import { listenLocal, openSocket, sleep, waitUntil } from '../../../test/ws-client.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Group membership and attachments of the messaging (decision 0042). */
describe('chat groups and attachments', () => {
  let ctx: TestContext;
  let base: string;
  let h1: Awaited<ReturnType<typeof journeyHospital>>;
  let h2: Awaited<ReturnType<typeof journeyHospital>>;

  beforeAll(async () => {
    ctx = await createTestApp();
    base = await listenLocal(ctx.app);
    h1 = await journeyHospital(ctx);
    h2 = await journeyHospital(ctx);
  });
  afterAll(() => ctx.close());

  const req = (actor: Actor, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: actor.headers, ...(payload ? { payload } : {}) });

  async function group(creator: Actor, members: Actor[]) {
    const res = await req(creator, 'POST', '/api/chat/conversations/', {
      kind: 'group',
      title: 'Équipe de nuit',
      members: members.map((m) => m.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  const send = (a: Actor, conversation: string, body: string) =>
    req(a, 'POST', `/api/chat/conversations/${conversation}/messages/`, { id: randomUUID(), body });
  async function connect(actor: Actor) {
    const res = await req(actor, 'POST', '/api/notifications/ws-ticket/');
    const socket = await openSocket(base, res.json().ticket);
    await waitUntil(() => ctx.app.realtime.socketCount(actor.id) === 1);
    return socket;
  }
  function upload(
    actor: Actor,
    conversation: string,
    file: { name: string; type: string; bytes: Buffer },
    id = randomUUID(),
  ) {
    const body = multipart({ id, body: 'Voir la photo' }, file);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/chat/conversations/${conversation}/attachments/`,
      headers: { ...actor.headers, ...body.headers },
      payload: body.payload,
    });
  }

  it('lets the creator add and remove members, with system messages; others may only leave', async () => {
    const creator = await h1.as('DOCTOR');
    const nurse = await h1.as('NURSE');
    const newcomer = await h1.as('NURSE');
    const c = await group(creator, [nurse]);

    const detail = await req(creator, 'GET', `/api/chat/conversations/${c}/`);
    expect(detail.json()).toMatchObject({
      created_by: creator.id,
      can: { manage_members: true, leave: true },
    });
    expect((await req(nurse, 'GET', `/api/chat/conversations/${c}/`)).json().can).toEqual({
      manage_members: false,
      leave: true,
    });

    // A member who did not create the group manages nobody.
    const refused = await req(nurse, 'POST', `/api/chat/conversations/${c}/members/`, {
      users: [newcomer.id],
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await req(nurse, 'DELETE', `/api/chat/conversations/${c}/members/${creator.id}/`)).statusCode,
    ).toBe(403);
    // Before being added, the newcomer does not see the group.
    expect((await req(newcomer, 'GET', `/api/chat/conversations/${c}/`)).statusCode).toBe(404);

    const added = await req(creator, 'POST', `/api/chat/conversations/${c}/members/`, {
      users: [newcomer.id, nurse.id],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(
      added
        .json()
        .members.map((m: { id: string }) => m.id)
        .sort(),
    ).toEqual([creator.id, nurse.id, newcomer.id].sort());
    const page = (await req(newcomer, 'GET', `/api/chat/conversations/${c}/messages/`)).json();
    // One system message (the nurse was already a member), not counted as unread.
    expect(page.results).toHaveLength(1);
    expect(page.results[0]).toMatchObject({
      author: { id: creator.id },
      body: '',
      system: { event: 'member_added', user: { id: newcomer.id } },
      attachment: null,
    });
    expect((await req(newcomer, 'GET', '/api/chat/unread/')).json().unread_total).toBe(0);
    // A system message is nobody's to edit or delete.
    const sys = page.results[0].id;
    expect((await req(creator, 'PATCH', `/api/chat/messages/${sys}/`, { body: 'x' })).statusCode).toBe(403);
    expect((await req(creator, 'DELETE', `/api/chat/messages/${sys}/`)).statusCode).toBe(403);

    // The newcomer leaves; the creator removes the nurse.
    expect(
      (await req(newcomer, 'DELETE', `/api/chat/conversations/${c}/members/${newcomer.id}/`)).statusCode,
    ).toBe(204);
    expect(
      (await req(creator, 'DELETE', `/api/chat/conversations/${c}/members/${nurse.id}/`)).statusCode,
    ).toBe(204);
    // Removing someone who is not (or no longer) a member: not found.
    expect(
      (await req(creator, 'DELETE', `/api/chat/conversations/${c}/members/${nurse.id}/`)).statusCode,
    ).toBe(404);
    const events = (await req(creator, 'GET', `/api/chat/conversations/${c}/messages/`)).json().results;
    expect(
      events.map((m: { system: { event: string; user: { id: string } } }) => [
        m.system.event,
        m.system.user.id,
      ]),
    ).toEqual([
      ['member_removed', nurse.id],
      ['member_left', newcomer.id],
      ['member_added', newcomer.id],
    ]);
    const audits = await ctx.database.db.execute<{ action: string }>(
      sql`select action from audit_events where resource_id = ${c} and action like 'chat.member.%' order by occurred_at, id`,
    );
    expect(audits.rows.map((r) => r.action).sort()).toEqual([
      'chat.member.add',
      'chat.member.leave',
      'chat.member.remove',
    ]);
  });

  it('takes away a removed member’s access and real-time messages at once', async () => {
    const creator = await h1.as('DOCTOR');
    const nurse = await h1.as('NURSE');
    const c = await group(creator, [nurse]);
    expect((await send(creator, c, 'Avant')).statusCode).toBe(201);
    const socket = await connect(nurse);

    expect(
      (await req(creator, 'DELETE', `/api/chat/conversations/${c}/members/${nurse.id}/`)).statusCode,
    ).toBe(204);
    // The removed person is told (the system message), then hears nothing more.
    const told = await socket.next((m) => m.action === 'chat.message.created', 2000);
    expect(told.message).toMatchObject({ system: { event: 'member_removed', user: { id: nurse.id } } });
    expect((await send(creator, c, 'Après')).statusCode).toBe(201);
    await sleep(200);
    expect(socket.messages.filter((m) => m.action === 'chat.message.created')).toHaveLength(1);

    for (const [method, url, payload] of [
      ['GET', `/api/chat/conversations/${c}/`],
      ['GET', `/api/chat/conversations/${c}/messages/`],
      ['POST', `/api/chat/conversations/${c}/messages/`, { id: randomUUID(), body: 'Encore là ?' }],
      ['DELETE', `/api/chat/conversations/${c}/members/${nurse.id}/`],
    ] as const) {
      const res = await req(nurse, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = (await req(nurse, 'GET', '/api/chat/conversations/')).json();
    expect(list.results.map((r: { id: string }) => r.id)).not.toContain(c);
    const search = (await req(nurse, 'GET', '/api/chat/search/?q=Apr')).json();
    expect(search.results.map((r: { conversation: string }) => r.conversation)).not.toContain(c);
    socket.close();
  });

  it('lets an administrator member manage a group; refuses direct conversations, channels and strangers', async () => {
    const creator = await h1.as('NURSE');
    const admin = await h1.as('ADMIN');
    const doctor = await h1.as('DOCTOR');
    const c = await group(creator, [admin]);
    const ok = await req(admin, 'POST', `/api/chat/conversations/${c}/members/`, { users: [doctor.id] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(
      (await req(admin, 'DELETE', `/api/chat/conversations/${c}/members/${creator.id}/`)).statusCode,
    ).toBe(204);

    // Someone of another hospital is refused like an unknown person; another hospital's caller sees nothing.
    const stranger = await h2.as('DOCTOR');
    const bad = await req(admin, 'POST', `/api/chat/conversations/${c}/members/`, { users: [stranger.id] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().users).toBeDefined();
    expect(
      (await req(stranger, 'POST', `/api/chat/conversations/${c}/members/`, { users: [stranger.id] }))
        .statusCode,
    ).toBe(404);

    const direct = (
      await req(doctor, 'POST', '/api/chat/conversations/', { kind: 'direct', user: admin.id })
    ).json().id;
    expect(
      (await req(doctor, 'POST', `/api/chat/conversations/${direct}/members/`, { users: [creator.id] }))
        .statusCode,
    ).toBe(409);
    const channels = (await req(doctor, 'GET', '/api/chat/conversations/')).json().results;
    const channel = channels.find((x: { kind: string }) => x.kind === 'department').id;
    expect(
      (await req(doctor, 'DELETE', `/api/chat/conversations/${channel}/members/${doctor.id}/`)).statusCode,
    ).toBe(409);
  });

  it('stores an attachment checked like a patient document, readable by the conversation’s members only', async () => {
    const doctor = await h1.as('DOCTOR');
    const nurse = await h1.as('NURSE');
    const outsider = await h1.as('NURSE');
    const stranger = await h2.as('ADMIN');
    const c = await group(doctor, [nurse]);
    const socket = await connect(nurse);

    const id = randomUUID();
    const first = await upload(
      doctor,
      c,
      { name: 'dossier/plaie jambe.png', type: 'text/plain', bytes: PNG },
      id,
    );
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      id,
      body: 'Voir la photo',
      attachment: {
        name: 'plaie jambe.png',
        content_type: 'image/png',
        size_bytes: PNG.length,
        viewable: true,
      },
    });
    const pushed = await socket.next((m) => m.action === 'chat.message.created', 2000);
    expect(pushed.message).toMatchObject({ id, attachment: { content_type: 'image/png' } });
    // The same id again is the same message (one file, one row).
    const again = await upload(doctor, c, { name: 'autre.png', type: 'image/png', bytes: PNG }, id);
    expect(again.statusCode).toBe(200);
    expect(again.json().attachment.name).toBe('plaie jambe.png');

    const file = await req(nurse, 'GET', `/api/chat/messages/${id}/attachment/?disposition=inline`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(/^inline;/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    // Not a member, another hospital: as if there were no such file.
    expect((await req(outsider, 'GET', `/api/chat/messages/${id}/attachment/`)).statusCode).toBe(404);
    expect((await req(stranger, 'GET', `/api/chat/messages/${id}/attachment/`)).statusCode).toBe(404);
    expect((await upload(outsider, c, { name: 'x.png', type: 'image/png', bytes: PNG })).statusCode).toBe(
      404,
    );
    const audits = await ctx.database.db.execute<{ action: string }>(
      sql`select action from audit_events where resource_id = ${id} order by occurred_at, id`,
    );
    expect(audits.rows.map((r) => r.action)).toEqual(['chat.message.create', 'chat.attachment.view']);

    // Content decides, never the name or the declared type: SVG and HTML are refused.
    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('<html><body>bonjour</body></html>'),
    ]) {
      const res = await upload(doctor, c, { name: 'photo.png', type: 'image/png', bytes });
      expect(res.statusCode).toBe(400);
      expect(res.json().file).toBeDefined();
    }
    // The hospital's upload limit applies.
    const admin = await h1.as('ADMIN');
    expect((await req(admin, 'PATCH', '/api/hospital/settings/', { upload_max_mb: 1 })).statusCode).toBe(200);
    const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 10)]);
    expect((await upload(doctor, c, { name: 'grand.png', type: 'image/png', bytes: big })).statusCode).toBe(
      413,
    );
    await req(admin, 'PATCH', '/api/hospital/settings/', { upload_max_mb: 10 });

    // A deleted message's file is gone for everyone.
    expect((await req(doctor, 'DELETE', `/api/chat/messages/${id}/`)).statusCode).toBe(204);
    expect((await req(nurse, 'GET', `/api/chat/messages/${id}/attachment/`)).statusCode).toBe(404);
    const gone = (await req(nurse, 'GET', `/api/chat/conversations/${c}/messages/`)).json().results[0];
    expect(gone).toMatchObject({ id, attachment: null, body: '' });
    socket.close();
  });
});
