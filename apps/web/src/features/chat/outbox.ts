/**
 * The offline queue of the messaging (issue 23): a message typed while the socket is down (or whose sending
 * failed on the network) waits here, shown as pending, and is sent when the connection returns. Its id is made
 * here once, so that a message sent twice (a lost answer, a second tab) is still one message on the server.
 */
import type { TChatMessageCreate } from '@greensen/shared/contracts/chat';
import { useSyncExternalStore } from 'react';
import { isApiError } from '../../lib/api-client';
import { notificationSocket } from '../../lib/socket';

export interface PendingMessage extends TChatMessageCreate {
  conversation: string;
  created_at: string;
}

type Sender = (conversation: string, body: TChatMessageCreate) => Promise<unknown>;

const STORAGE_KEY = 'greensen.chat.outbox';

function load(): PendingMessage[] {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as PendingMessage[]) : [];
  } catch {
    return [];
  }
}

export function createOutbox(deps: {
  send: Sender;
  isOnline: () => boolean;
  onSent?: (m: PendingMessage) => void;
  onRefused?: (m: PendingMessage) => void;
}) {
  let items: PendingMessage[] = load();
  const listeners = new Set<() => void>();
  let flushing: Promise<void> | null = null;
  const save = () => {
    try {
      globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(items));
    } catch {
      // Storage full or refused: the queue still lives in memory.
    }
    for (const l of listeners) l();
  };
  const remove = (id: string) => {
    items = items.filter((m) => m.id !== id);
    save();
  };

  async function flushOnce() {
    for (const m of [...items]) {
      const { conversation, created_at: _created, ...body } = m;
      try {
        await deps.send(conversation, body);
        remove(m.id);
        deps.onSent?.(m);
      } catch (err) {
        // No answer (network down, server away): keep it and stop; the next connection sends it again.
        if (!isApiError(err) || err.status === 0 || err.status >= 500) return;
        remove(m.id);
        deps.onRefused?.(m);
      }
    }
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    items: () => items,
    /** Queues the message; sends it at once when the socket is connected. */
    enqueue(m: Omit<PendingMessage, 'created_at'>) {
      items = [...items, { ...m, created_at: new Date().toISOString() }];
      save();
      if (deps.isOnline()) void this.flush();
    },
    flush(): Promise<void> {
      if (!flushing) flushing = flushOnce().finally(() => (flushing = null));
      return flushing;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

let shared: Outbox | null = null;

/** The app's outbox: flushed at every (re)connection of the socket. */
export function appOutbox(
  send: Sender,
  hooks: { onSent?: (m: PendingMessage) => void; onRefused?: (m: PendingMessage) => void } = {},
): Outbox {
  if (!shared) {
    shared = createOutbox({ send, isOnline: () => notificationSocket.state === 'open', ...hooks });
    notificationSocket.onOpen(() => void shared?.flush());
  }
  return shared;
}

export function usePending(outbox: Outbox, conversation: string | null): PendingMessage[] {
  const all = useSyncExternalStore(outbox.subscribe, outbox.items);
  return conversation ? all.filter((m) => m.conversation === conversation) : [];
}
