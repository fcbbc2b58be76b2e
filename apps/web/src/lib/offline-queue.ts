/**
 * The app's one offline queue (issues 23 and 40): what the user records while no answer comes waits here, in
 * order, durable across reloads, and is sent once when the connection returns — each item carries the key the
 * server recognises, so that an item sent twice (a lost answer, a second tab) is kept once. A network failure
 * (no answer, or the server away: 5xx) keeps the item and stops the flush; a refusal (4xx) is handed to
 * `onRefused`, which decides: drop it (the chat) or keep it, marked refused with the server's reason, for the
 * user to discard or retry (the ward, issue 40: nothing disappears silently).
 *
 * Storage is the caller's: localStorage for the chat's short messages, IndexedDB for the ward's records
 * (lib/offline/clinical-queue.ts). The items are held in memory too, so that screens read them synchronously.
 */
import { useSyncExternalStore } from 'react';
import { type ApiError, isApiError } from './api-client';

export interface QueueStorage<T> {
  load(): T[] | Promise<T[]>;
  save(items: readonly T[]): void | Promise<void>;
}

export interface OfflineQueueOptions<T> {
  storage: QueueStorage<T>;
  /** The item's identity (its idempotency key). */
  idOf: (item: T) => string;
  send: (item: T) => Promise<unknown>;
  isOnline: () => boolean;
  /** Items the flush passes over (e.g. refused ones waiting for the user). */
  isHeld?: (item: T) => boolean;
  onSent?: (item: T, answer: unknown) => void;
  /** A refusal: return the item to keep in its place (marked refused), or null to drop it. */
  onRefused?: (item: T, error: ApiError) => T | null;
}

export function createOfflineQueue<T>(o: OfflineQueueOptions<T>) {
  let items: T[] = [];
  const listeners = new Set<() => void>();
  let flushing: Promise<void> | null = null;
  const notify = () => {
    for (const l of listeners) l();
  };
  const save = () => {
    notify();
    try {
      void Promise.resolve(o.storage.save(items)).catch(() => undefined);
    } catch {
      // Storage full or refused: the queue still lives in memory.
    }
  };
  const loaded = (list: T[]) => {
    const known = new Set(items.map(o.idOf));
    items = [...list.filter((i) => !known.has(o.idOf(i))), ...items];
  };
  let initial: T[] | Promise<T[]>;
  try {
    initial = o.storage.load();
  } catch {
    initial = [];
  }
  if (Array.isArray(initial)) loaded(initial);
  const ready: Promise<void> = Array.isArray(initial)
    ? Promise.resolve()
    : initial.then(
        (list) => {
          loaded(list);
          notify();
        },
        () => undefined,
      );

  const replace = (id: string, next: T | null) => {
    items = next ? items.map((i) => (o.idOf(i) === id ? next : i)) : items.filter((i) => o.idOf(i) !== id);
    save();
  };

  async function flushOnce() {
    await ready;
    for (const item of [...items]) {
      if (o.isHeld?.(item)) continue;
      const id = o.idOf(item);
      try {
        const answer = await o.send(item);
        replace(id, null);
        o.onSent?.(item, answer);
      } catch (err) {
        // No answer (network down, server away): keep it and stop; the next connection sends it again.
        if (!isApiError(err) || err.status === 0 || err.status >= 500) return;
        replace(id, o.onRefused ? o.onRefused(item, err) : null);
      }
    }
  }

  return {
    ready,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    items: () => items,
    /** Queues the item (after those already waiting); sends at once when online. */
    enqueue(item: T) {
      items = [...items, item];
      save();
      if (o.isOnline()) void this.flush();
    },
    /** Puts an item back in its place (e.g. a refused one the user sends again), or removes it (null). */
    replace,
    /** Forgets every item, here and in the storage. */
    clear() {
      items = [];
      save();
    },
    flush(): Promise<void> {
      if (!flushing) flushing = flushOnce().finally(() => (flushing = null));
      return flushing;
    },
  };
}

export type OfflineQueue<T> = ReturnType<typeof createOfflineQueue<T>>;

/** The queue's items, re-rendered on every change. */
export function useQueueItems<T>(queue: OfflineQueue<T>): readonly T[] {
  return useSyncExternalStore(queue.subscribe, queue.items);
}
