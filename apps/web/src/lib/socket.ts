/**
 * The real-time notification socket (specification §4 Real-time socket, §7, §9):
 * - connects when an access token exists and disconnects when it is lost;
 * - asks `/api/notifications/ws-ticket/` for a single-use ticket first (long-lived tokens stay out of URLs)
 *   and opens `/ws/notifications/{ticket}/` on the configured websocket host (`VITE_WS_HOST`) or the page
 *   host, `wss` when the page is https;
 * - after an unexpected close reconnects after 1 s, 2 s, 4 s, 8 s, 16 s (at most 5 attempts); the counter
 *   resets on open;
 * - on a socket error retries once using the page's own host.
 */
import type { TSocketEnvelope, TWsTicket } from '@greensen/shared/contracts/notifications';
import { socketReconnectDelayMs } from '@greensen/shared/domain/constants';
import { useAuthStore } from '../stores/auth';
import { api } from './api-client';

export type SocketListener = (envelope: TSocketEnvelope) => void;

type WebSocketLike = Pick<WebSocket, 'close' | 'readyState'> & {
  onopen: ((ev: Event) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
};

export interface NotificationSocketDeps {
  createSocket: (url: string) => WebSocketLike;
  /** A fresh single-use ticket. */
  fetchTicket: () => Promise<string>;
  /** The page location (protocol and host). */
  location: () => { protocol: string; host: string };
  /** The configured websocket host (host[:port], or a ws(s):// base URL), if any. */
  wsHost: string | undefined;
  getAccessToken: () => string | null;
  /** Calls back on every change of the access token; returns the unsubscribe function. */
  onAccessTokenChange: (callback: (token: string | null) => void) => () => void;
}

export type SocketState = 'idle' | 'connecting' | 'open' | 'waiting' | 'failed';

const ACTIONS = new Set([
  'new_notification',
  'mark_read',
  'delete_notification',
  // Messaging (issue 23): its feature listens to these.
  'chat.message.created',
  'chat.message.updated',
  'chat.read',
]);

function parseEnvelope(raw: unknown): TSocketEnvelope | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as { action?: unknown; message?: unknown };
    if (!value || typeof value.action !== 'string' || !ACTIONS.has(value.action)) return null;
    if (!value.message || typeof value.message !== 'object') return null;
    return value as TSocketEnvelope;
  } catch {
    return null;
  }
}

/** The socket URL for a ticket; `pageHost` forces the page's own host (the error fallback). */
export function socketUrl(
  ticket: string,
  location: { protocol: string; host: string },
  wsHost: string | undefined,
  pageHost = false,
): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = `/ws/notifications/${encodeURIComponent(ticket)}/`;
  const configured = pageHost ? '' : (wsHost ?? '').trim().replace(/\/+$/, '');
  if (/^wss?:\/\//i.test(configured)) return `${configured}${path}`;
  return `${scheme}//${configured || location.host}${path}`;
}

export class NotificationSocket {
  private socket: WebSocketLike | null = null;
  private listeners = new Set<SocketListener>();
  private openListeners = new Set<() => void>();
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The page-host retry after an error was used (reset on open). */
  private fallbackUsed = false;
  private fallbackPending = false;
  private unwatch: (() => void) | null = null;
  /** Bumped whenever the current connection is abandoned: late callbacks of older ones are ignored. */
  private epoch = 0;
  private starts = 0;
  state: SocketState = 'idle';

  constructor(private readonly deps: NotificationSocketDeps) {}

  /** Follows the access token: connected while one exists. Counted: stop() as often as start(). */
  start(): void {
    this.starts += 1;
    if (this.starts > 1) return;
    this.unwatch = this.deps.onAccessTokenChange((token) => {
      if (!token) this.disconnect();
      else if (this.state === 'idle' || this.state === 'failed') this.connect();
    });
    if (this.deps.getAccessToken()) this.connect();
  }

  stop(): void {
    if (this.starts === 0) return;
    this.starts -= 1;
    if (this.starts > 0) return;
    this.unwatch?.();
    this.unwatch = null;
    this.disconnect();
  }

  /** Listens to the server's messages; returns the unsubscribe function. */
  subscribe(listener: SocketListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called on every (re)connection, e.g. to reload what may have been missed. */
  onOpen(listener: () => void): () => void {
    this.openListeners.add(listener);
    return () => this.openListeners.delete(listener);
  }

  /** Opens the socket now (no-op when one is open or opening). */
  connect(usePageHost = false): void {
    if (this.socket || this.state === 'connecting') return;
    if (!this.deps.getAccessToken()) return;
    this.clearTimer();
    const epoch = ++this.epoch;
    this.state = 'connecting';
    this.deps.fetchTicket().then(
      (ticket) => {
        if (epoch !== this.epoch) return;
        this.open(ticket, usePageHost, epoch);
      },
      () => {
        if (epoch !== this.epoch) return;
        this.state = 'idle';
        this.scheduleReconnect();
      },
    );
  }

  /** Closes the socket on purpose: no reconnection. */
  disconnect(): void {
    this.epoch += 1;
    this.clearTimer();
    this.attempts = 0;
    this.fallbackUsed = false;
    this.fallbackPending = false;
    const socket = this.socket;
    this.socket = null;
    this.state = 'idle';
    if (socket) {
      socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
      try {
        socket.close(1000, 'client disconnect');
      } catch {
        // already closed
      }
    }
  }

  private open(ticket: string, usePageHost: boolean, epoch: number) {
    let socket: WebSocketLike;
    try {
      socket = this.deps.createSocket(socketUrl(ticket, this.deps.location(), this.deps.wsHost, usePageHost));
    } catch {
      this.state = 'idle';
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (epoch !== this.epoch) return;
      this.state = 'open';
      this.attempts = 0;
      this.fallbackUsed = false;
      for (const listener of this.openListeners) listener();
    };
    socket.onmessage = (event) => {
      if (epoch !== this.epoch) return;
      const envelope = parseEnvelope(event.data);
      if (envelope) for (const listener of this.listeners) listener(envelope);
    };
    socket.onerror = () => {
      if (epoch !== this.epoch) return;
      if (!this.fallbackUsed) {
        this.fallbackUsed = true;
        this.fallbackPending = true;
      }
    };
    socket.onclose = () => {
      if (epoch !== this.epoch) return;
      this.socket = null;
      this.state = 'idle';
      if (!this.deps.getAccessToken()) return;
      if (this.fallbackPending) {
        this.fallbackPending = false;
        this.connect(true);
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect() {
    this.clearTimer();
    if (!this.deps.getAccessToken()) return;
    this.attempts += 1;
    const delay = socketReconnectDelayMs(this.attempts);
    if (delay === null) {
      this.state = 'failed';
      return;
    }
    this.state = 'waiting';
    this.timer = setTimeout(() => {
      this.timer = null;
      this.state = 'idle';
      this.connect();
    }, delay);
  }

  private clearTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * Calls back when the user gains or loses an access token. A refreshed token (one replacing another) does
 * not count: the open socket belongs to the user, not to the token.
 */
export function watchAccessToken(callback: (token: string | null) => void): () => void {
  let hadToken = useAuthStore.getState().access !== null;
  return useAuthStore.subscribe((state) => {
    const hasToken = state.access !== null;
    if (hasToken === hadToken) return;
    hadToken = hasToken;
    callback(state.access);
  });
}

export function createNotificationSocket(deps: NotificationSocketDeps): NotificationSocket {
  return new NotificationSocket(deps);
}

/** The app's notification socket. */
export const notificationSocket = createNotificationSocket({
  createSocket: (url) => new WebSocket(url),
  fetchTicket: async () => (await api.post<TWsTicket>('/notifications/ws-ticket/')).ticket,
  location: () => ({ protocol: window.location.protocol, host: window.location.host }),
  wsHost: import.meta.env.VITE_WS_HOST as string | undefined,
  getAccessToken: () => useAuthStore.getState().access,
  onAccessTokenChange: watchAccessToken,
});
