/**
 * The offline queue of the messaging (issue 23, on the app's queue lib/offline-queue.ts): a message typed while the socket is down (or whose sending
 * failed on the network) waits here, shown as pending, and is sent when the connection returns. Its id is made
 * here once, so that a message sent twice (a lost answer, a second tab) is still one message on the server.
 */
import type { TChatMessageCreate } from '@greensen/shared/contracts/chat';
import { useSyncExternalStore } from 'react';
import { createOfflineQueue } from '../../lib/offline-queue';
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
  const queue = createOfflineQueue<PendingMessage>({
    storage: {
      load,
      save: (items) => globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(items)),
    },
    idOf: (m) => m.id,
    send: ({ conversation, created_at: _created, ...body }) => deps.send(conversation, body),
    isOnline: deps.isOnline,
    onSent: (m) => deps.onSent?.(m),
    // A refused message is dropped (the chat tells the user with a toast).
    onRefused: (m) => {
      deps.onRefused?.(m);
      return null;
    },
  });
  return {
    subscribe: queue.subscribe,
    items: queue.items,
    /** Queues the message; sends it at once when the socket is connected. */
    enqueue(m: Omit<PendingMessage, 'created_at'>) {
      queue.enqueue({ ...m, created_at: new Date().toISOString() });
    },
    flush: queue.flush,
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
