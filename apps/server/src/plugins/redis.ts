import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis client (keys prefixed with `config.redisPrefix`), or null without REDIS_URL. */
    redis: Redis | null;
  }
}

/** How long start-up waits for Redis before going on without it (it keeps reconnecting in the background). */
const CONNECT_WAIT_MS = 2000;

/**
 * One Redis client per app when REDIS_URL is set. Commands fail fast while it is disconnected (no offline
 * queue), so that callers can fall back (rate-limit counters go to memory) instead of hanging a request.
 */
export default fp(
  async (app: FastifyInstance) => {
    const url = app.config.redisUrl;
    if (!url) {
      app.decorate('redis', null);
      return;
    }
    // ioredis is loaded only where Redis is configured (issue 38: a quarter of a second of every start).
    const { Redis } = await import('ioredis');
    const client = new Redis(url, {
      keyPrefix: app.config.redisPrefix,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_WAIT_MS,
      retryStrategy: (times) => Math.min(times * 250, 5000),
    });
    let reported = false;
    client.on('error', (err: Error) => {
      if (reported) return;
      reported = true;
      app.log.warn({ err: { message: err.message } }, 'redis unavailable; retrying in the background');
    });
    client.on('ready', () => {
      if (reported) app.log.info('redis connection restored');
      reported = false;
    });
    try {
      await client.connect();
    } catch {
      // Reported by the error listener; the client keeps retrying.
    }
    app.decorate('redis', client);
    app.addHook('onClose', async () => {
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    });
  },
  { name: 'redis' },
);
