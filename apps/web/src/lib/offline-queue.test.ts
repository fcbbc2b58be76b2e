import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { createOfflineQueue } from './offline-queue';

interface Item {
  key: string;
  status: 'pending' | 'refused';
  reason?: string;
}

function memory(initial: Item[] = []) {
  let saved: readonly Item[] = initial;
  return {
    storage: {
      load: async () => [...saved],
      save: (items: readonly Item[]) => {
        saved = items;
      },
    },
    saved: () => saved,
  };
}

describe('the offline queue (issue 40)', () => {
  it('sends in order once online, keeps a refusal with its reason, and stops at a network failure', async () => {
    const store = memory([
      { key: 'a', status: 'pending' },
      { key: 'b', status: 'pending' },
      { key: 'c', status: 'pending' },
    ]);
    const send = vi
      .fn()
      .mockResolvedValueOnce({})
      .mockRejectedValueOnce(new ApiError(409, { detail: 'Cette prise a déjà été enregistrée.' }))
      .mockRejectedValueOnce(new ApiError(0, null));
    const queue = createOfflineQueue<Item>({
      storage: store.storage,
      idOf: (i) => i.key,
      send,
      isOnline: () => true,
      isHeld: (i) => i.status === 'refused',
      onRefused: (i, error) => ({
        ...i,
        status: 'refused',
        reason: (error.body as { detail: string }).detail,
      }),
    });
    await queue.ready;
    await Promise.all([queue.flush(), queue.flush()]);
    expect(send.mock.calls.map((c) => c[0].key)).toEqual(['a', 'b', 'c']);
    // Nothing disappears silently: the refused item stays, with the server's reason; the unsent one waits.
    expect(queue.items()).toEqual([
      { key: 'b', status: 'refused', reason: 'Cette prise a déjà été enregistrée.' },
      { key: 'c', status: 'pending' },
    ]);
    expect(store.saved()).toEqual(queue.items());
    // The next flush passes over the refused item and sends the waiting one once.
    send.mockResolvedValueOnce({});
    await queue.flush();
    expect(send.mock.calls.map((c) => c[0].key)).toEqual(['a', 'b', 'c', 'c']);
    expect(queue.items().map((i) => i.key)).toEqual(['b']);
    queue.replace('b', null);
    expect(queue.items()).toEqual([]);
  });
});
