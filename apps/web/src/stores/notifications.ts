/**
 * The notification list of the current hospital (specification §4 Notification list, §5, §9):
 * - a loading flag, the current page, a has-next flag and the unread count;
 * - more can be loaded only when a next page exists and nothing is loading;
 * - marking read sets is_read; with no ids it marks all and the unread count becomes 0;
 * - a pushed new notification goes to the front unless its id is already present, and increments the count;
 * - the list keeps at most 500 entries, and each further page adds at most 200 new ones;
 * - fetch and mark-read failures are ignored silently.
 * Not persisted.
 */
import type {
  TMarkReadResult,
  TNotification,
  TNotificationList,
  TNotificationStatus,
} from '@greensen/shared/contracts/notifications';
import { NOTIFICATION_LIST_CAP, NOTIFICATION_PAGE_ADD_CAP } from '@greensen/shared/domain/notifications';
import { create } from 'zustand';
import { api } from '../lib/api-client';

export interface NotificationsState {
  notifications: TNotification[];
  unreadCount: number;
  loading: boolean;
  /** Last page loaded (0 before the first load). */
  page: number;
  hasNext: boolean;
  status: TNotificationStatus;
  /** Loads the first page again (optionally with another status filter), replacing the list. */
  fetchNotifications: (status?: TNotificationStatus) => Promise<void>;
  /** Loads the next page, only when one exists and nothing is loading. */
  loadMore: () => Promise<void>;
  /** Marks the given notifications read, or all of them when `ids` is absent. */
  markAsRead: (ids?: readonly string[]) => Promise<void>;
  deleteNotification: (id: string) => Promise<void>;
  /** A notification pushed by the server. */
  addNotification: (notification: TNotification) => void;
  /** Another device marked notifications read (ids null: all); `unreadCount` is the server's. */
  applyMarkRead: (ids: readonly string[] | null, unreadCount?: number) => void;
  /** Another device deleted a notification. */
  applyDelete: (id: string, unreadCount?: number) => void;
  reset: () => void;
}

const initial = {
  notifications: [] as TNotification[],
  unreadCount: 0,
  loading: false,
  page: 0,
  hasNext: false,
  status: 'all' as TNotificationStatus,
};

/** Bumped on reset and on every first-page load: answers to older requests are dropped. */
let generation = 0;

function markedRead(list: TNotification[], ids: readonly string[] | null, at: string) {
  const wanted = ids ? new Set(ids) : null;
  let changed = 0;
  const next = list.map((n) => {
    if (n.is_read || (wanted && !wanted.has(n.id))) return n;
    changed += 1;
    return { ...n, is_read: true, read_at: at };
  });
  return { next, changed };
}

export const useNotificationsStore = create<NotificationsState>()((set, get) => ({
  ...initial,

  fetchNotifications: async (status = get().status) => {
    const mine = ++generation;
    set({ loading: true, status });
    try {
      const data = await api.get<TNotificationList>('/notifications/', {
        query: { page: 1, status },
        silent: true,
      });
      if (mine !== generation) return;
      const list = data.results.slice(0, NOTIFICATION_LIST_CAP);
      set({
        notifications: list,
        unreadCount: data.unread_count,
        page: 1,
        hasNext: data.next !== null && list.length < NOTIFICATION_LIST_CAP,
      });
    } catch {
      // Ignored silently (§8).
    } finally {
      if (mine === generation) set({ loading: false });
    }
  },

  loadMore: async () => {
    const { loading, hasNext, page, status } = get();
    if (loading || !hasNext) return;
    const mine = generation;
    set({ loading: true });
    try {
      const data = await api.get<TNotificationList>('/notifications/', {
        query: { page: page + 1, status },
        silent: true,
      });
      if (mine !== generation) return;
      const current = get().notifications;
      const present = new Set(current.map((n) => n.id));
      const fresh = data.results.filter((n) => !present.has(n.id)).slice(0, NOTIFICATION_PAGE_ADD_CAP);
      const list = [...current, ...fresh].slice(0, NOTIFICATION_LIST_CAP);
      set({
        notifications: list,
        unreadCount: data.unread_count,
        page: page + 1,
        hasNext: data.next !== null && list.length < NOTIFICATION_LIST_CAP,
      });
    } catch {
      // Ignored silently (§8).
    } finally {
      if (mine === generation) set({ loading: false });
    }
  },

  markAsRead: async (ids) => {
    const all = ids === undefined;
    if (!all && ids.length === 0) return;
    const { next, changed } = markedRead(get().notifications, all ? null : ids, new Date().toISOString());
    set((s) => ({ notifications: next, unreadCount: all ? 0 : Math.max(0, s.unreadCount - changed) }));
    const mine = generation;
    try {
      const result = await api.post<TMarkReadResult>(
        '/notifications/mark-read/',
        all ? {} : { notification_ids: [...ids] },
        { silent: true },
      );
      if (mine === generation && typeof result?.unread_count === 'number') {
        set({ unreadCount: result.unread_count });
      }
    } catch {
      // Ignored silently (§8).
    }
  },

  deleteNotification: async (id) => {
    const target = get().notifications.find((n) => n.id === id);
    if (target) {
      set((s) => ({
        notifications: s.notifications.filter((n) => n.id !== id),
        unreadCount: target.is_read ? s.unreadCount : Math.max(0, s.unreadCount - 1),
      }));
    }
    try {
      await api.delete(`/notifications/${id}/`);
    } catch {
      // Already gone or offline: the list was updated anyway.
    }
  },

  addNotification: (notification) => {
    set((s) => {
      if (s.notifications.some((n) => n.id === notification.id)) return s;
      return {
        notifications: [notification, ...s.notifications].slice(0, NOTIFICATION_LIST_CAP),
        unreadCount: notification.is_read ? s.unreadCount : s.unreadCount + 1,
      };
    });
  },

  applyMarkRead: (ids, unreadCount) => {
    set((s) => {
      const { next, changed } = markedRead(s.notifications, ids, new Date().toISOString());
      const fallback = ids === null ? 0 : Math.max(0, s.unreadCount - changed);
      return { notifications: next, unreadCount: unreadCount ?? fallback };
    });
  },

  applyDelete: (id, unreadCount) => {
    set((s) => {
      const target = s.notifications.find((n) => n.id === id);
      const fallback = target && !target.is_read ? Math.max(0, s.unreadCount - 1) : s.unreadCount;
      return {
        notifications: target ? s.notifications.filter((n) => n.id !== id) : s.notifications,
        unreadCount: unreadCount ?? fallback,
      };
    });
  },

  reset: () => {
    generation += 1;
    set({ ...initial });
  },
}));
