import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

export type BusHandler = (message: string) => void;

/**
 * Fan-out of real-time events between the API instances (DESIGN §1). Messages are strings (JSON);
 * delivery is at most once and best effort: a bus that is down loses events, it never throws at callers.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  /** Publishes to every subscriber of `channel` (on every instance). Never rejects. */
  publish(channel: string, message: string): Promise<void>;
  /** Subscribes to `channel`; resolves once the subscription is active. Returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

type Handlers = Map<string, Set<BusHandler>>;

function addHandler(handlers: Handlers, channel: string, handler: BusHandler): boolean {
  let set = handlers.get(channel);
  const first = !set;
  if (!set) {
    set = new Set();
    handlers.set(channel, set);
  }
  set.add(handler);
  return first;
}

function removeHandler(handlers: Handlers, channel: string, handler: BusHandler): boolean {
  const set = handlers.get(channel);
  if (!set) return false;
  set.delete(handler);
  if (set.size > 0) return false;
  handlers.delete(channel);
  return true;
}

function dispatch(handlers: Handlers, channel: string, message: string, log: FastifyBaseLogger) {
  for (const handler of handlers.get(channel) ?? []) {
    try {
      handler(message);
    } catch (err) {
      log.error({ err, channel }, 'event bus handler failed');
    }
  }
}

/** In-process bus: one instance only (the default without REDIS_URL). */
export function createMemoryBus(log: FastifyBaseLogger): EventBus {
  const handlers: Handlers = new Map();
  return {
    kind: 'memory',
    async publish(channel, message) {
      // Asynchronous like a real bus, so publishers never run subscribers inside their own call stack.
      queueMicrotask(() => dispatch(handlers, channel, message, log));
    },
    async subscribe(channel, handler) {
      addHandler(handlers, channel, handler);
      return async () => {
        removeHandler(handlers, channel, handler);
      };
    },
    async close() {
      handlers.clear();
    },
  };
}

export interface RedisBusOptions {
  url: string;
  /** Prepended to every channel name (`config.redisPrefix`). */
  prefix: string;
  log: FastifyBaseLogger;
  /** Extra ioredis options (for example those of a shared Redis plugin). */
  redisOptions?: RedisOptions;
}

/** Options for a command connection that must fail fast (never queue for ever) while Redis is away. */
export function failFastRedisOptions(extra: RedisOptions = {}): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    // Reconnect for ever, backing off to 2 s: Redis coming back must heal the instance by itself.
    retryStrategy: (times) => Math.min(times * 100, 2000),
    ...extra,
  };
}

/**
 * Redis pub/sub bus: one connection publishes, one subscribes (a subscribed connection cannot publish).
 * When Redis goes away the process keeps running: publishes are dropped with a warning, ioredis reconnects
 * and re-subscribes by itself.
 */
export async function createRedisBus(opts: RedisBusOptions): Promise<EventBus & { commands: Redis }> {
  const { log, prefix } = opts;
  // Loaded only where Redis is configured (issue 38).
  const { Redis } = await import('ioredis');
  const pub = new Redis(
    opts.url,
    failFastRedisOptions({ connectionName: 'greensen-pub', ...opts.redisOptions }),
  );
  const sub = new Redis(opts.url, {
    lazyConnect: true,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 100, 2000),
    // The subscriber queues its SUBSCRIBE commands while disconnected; they run on reconnect.
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    connectionName: 'greensen-sub',
    ...opts.redisOptions,
  });
  const handlers: Handlers = new Map();
  let closing = false;
  let lastWarn = 0;
  const warn = (err: unknown, what: string) => {
    if (closing) return;
    // Logs at most one warning every 10 s per bus while Redis is unreachable.
    const now = Date.now();
    if (now - lastWarn < 10_000) return;
    lastWarn = now;
    log.warn({ err: { message: (err as Error)?.message, code: (err as { code?: string })?.code } }, what);
  };
  pub.on('error', (err) => warn(err, 'redis event bus: publisher connection error'));
  sub.on('error', (err) => warn(err, 'redis event bus: subscriber connection error'));
  sub.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    dispatch(handlers, channel.slice(prefix.length), message, log);
  });

  // Start-up: try to connect, but a Redis that is down at start must not stop the API from serving.
  await Promise.all(
    [pub, sub].map((c) =>
      c.connect().catch((err) => warn(err, 'redis event bus: cannot connect yet, will keep retrying')),
    ),
  );

  return {
    kind: 'redis',
    commands: pub,
    async publish(channel, message) {
      if (closing) return;
      try {
        await pub.publish(prefix + channel, message);
      } catch (err) {
        warn(err, 'redis event bus: publish failed, event dropped for other instances');
      }
    },
    async subscribe(channel, handler) {
      if (addHandler(handlers, channel, handler)) {
        const subscribed = sub
          .subscribe(prefix + channel)
          .catch((err) => warn(err, 'redis event bus: subscribe failed (will subscribe again on reconnect)'));
        // While Redis is away the command waits in the offline queue: do not hold the caller for it.
        if (sub.status === 'ready') await subscribed;
      }
      return async () => {
        if (removeHandler(handlers, channel, handler) && !closing && sub.status === 'ready') {
          await sub.unsubscribe(prefix + channel).catch(() => {});
        }
      };
    },
    async close() {
      closing = true;
      handlers.clear();
      await Promise.all(
        [pub, sub].map(async (c) => {
          try {
            if (c.status === 'ready') await c.quit();
            else c.disconnect();
          } catch {
            c.disconnect();
          }
        }),
      );
    },
  };
}
