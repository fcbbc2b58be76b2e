import type { TNotification, TNotificationList } from '@greensen/shared/contracts/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api-client';
import { useNotificationsStore } from './notifications';

vi.mock('../lib/api-client', () => ({ api: { get: vi.fn(), post: vi.fn(), delete: vi.fn() } }));

const get = vi.mocked(api.get);
const post = vi.mocked(api.post);
const del = vi.mocked(api.delete);

let seq = 0;
function notification(over: Partial<TNotification> = {}): TNotification {
  seq += 1;
  return {
    id: `00000000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
    notification_type: 'consultation',
    title: `Notification ${seq}`,
    message: '',
    data: {},
    initiated_by: null,
    is_read: false,
    read_at: null,
    created_at: new Date().toISOString(),
    hospital: 'h1',
    ...over,
  };
}

function page(results: TNotification[], next: string | null, unread = 0): TNotificationList {
  return { count: results.length, next, previous: null, results, unread_count: unread };
}

const store = () => useNotificationsStore.getState();

describe('notifications store', () => {
  beforeEach(() => {
    vi.resetAllMocks();
    store().reset();
  });

  it('loads the first page with the unread count, has-next flag and loading flag', async () => {
    const items = [notification(), notification({ is_read: true })];
    let resolve!: (v: TNotificationList) => void;
    get.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const loading = store().fetchNotifications();
    expect(store().loading).toBe(true);
    resolve(page(items, '/api/notifications/?page=2', 7));
    await loading;
    expect(get).toHaveBeenCalledWith('/notifications/', { query: { page: 1, status: 'all' }, silent: true });
    expect(store()).toMatchObject({
      notifications: items,
      unreadCount: 7,
      page: 1,
      hasNext: true,
      loading: false,
    });
  });

  it('passes the status filter', async () => {
    get.mockResolvedValueOnce(page([], null));
    await store().fetchNotifications('unread');
    expect(get).toHaveBeenCalledWith('/notifications/', {
      query: { page: 1, status: 'unread' },
      silent: true,
    });
    expect(store().status).toBe('unread');
    expect(store().hasNext).toBe(false);
  });

  it('loads more only when a next page exists and nothing is loading', async () => {
    get.mockResolvedValueOnce(page([notification()], null));
    await store().fetchNotifications();
    await store().loadMore();
    expect(get).toHaveBeenCalledTimes(1);

    get.mockResolvedValueOnce(page([notification()], 'next'));
    await store().fetchNotifications();
    let resolve!: (v: TNotificationList) => void;
    get.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const first = store().loadMore();
    await store().loadMore();
    expect(get).toHaveBeenCalledTimes(3);
    expect(get).toHaveBeenLastCalledWith('/notifications/', {
      query: { page: 2, status: 'all' },
      silent: true,
    });
    resolve(page([notification()], null, 1));
    await first;
    expect(store()).toMatchObject({ page: 2, hasNext: false, loading: false, unreadCount: 1 });
    expect(store().notifications).toHaveLength(2);
  });

  it('adds at most 200 new entries per further page, skips ones already listed, and caps the list at 500', async () => {
    const firstPage = Array.from({ length: 100 }, () => notification());
    get.mockResolvedValueOnce(page(firstPage, 'next'));
    await store().fetchNotifications();

    const big = [firstPage[0]!, ...Array.from({ length: 300 }, () => notification())];
    get.mockResolvedValueOnce(page(big, 'next'));
    await store().loadMore();
    expect(store().notifications).toHaveLength(300);
    expect(new Set(store().notifications.map((n) => n.id)).size).toBe(300);
    expect(store().notifications[100]).toEqual(big[1]);

    get.mockResolvedValueOnce(
      page(
        Array.from({ length: 300 }, () => notification()),
        'next',
      ),
    );
    await store().loadMore();
    expect(store().notifications).toHaveLength(500);
    expect(store().hasNext).toBe(false);

    store().addNotification(notification({ title: 'pushed' }));
    expect(store().notifications).toHaveLength(500);
    expect(store().notifications[0]!.title).toBe('pushed');
  });

  it('puts a pushed notification in front and counts it, unless its id is already present', () => {
    const a = notification();
    store().addNotification(a);
    store().addNotification(notification({ title: 'b' }));
    expect(store().notifications.map((n) => n.title)).toEqual(['b', a.title]);
    expect(store().unreadCount).toBe(2);
    store().addNotification({ ...a, title: 'again' });
    expect(store().notifications).toHaveLength(2);
    expect(store().unreadCount).toBe(2);
  });

  it('marks all read: every entry read, unread count 0, server called without ids', async () => {
    get.mockResolvedValueOnce(page([notification(), notification()], null, 12));
    await store().fetchNotifications();
    post.mockResolvedValueOnce({ updated: 12, unread_count: 0 });
    await store().markAsRead();
    expect(post).toHaveBeenCalledWith('/notifications/mark-read/', {}, { silent: true });
    expect(store().unreadCount).toBe(0);
    expect(store().notifications.every((n) => n.is_read && n.read_at)).toBe(true);
  });

  it('marks one or several read, then takes the unread count from the server', async () => {
    const [a, b, c] = [notification(), notification(), notification()];
    get.mockResolvedValueOnce(page([a!, b!, c!], null, 10));
    await store().fetchNotifications();
    let resolve!: (v: unknown) => void;
    post.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const marking = store().markAsRead([a!.id, b!.id]);
    expect(store().unreadCount).toBe(8);
    expect(store().notifications.map((n) => n.is_read)).toEqual([true, true, false]);
    resolve({ updated: 2, unread_count: 5 });
    await marking;
    expect(post).toHaveBeenCalledWith(
      '/notifications/mark-read/',
      { notification_ids: [a!.id, b!.id] },
      { silent: true },
    );
    expect(store().unreadCount).toBe(5);
  });

  it('ignores fetch and mark-read failures silently', async () => {
    get.mockRejectedValueOnce(new Error('offline'));
    await expect(store().fetchNotifications()).resolves.toBeUndefined();
    expect(store().loading).toBe(false);
    store().addNotification(notification());
    post.mockRejectedValueOnce(new Error('offline'));
    await expect(store().markAsRead()).resolves.toBeUndefined();
    expect(store().unreadCount).toBe(0);
    get.mockResolvedValueOnce(page([notification()], 'next'));
    await store().fetchNotifications();
    get.mockRejectedValueOnce(new Error('offline'));
    await expect(store().loadMore()).resolves.toBeUndefined();
    expect(store()).toMatchObject({ loading: false, page: 1, hasNext: true });
  });

  it('asks the HTTP client to leave its refusals alone (no access-denied notice, no error page: §8)', async () => {
    get.mockResolvedValue(page([notification()], 'next'));
    post.mockResolvedValue({ unread_count: 0 });
    await store().fetchNotifications();
    await store().loadMore();
    await store().markAsRead();
    expect(get.mock.calls.map((call) => call[1])).toEqual([
      expect.objectContaining({ silent: true }),
      expect.objectContaining({ silent: true }),
    ]);
    expect(post.mock.calls[0]?.[2]).toEqual({ silent: true });
  });

  it('applies pushed mark_read and delete_notification from other devices', () => {
    const [a, b, c] = [notification(), notification(), notification()];
    for (const n of [c!, b!, a!]) store().addNotification(n);
    store().applyMarkRead([a!.id], 2);
    expect(store().notifications.find((n) => n.id === a!.id)?.is_read).toBe(true);
    expect(store().unreadCount).toBe(2);
    store().applyDelete(b!.id, 1);
    expect(store().notifications.map((n) => n.id)).toEqual([a!.id, c!.id]);
    expect(store().unreadCount).toBe(1);
    store().applyMarkRead(null);
    expect(store().unreadCount).toBe(0);
    expect(store().notifications.every((n) => n.is_read)).toBe(true);
  });

  it('deletes a notification and lowers the count when it was unread', async () => {
    const a = notification();
    store().addNotification(a);
    del.mockResolvedValueOnce(undefined);
    await store().deleteNotification(a.id);
    expect(del).toHaveBeenCalledWith(`/notifications/${a.id}/`);
    expect(store().notifications).toEqual([]);
    expect(store().unreadCount).toBe(0);
  });

  it('drops the answer of a request started before a reset (hospital change, logout)', async () => {
    let resolve!: (v: TNotificationList) => void;
    get.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const loading = store().fetchNotifications();
    store().reset();
    resolve(page([notification()], null, 3));
    await loading;
    expect(store()).toMatchObject({ notifications: [], unreadCount: 0, loading: false, page: 0 });
  });
});
