import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { createOutbox } from './outbox';

afterEach(() => localStorage.clear());

const message = { id: '0193a000-0000-7000-8000-0000000000b1', conversation: 'c1', body: 'Bonjour' };

describe('the chat outbox', () => {
  it('keeps a message while offline and sends it once when the connection returns', async () => {
    let online = false;
    const send = vi.fn().mockResolvedValue({});
    const outbox = createOutbox({ send, isOnline: () => online });
    outbox.enqueue(message);
    expect(send).not.toHaveBeenCalled();
    expect(outbox.items().map((m) => m.id)).toEqual([message.id]);
    // Survives a reload of the page.
    expect(createOutbox({ send, isOnline: () => false }).items()).toHaveLength(1);

    online = true;
    await Promise.all([outbox.flush(), outbox.flush()]);
    await outbox.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('c1', { id: message.id, body: 'Bonjour' });
    expect(outbox.items()).toEqual([]);
  });

  it('keeps the message on a network failure (same id next time) and drops it when refused', async () => {
    const send = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(0, null))
      .mockRejectedValueOnce(new ApiError(400, null));
    const refused = vi.fn();
    const outbox = createOutbox({ send, isOnline: () => true, onRefused: refused });
    outbox.enqueue(message);
    await outbox.flush();
    expect(outbox.items()).toHaveLength(1);
    await outbox.flush();
    expect(send.mock.calls.map((c) => c[1].id)).toEqual([message.id, message.id]);
    expect(outbox.items()).toEqual([]);
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
