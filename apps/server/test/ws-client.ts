import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';

export interface TestSocket {
  ws: WebSocket;
  /** Every parsed message received so far. */
  messages: Array<{ action: string; hospital: string | null; message: Record<string, unknown> }>;
  /** Resolves with the next message (already received or coming) matching `match`, or rejects on timeout. */
  next(
    match?: (m: TestSocket['messages'][number]) => boolean,
    timeoutMs?: number,
  ): Promise<TestSocket['messages'][number]>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** Base ws:// URL of a listening app. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

/** A real `ws` client on /ws/notifications/{token}/, open (or closed by the server right after opening). */
export async function openSocket(
  base: string,
  token: string,
  options: { autoPong?: boolean } = {},
): Promise<TestSocket> {
  const ws = new WebSocket(`${base}/ws/notifications/${token}/`, { autoPong: options.autoPong ?? true });
  const messages: TestSocket['messages'] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (raw) => {
    messages.push(JSON.parse(String(raw)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  let seen = 0;
  return {
    ws,
    messages,
    closed,
    close: () => ws.close(),
    next(match = () => true, timeoutMs = 1000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching socket message in time')), timeoutMs);
        const check = () => {
          for (; seen < messages.length; seen++) {
            const m = messages[seen]!;
            if (match(m)) {
              seen++;
              clearTimeout(timer);
              resolve(m);
              return;
            }
          }
          waiters.push(check);
        };
        check();
      });
    },
  };
}

/** Polls `condition` until it is true (or fails after `timeoutMs`). */
export async function waitUntil(condition: () => boolean, timeoutMs = 5000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
