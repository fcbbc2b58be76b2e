import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth';
import { createNotificationSocket, type NotificationSocketDeps, socketUrl, watchAccessToken } from './socket';

vi.mock('./api-client', () => ({ api: { post: vi.fn() } }));

class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  onopen: ((ev: Event) => unknown) | null = null;
  onclose: ((ev: CloseEvent) => unknown) | null = null;
  onerror: ((ev: Event) => unknown) | null = null;
  onmessage: ((ev: MessageEvent) => unknown) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  serverCloses(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  fails() {
    this.onerror?.(new Event('error'));
    this.serverCloses(1006);
  }
  serverSends(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) } as MessageEvent);
  }
}

function setup(over: Partial<NotificationSocketDeps> = {}) {
  let token: string | null = 'access-1';
  let watcher: ((t: string | null) => void) | null = null;
  let n = 0;
  const fetchTicket = vi.fn(async () => `ticket-${++n}`);
  const socket = createNotificationSocket({
    createSocket: (url) => new FakeSocket(url),
    fetchTicket,
    location: () => ({ protocol: 'https:', host: 'app.example.org' }),
    wsHost: 'ws.example.org',
    getAccessToken: () => token,
    onAccessTokenChange: (cb) => {
      watcher = cb;
      return () => {
        watcher = null;
      };
    },
    ...over,
  });
  return {
    socket,
    fetchTicket,
    setToken(value: string | null) {
      token = value;
      watcher?.(value);
    },
  };
}

/** Lets the ticket promise resolve. */
const flush = () => vi.advanceTimersByTimeAsync(0);
const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;

describe('notification socket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('builds wss URLs on https pages, with the configured host or the page host', () => {
    const https = { protocol: 'https:', host: 'app.example.org' };
    const http = { protocol: 'http:', host: 'localhost:5173' };
    expect(socketUrl('t1', https, 'ws.example.org')).toBe('wss://ws.example.org/ws/notifications/t1/');
    expect(socketUrl('t1', https, undefined)).toBe('wss://app.example.org/ws/notifications/t1/');
    expect(socketUrl('t1', http, '')).toBe('ws://localhost:5173/ws/notifications/t1/');
    expect(socketUrl('t1', https, 'ws.example.org', true)).toBe('wss://app.example.org/ws/notifications/t1/');
    expect(socketUrl('t1', http, 'wss://rt.example.org/')).toBe('wss://rt.example.org/ws/notifications/t1/');
  });

  it('connects with a fresh ticket when a token exists, and disconnects when it is lost', async () => {
    const { socket, fetchTicket, setToken } = setup();
    socket.start();
    await flush();
    expect(fetchTicket).toHaveBeenCalledTimes(1);
    expect(last().url).toBe('wss://ws.example.org/ws/notifications/ticket-1/');
    last().serverOpens();
    expect(socket.state).toBe('open');

    setToken(null);
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
    expect(socket.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);

    setToken('access-2');
    await flush();
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toContain('ticket-2');
    socket.stop();
  });

  it('does not connect without a token', async () => {
    const { socket, fetchTicket, setToken } = setup();
    setToken(null);
    socket.start();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchTicket).not.toHaveBeenCalled();
    socket.stop();
  });

  it('reconnects after 1, 2, 4, 8 and 16 s, at most 5 attempts, then stops', async () => {
    const { socket } = setup();
    socket.start();
    await flush();
    last().serverOpens();
    last().serverCloses(1006);
    for (const delay of [1000, 2000, 4000, 8000, 16000]) {
      const before = FakeSocket.all.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.all).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all).toHaveLength(before + 1);
      last().serverCloses(1006);
    }
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(6);
    expect(socket.state).toBe('failed');
    socket.stop();
  });

  it('resets the attempt counter when a connection opens', async () => {
    const { socket } = setup();
    socket.start();
    await flush();
    last().serverCloses();
    await vi.advanceTimersByTimeAsync(1000);
    last().serverCloses();
    await vi.advanceTimersByTimeAsync(2000);
    last().serverOpens();
    last().serverCloses();
    // First attempt again: 1 s, not 4 s.
    const before = FakeSocket.all.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(before + 1);
    socket.stop();
  });

  it('counts a failed ticket request as an attempt', async () => {
    const fetchTicket = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('t');
    const { socket } = setup({ fetchTicket });
    socket.start();
    await flush();
    expect(FakeSocket.all).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(1);
    socket.stop();
  });

  it("retries once on the page's own host after a socket error", async () => {
    const { socket } = setup();
    socket.start();
    await flush();
    expect(last().url).toBe('wss://ws.example.org/ws/notifications/ticket-1/');
    last().fails();
    await flush();
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toBe('wss://app.example.org/ws/notifications/ticket-2/');
    // A second error does not retry at once again: the normal schedule applies.
    last().fails();
    await flush();
    expect(FakeSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(3);
    socket.stop();
  });

  it('hands valid envelopes to listeners and tells open listeners of each connection', async () => {
    const { socket } = setup();
    const received = vi.fn();
    const opened = vi.fn();
    socket.subscribe(received);
    socket.onOpen(opened);
    socket.start();
    await flush();
    last().serverOpens();
    expect(opened).toHaveBeenCalledTimes(1);
    last().serverSends({ action: 'mark_read', hospital: 'h1', message: { ids: null, unread_count: 0 } });
    last().serverSends({ action: 'unknown', message: {} });
    last().onmessage?.({ data: 'not json' } as MessageEvent);
    expect(received).toHaveBeenCalledTimes(1);
    expect(received).toHaveBeenCalledWith({
      action: 'mark_read',
      hospital: 'h1',
      message: { ids: null, unread_count: 0 },
    });
    socket.stop();
  });

  it('follows the auth store: gaining or losing a token counts, a refreshed token does not', () => {
    useAuthStore.setState({ access: null });
    const seen = vi.fn();
    const unwatch = watchAccessToken(seen);
    useAuthStore.setState({ access: 'a1' });
    useAuthStore.setState({ access: 'a2' });
    useAuthStore.setState({ currentHospitalId: 'h2' });
    useAuthStore.setState({ access: null });
    expect(seen.mock.calls).toEqual([['a1'], [null]]);
    unwatch();
    useAuthStore.setState({ access: 'a3' });
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it('ignores a late close of a socket it already abandoned', async () => {
    const { socket, setToken } = setup();
    socket.start();
    await flush();
    const first = last();
    first.serverOpens();
    setToken(null);
    first.onclose?.({ code: 1006 } as CloseEvent);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    socket.stop();
  });
});
