import { NOTIFICATION_TYPES } from '@greensen/shared/domain/notifications';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { NOTIFICATION_TYPE_VALUES, notifications } from '../../db/schema/index.js';
import { insertNotificationsStatement } from './notifications.repository.js';
import { notifyAccountWaiting, withNotifications } from './notifications.service.js';

describe('notifications API', () => {
  let ctx: TestContext;
  let h1: Awaited<ReturnType<typeof makeHospital>>;
  let h2: Awaited<ReturnType<typeof makeHospital>>;

  beforeAll(async () => {
    ctx = await createTestApp();
    h1 = await makeHospital(ctx.app.db);
    h2 = await makeHospital(ctx.app.db);
  });
  afterAll(() => ctx.close());

  /** A member of both hospitals, with a token. */
  async function member(language: 'fr' | 'en' = 'fr', role = 'NURSE') {
    const user = await makeUser(ctx.app.db, { role, hospitals: [{ id: h1.id }, { id: h2.id }], language });
    return { ...user, token: await tokenFor(ctx.config.jwtSecret, user) };
  }

  async function seed(recipient: string, hospitalId: string, n: number, title = 'Patient assigné') {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const [row] = await ctx.app.notifications.notify(ctx.app.db, {
        hospitalId,
        recipients: [recipient],
        type: 'consultation',
        title: { fr: `${title} ${i}`, en: `Assigned patient ${i}` },
        message: { fr: 'Un patient vous a été assigné', en: 'A patient was assigned to you' },
        data: { action: 'patient_assigned', admission_id: `adm-${i}` },
      });
      ids.push(row!.id);
    }
    return ids;
  }

  const list = (token: string, hospitalId: string, query = '') =>
    ctx.app.inject({ url: `/api/notifications/${query}`, headers: authHeaders(token, hospitalId) });

  it('keeps the database enum equal to the shared notification types', () => {
    expect([...NOTIFICATION_TYPE_VALUES]).toEqual([...NOTIFICATION_TYPES]);
  });

  it("lists only the caller's notifications of the current hospital, newest first, with the unread count", async () => {
    const me = await member();
    const other = await member();
    const mine = await seed(me.id, h1.id, 3);
    await seed(me.id, h2.id, 2);
    await seed(other.id, h1.id, 4);

    const res = await list(me.token, h1.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.unread_count).toBe(3);
    expect(body.next).toBeNull();
    expect(body.previous).toBeNull();
    expect(body.results.map((n: { id: string }) => n.id)).toEqual([...mine].reverse());
    expect(body.results[0]).toEqual({
      id: mine[2],
      notification_type: 'consultation',
      title: 'Patient assigné 2',
      message: 'Un patient vous a été assigné',
      data: { action: 'patient_assigned', admission_id: 'adm-2' },
      initiated_by: null,
      is_read: false,
      read_at: null,
      created_at: expect.any(String),
      hospital: h1.id,
    });

    const inH2 = (await list(me.token, h2.id)).json();
    expect(inH2.count).toBe(2);
    expect(inH2.unread_count).toBe(2);
    expect(inH2.results.every((n: { hospital: string }) => n.hospital === h2.id)).toBe(true);
  });

  it('paginates with page and page_size (max 100) and gives next/previous URLs', async () => {
    const me = await member();
    await seed(me.id, h1.id, 5);
    const first = (await list(me.token, h1.id, '?page_size=2')).json();
    expect(first.count).toBe(5);
    expect(first.results).toHaveLength(2);
    expect(first.previous).toBeNull();
    const next = new URL(first.next);
    expect(next.pathname).toBe('/api/notifications/');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('page_size')).toBe('2');

    const last = (await list(me.token, h1.id, '?page=3&page_size=2')).json();
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
    expect(new URL(last.previous).searchParams.get('page')).toBe('2');
    const ids = new Set([...first.results, ...last.results].map((n: { id: string }) => n.id));
    expect(ids.size).toBe(3);

    const defaults = (await list(me.token, h1.id)).json();
    expect(defaults.results).toHaveLength(5);

    expect((await list(me.token, h1.id, '?page_size=101')).statusCode).toBe(400);
    expect((await list(me.token, h1.id, '?page=0')).statusCode).toBe(400);
    expect((await list(me.token, h1.id, '?status=archived')).statusCode).toBe(400);
  });

  it('filters by status and marks read one, several or all, returning the new unread count', async () => {
    const me = await member();
    const other = await member();
    const [a, b, c, d] = await seed(me.id, h1.id, 4);
    const [elsewhere] = await seed(me.id, h2.id, 1);
    const [foreign] = await seed(other.id, h1.id, 1);

    const markRead = (payload?: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/notifications/mark-read/',
        headers: authHeaders(me.token, h1.id),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    // Another user's and another hospital's ids are ignored.
    const one = await markRead({ notification_ids: [a, foreign, elsewhere] });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ updated: 1, unread_count: 3 });

    const several = await markRead({ notification_ids: [a, b, c] });
    expect(several.json()).toEqual({ updated: 2, unread_count: 1 });

    const unread = (await list(me.token, h1.id, '?status=unread')).json();
    expect(unread.results.map((n: { id: string }) => n.id)).toEqual([d]);
    const read = (await list(me.token, h1.id, '?status=read')).json();
    expect(read.count).toBe(3);
    expect(read.results.every((n: { is_read: boolean; read_at: string }) => n.is_read && n.read_at)).toBe(
      true,
    );

    const all = await markRead({});
    expect(all.json()).toEqual({ updated: 1, unread_count: 0 });
    const noBody = await markRead();
    expect(noBody.json()).toEqual({ updated: 0, unread_count: 0 });

    // Nothing of the other hospital or the other user changed.
    expect((await list(me.token, h2.id)).json().unread_count).toBe(1);
    expect((await list(other.token, h1.id)).json().unread_count).toBe(1);

    expect((await markRead({ notification_ids: ['not-a-uuid'] })).statusCode).toBe(400);
  });

  it("soft-deletes a notification; another user's or hospital's id is a 404", async () => {
    const me = await member();
    const other = await member();
    const [mine, kept] = await seed(me.id, h1.id, 2);
    const [theirs] = await seed(other.id, h1.id, 1);
    const [elsewhere] = await seed(me.id, h2.id, 1);
    const del = (id: string, hospitalId = h1.id) =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/notifications/${id}/`,
        headers: authHeaders(me.token, hospitalId),
      });

    expect((await del(theirs!)).statusCode).toBe(404);
    expect((await del(elsewhere!)).statusCode).toBe(404);
    expect((await del('00000000-0000-0000-0000-000000000000')).statusCode).toBe(404);
    expect((await del('nope')).statusCode).toBe(404);

    const res = await del(mine!);
    expect(res.statusCode).toBe(204);
    expect((await del(mine!)).statusCode).toBe(404);

    const after = (await list(me.token, h1.id)).json();
    expect(after.results.map((n: { id: string }) => n.id)).toEqual([kept]);
    expect(after.unread_count).toBe(1);
    // Soft: the row stays, marked deleted.
    const [row] = await ctx.app.db.select().from(notifications).where(eq(notifications.id, mine!));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    // The other user's notification is untouched.
    expect((await list(other.token, h1.id)).json().count).toBe(1);
  });

  it('requires a signed-in member of the Hospital-ID hospital', async () => {
    const me = await member();
    const outsider = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h1.id }] });
    const outsiderToken = await tokenFor(ctx.config.jwtSecret, outsider);
    expect((await ctx.app.inject({ url: '/api/notifications/' })).statusCode).toBe(401);
    expect(
      (await ctx.app.inject({ url: '/api/notifications/', headers: authHeaders(me.token) })).statusCode,
    ).toBe(400);
    expect((await list(outsiderToken, h2.id)).statusCode).toBe(403);
  });

  it("stores titles and messages in each recipient's language", async () => {
    const fr = await member('fr');
    const en = await member('en');
    const created = await ctx.app.notifications.notify(ctx.app.db, {
      hospitalId: h1.id,
      recipients: [fr.id, en.id, fr.id],
      type: 'other',
      title: { key: 'notifications.account_waiting.title' },
      message: {
        key: 'notifications.account_waiting.message',
        params: { name: 'Awa Diallo', email: 'a@x.test' },
      },
      data: { action: 'test' },
    });
    expect(created).toHaveLength(2);
    const frItem = (await list(fr.token, h1.id)).json().results[0];
    const enItem = (await list(en.token, h1.id)).json().results[0];
    expect(frItem.title).toBe('Nouveau compte en attente d’affectation');
    expect(frItem.message).toContain('Awa Diallo (a@x.test)');
    expect(enItem.title).toBe('New account waiting for assignment');
    expect(enItem.message).toBe(
      'Awa Diallo (a@x.test) created an account and is waiting to be assigned a hospital and a role.',
    );
  });

  it('writes the notifications of one event in one statement of one parameter, whatever the recipients', () => {
    const row = (n: number) => ({
      recipientId: `01a20084-0000-7000-8000-${String(n).padStart(12, '0')}`,
      hospitalId: h1.id,
      notificationType: 'hospitalization' as const,
      title: 'Patient en attente de lit',
      data: { action: 'hospitalization_pending' },
    });
    for (const size of [1, 250]) {
      const statement = insertNotificationsStatement(
        ctx.app.db,
        Array.from({ length: size }, (_, i) => row(i)),
      ).toSQL();
      expect(statement.params).toHaveLength(1);
      expect(JSON.parse(String(statement.params[0]))).toHaveLength(size);
    }
  });

  it('notifies 150 recipients at once, each in their language, with their own ids and the shared data', async () => {
    const people = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h1.id }], language: i % 3 ? 'fr' : 'en' }),
      ),
    );
    const rows = await ctx.app.notifications.notify(ctx.app.db, {
      hospitalId: h1.id,
      recipients: people.map((p) => p.id),
      type: 'hospitalization',
      title: { fr: 'Patient en attente de lit', en: 'Patient waiting for a bed' },
      message: {
        key: 'notifications.account_waiting.message',
        params: { name: 'Grâce « Mbuyi »', email: 'a@b' },
      },
      data: { action: 'hospitalization_pending', note: 'l’accent é, "quotes" \\ and \n lines' },
      initiatedBy: people[0]!.id,
    });
    expect(rows).toHaveLength(150);
    expect(new Set(rows.map((r) => r.id)).size).toBe(150);
    const stored = await ctx.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.hospitalId, h1.id), eq(notifications.notificationType, 'hospitalization')));
    const byRecipient = new Map(stored.map((r) => [r.recipientId, r]));
    people.forEach((p, i) => {
      const r = byRecipient.get(p.id)!;
      expect(r.title).toBe(i % 3 ? 'Patient en attente de lit' : 'Patient waiting for a bed');
      expect(r.message).toContain('Grâce « Mbuyi »');
      expect(r.data).toEqual({
        action: 'hospitalization_pending',
        note: 'l’accent é, "quotes" \\ and \n lines',
      });
      expect(r.initiatedBy).toBe(people[0]!.id);
      expect(r.isRead).toBe(false);
      expect(r.createdAt).toBeInstanceOf(Date);
    });
    expect(rows.find((r) => r.id === byRecipient.get(people[1]!.id)!.id)).toMatchObject({
      title: 'Patient en attente de lit',
      is_read: false,
      read_at: null,
      hospital: h1.id,
    });
  });

  it('refuses notify() on a transaction it cannot follow to its commit', async () => {
    const me = await member();
    await expect(
      ctx.app.db.transaction((tx) =>
        ctx.app.notifications.notify(tx, {
          hospitalId: h1.id,
          recipients: [me.id],
          type: 'other',
          title: { fr: 'x', en: 'x' },
        }),
      ),
    ).rejects.toThrow(/withNotifications/);
    expect((await list(me.token, h1.id)).json().count).toBe(0);
  });

  it('keeps notifications of a rolled-back transaction out of the database', async () => {
    const me = await member();
    await expect(
      withNotifications(ctx.app, async (_tx, notify) => {
        await notify({ hospitalId: h1.id, recipients: [me.id], type: 'other', title: { fr: 'x', en: 'x' } });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await list(me.token, h1.id)).json().count).toBe(0);
  });

  it('tells the administrators of every hospital that a self-registered account waits for assignment', async () => {
    const h3 = await makeHospital(ctx.app.db, { isActive: false });
    const admin1 = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: h1.id }], language: 'en' });
    const admin2 = await makeUser(ctx.app.db, { role: 'HOSPITAL_ADMIN', hospitals: [{ id: h2.id }] });
    const inactiveHospitalAdmin = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: h3.id }] });
    const disabledAdmin = await makeUser(ctx.app.db, {
      role: 'ADMIN',
      hospitals: [{ id: h1.id }],
      active: false,
    });
    const nurse = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h1.id }] });
    const waiting = await makeUser(ctx.app.db, { email: 'new.person@example.test' });

    const created = await withNotifications(ctx.app, (tx) =>
      notifyAccountWaiting(ctx.app, tx, {
        id: waiting.id,
        email: waiting.email,
        firstName: 'Awa',
        lastName: 'Diallo',
      }),
    );
    expect(created).toBeGreaterThanOrEqual(2);

    const rowsFor = (userId: string) =>
      ctx.app.db.select().from(notifications).where(eq(notifications.recipientId, userId));
    const [n1] = await rowsFor(admin1.id);
    expect(n1).toMatchObject({
      hospitalId: h1.id,
      notificationType: 'other',
      title: 'New account waiting for assignment',
      data: { action: 'account_waiting', user_id: waiting.id },
      initiatedBy: waiting.id,
    });
    expect(n1!.message).toContain('Awa Diallo (new.person@example.test)');
    const [n2] = await rowsFor(admin2.id);
    expect(n2).toMatchObject({ hospitalId: h2.id, title: 'Nouveau compte en attente d’affectation' });
    for (const u of [inactiveHospitalAdmin, disabledAdmin, nurse, waiting]) {
      expect(await rowsFor(u.id)).toHaveLength(0);
    }
    // One notification per administrator and hospital.
    const perAdmin = await ctx.app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientId, admin1.id), eq(notifications.hospitalId, h1.id)));
    expect(perAdmin).toHaveLength(1);
  });
});
