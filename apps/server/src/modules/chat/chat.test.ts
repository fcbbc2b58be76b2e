import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, createPatient, journeyHospital } from '../../../test/journey.js';

describe('chat API', () => {
  let ctx: TestContext;
  let h1: Awaited<ReturnType<typeof journeyHospital>>;
  let h2: Awaited<ReturnType<typeof journeyHospital>>;
  let doctor: Actor;
  let nurse: Actor;
  let secretary: Actor;
  let other: Actor;

  beforeAll(async () => {
    ctx = await createTestApp();
    h1 = await journeyHospital(ctx);
    h2 = await journeyHospital(ctx);
    doctor = await h1.as('DOCTOR');
    nurse = await h1.as('NURSE');
    secretary = await h1.as('SECRETARY', 'MED');
    other = await h2.as('DOCTOR');
  });
  afterAll(() => ctx.close());

  const req = (actor: Actor, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: actor.headers, ...(payload ? { payload } : {}) });

  async function direct(a: Actor, b: Actor) {
    const res = await req(a, 'POST', '/api/chat/conversations/', { kind: 'direct', user: b.id });
    expect([200, 201], res.body).toContain(res.statusCode);
    return res.json().id as string;
  }
  async function send(a: Actor, conversation: string, body: string, extra: object = {}) {
    const res = await req(a, 'POST', `/api/chat/conversations/${conversation}/messages/`, {
      id: randomUUID(),
      body,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('keeps one direct conversation per pair, whoever starts it, even concurrently', async () => {
    const a = await h1.as('DOCTOR');
    const b = await h1.as('NURSE');
    const answers = await Promise.all([
      req(a, 'POST', '/api/chat/conversations/', { kind: 'direct', user: b.id }),
      req(b, 'POST', '/api/chat/conversations/', { kind: 'direct', user: a.id }),
      req(a, 'POST', '/api/chat/conversations/', { kind: 'direct', user: b.id }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(answers.map((r) => r.json().id)).size).toBe(1);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chat_conversations where kind = 'direct'
        and direct_low = ${[a.id, b.id].sort()[0]} and direct_high = ${[a.id, b.id].sort()[1]}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
    // The database refuses a second row for the pair whatever the code does.
    await expect(
      ctx.database.db.execute(sql`insert into chat_conversations (id, hospital_id, kind, direct_low, direct_high)
        values (gen_random_uuid(), ${h1.hospital.id}, 'direct', ${[a.id, b.id].sort()[0]}, ${[a.id, b.id].sort()[1]})`),
    ).rejects.toThrow();
  });

  it('stores a message once whatever the number of sends of its client id, even concurrently', async () => {
    const c = await direct(doctor, nurse);
    const id = randomUUID();
    const payload = { id, body: 'Le patient du box 3 est prêt' };
    const answers = await Promise.all(
      [1, 2, 3].map(() => req(doctor, 'POST', `/api/chat/conversations/${c}/messages/`, payload)),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    for (const a of answers) expect(a.json().id).toBe(id);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chat_messages where id = ${id}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
    const audits = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'chat.message.create' and resource_id = ${id}`,
    );
    expect(Number(audits.rows[0]!.n)).toBe(1);
    // The same id in another conversation (or by someone else) is refused, never overwritten.
    const g = await req(nurse, 'POST', '/api/chat/conversations/', {
      kind: 'group',
      title: 'Équipe de nuit',
      members: [doctor.id],
    });
    expect(g.statusCode).toBe(201);
    const clash = await req(nurse, 'POST', `/api/chat/conversations/${g.json().id}/messages/`, payload);
    expect(clash.statusCode).toBe(409);
  });

  it('counts unread messages, moves read positions forward only and shows receipts', async () => {
    const a = await h1.as('DOCTOR');
    const b = await h1.as('NURSE');
    const c = await direct(a, b);
    const m1 = await send(a, c, 'Premier');
    const m2 = await send(a, c, 'Deuxième');
    const listB = await req(b, 'GET', '/api/chat/conversations/');
    const conv = listB.json().results.find((x: { id: string }) => x.id === c);
    expect(conv.unread_count).toBe(2);
    expect(conv.title).toBe('Test User');
    expect(conv.last_message.excerpt).toBe('Deuxième');
    expect((await req(b, 'GET', '/api/chat/unread/')).json().unread_total).toBe(2);
    // The author has nothing unread in their own messages.
    expect((await req(a, 'GET', '/api/chat/unread/')).json().unread_total).toBe(0);

    const read = await req(b, 'POST', `/api/chat/conversations/${c}/read/`, { message: m2.id });
    expect(read.json()).toEqual({ unread_total: 0 });
    // Going back is ignored.
    await req(b, 'POST', `/api/chat/conversations/${c}/read/`, { message: m1.id });
    const detail = (await req(a, 'GET', `/api/chat/conversations/${c}/`)).json();
    expect(detail.members.map((m: { id: string }) => m.id).sort()).toEqual([a.id, b.id].sort());
    expect(detail.receipts.find((r: { user: { id: string } }) => r.user.id === b.id).last_read_message).toBe(
      m2.id,
    );
  });

  it('pages messages newest first with a cursor, replies, edits and soft-deletes', async () => {
    const a = await h1.as('DOCTOR');
    const b = await h1.as('NURSE');
    const c = await direct(a, b);
    const sent: { id: string }[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(a, c, `Message ${i}`));
    const p1 = (await req(b, 'GET', `/api/chat/conversations/${c}/messages/?limit=3`)).json();
    expect(p1.results.map((m: { body: string }) => m.body)).toEqual(['Message 4', 'Message 3', 'Message 2']);
    const p2 = (
      await req(b, 'GET', `/api/chat/conversations/${c}/messages/?limit=3&cursor=${p1.next_cursor}`)
    ).json();
    expect(p2.results.map((m: { body: string }) => m.body)).toEqual(['Message 1', 'Message 0']);
    expect(p2.next_cursor).toBeNull();

    const reply = await send(b, c, 'Bien reçu', { reply_to: sent[0]!.id });
    expect(reply.reply_to).toMatchObject({ id: sent[0]!.id, excerpt: 'Message 0', deleted: false });

    // Only the author edits; the text is kept as text.
    expect((await req(b, 'PATCH', `/api/chat/messages/${sent[1]!.id}/`, { body: 'x' })).statusCode).toBe(403);
    const edited = await req(a, 'PATCH', `/api/chat/messages/${sent[1]!.id}/`, { body: '<b>corrigé</b>' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ body: '<b>corrigé</b>' });
    expect(edited.json().edited_at).not.toBeNull();
    // Past 5 minutes, no more edits.
    await ctx.database.db.execute(
      sql`update chat_messages set created_at = now() - interval '6 minutes' where id = ${sent[2]!.id}`,
    );
    expect(
      (await req(a, 'PATCH', `/api/chat/messages/${sent[2]!.id}/`, { body: 'trop tard' })).statusCode,
    ).toBe(409);

    expect((await req(b, 'DELETE', `/api/chat/messages/${sent[0]!.id}/`)).statusCode).toBe(403);
    expect((await req(a, 'DELETE', `/api/chat/messages/${sent[0]!.id}/`)).statusCode).toBe(204);
    const after = (await req(b, 'GET', `/api/chat/conversations/${c}/messages/?limit=100`)).json().results;
    const gone = after.find((m: { id: string }) => m.id === sent[0]!.id);
    expect(gone).toMatchObject({ body: '', deleted_at: expect.any(String) });
    expect(after.find((m: { id: string }) => m.id === reply.id).reply_to).toMatchObject({
      deleted: true,
      excerpt: '',
    });
  });

  it('resolves a patient card at read time: full for a clinician, restricted for a secretary', async () => {
    const patient = await createPatient(ctx.app, secretary);
    const g = await req(doctor, 'POST', '/api/chat/conversations/', {
      kind: 'group',
      title: 'Box 4',
      members: [nurse.id, secretary.id],
    });
    const c = g.json().id;
    const sent = await send(doctor, c, 'Allergie à vérifier', { patient: patient.id });
    expect(sent.patient).toMatchObject({
      restricted: false,
      id: patient.id,
      record_number: patient.record_number,
    });
    const byNurse = (await req(nurse, 'GET', `/api/chat/conversations/${c}/messages/`)).json().results[0];
    expect(byNurse.patient.restricted).toBe(false);
    // The send answers the message exactly as a read gives it (the row is returned by the write itself).
    expect(sent).toEqual(byNurse);
    const bySecretary = (await req(secretary, 'GET', `/api/chat/conversations/${c}/messages/`)).json()
      .results[0];
    expect(bySecretary.patient).toEqual({ restricted: true });
    // Another hospital's patient cannot be referenced.
    const foreign = await createPatient(ctx.app, await h2.as('SECRETARY'));
    const refused = await req(doctor, 'POST', `/api/chat/conversations/${c}/messages/`, {
      id: randomUUID(),
      body: 'x',
      patient: foreign.id,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('hides conversations from non-members and other hospitals (404), and scopes the staff picker', async () => {
    const c = await direct(doctor, nurse);
    const outsider = await h1.as('DOCTOR');
    for (const actor of [outsider, secretary]) {
      expect((await req(actor, 'GET', `/api/chat/conversations/${c}/`)).statusCode).toBe(404);
      expect((await req(actor, 'GET', `/api/chat/conversations/${c}/messages/`)).statusCode).toBe(404);
      const post = await req(actor, 'POST', `/api/chat/conversations/${c}/messages/`, {
        id: randomUUID(),
        body: 'x',
      });
      expect(post.statusCode).toBe(404);
    }
    expect((await req(other, 'GET', `/api/chat/conversations/${c}/`)).statusCode).toBe(404);
    // A person of another hospital cannot be added.
    const cross = await req(doctor, 'POST', '/api/chat/conversations/', { kind: 'direct', user: other.id });
    expect(cross.statusCode).toBe(400);
    const staff = (await req(doctor, 'GET', '/api/chat/staff/?page_size=100')).json();
    const ids = staff.results.map((p: { id: string }) => p.id);
    expect(ids).toContain(nurse.id);
    expect(ids).not.toContain(other.id);
    expect(ids).not.toContain(doctor.id);
  });

  it('gives every department a channel its staff see automatically', async () => {
    const list = (await req(nurse, 'GET', '/api/chat/conversations/?page_size=100')).json();
    const channels = list.results.filter((x: { kind: string }) => x.kind === 'department');
    expect(channels.map((x: { title: string }) => x.title)).toEqual(['Urgences']);
    const channel = channels[0].id;
    const sent = await send(doctor, channel, 'Réunion de service à 14 h');
    expect(sent).toMatchObject({
      author: { id: doctor.id },
      reply_to: null,
      patient: null,
      attachment: null,
    });
    const forNurse = (await req(nurse, 'GET', '/api/chat/conversations/?page_size=100')).json();
    expect(forNurse.results.find((x: { id: string }) => x.id === channel).unread_count).toBeGreaterThan(0);
    // The author, without a member row in a channel, gets a read position there: nothing unread of their own;
    // the channel's last activity is the message.
    const mine = (await req(doctor, 'GET', '/api/chat/conversations/?page_size=100')).json();
    const own = mine.results.find((x: { id: string }) => x.id === channel);
    expect(own.unread_count).toBe(0);
    expect(own.last_message.excerpt).toBe('Réunion de service à 14 h');
    expect(own.last_message_at).toBe(sent.created_at);
    const position = await ctx.database.db.execute<{ last_read_message_id: string }>(
      sql`select last_read_message_id from chat_members where conversation_id = ${channel} and user_id = ${doctor.id}`,
    );
    expect(position.rows[0]?.last_read_message_id).toBe(sent.id);
    // Staff of another department do not see it.
    expect((await req(secretary, 'GET', `/api/chat/conversations/${channel}/`)).statusCode).toBe(404);
    const all = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from chat_conversations where kind = 'department' and hospital_id = ${h1.hospital.id}`,
    );
    expect(Number(all.rows[0]!.n)).toBe(3);
  });

  it('searches only in the caller’s conversations, with LIKE characters taken literally', async () => {
    const a = await h1.as('DOCTOR');
    const b = await h1.as('NURSE');
    const c = await direct(a, b);
    await send(a, c, 'Transfusion prévue 100% demain');
    const stranger = await h1.as('DOCTOR');
    const found = (await req(b, 'GET', `/api/chat/search/?q=${encodeURIComponent('100%')}`)).json();
    expect(found.results.map((m: { body: string }) => m.body)).toEqual(['Transfusion prévue 100% demain']);
    expect((await req(b, 'GET', '/api/chat/search/?q=10_%25')).json().count).toBe(0);
    expect((await req(stranger, 'GET', '/api/chat/search/?q=Transfusion')).json().count).toBe(0);
  });
});
