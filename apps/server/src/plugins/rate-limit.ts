import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { type CounterState, Counters } from '../lib/counters.js';
import { tooManyRequests } from '../lib/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

export interface Limits {
  counters: Counters;
  /**
   * Counts one hit on `key` and throws 429 when it goes over `max` in the window. Use it for limits that
   * the per-IP route limits cannot express (per account: the key is built from the request body).
   */
  hit(key: string, max: number, windowMs: number): Promise<void>;
  /** Throws 429 when `key` is already at `max` in the window, without counting. */
  check(key: string, max: number, windowMs: number): Promise<void>;
}

type Callback = (err: Error | null, res?: CounterState) => void;

/** The @fastify/rate-limit store interface over our counters (Redis with a memory fallback). */
function storeOver(counters: Counters) {
  return class CountersStore {
    readonly prefix: string;
    constructor(_params?: unknown, prefix = 'ip:') {
      this.prefix = prefix;
    }
    incr(key: string, cb: Callback, timeWindow: number) {
      counters.incr(this.prefix + key, timeWindow).then(
        (res) => cb(null, res),
        (err: Error) => cb(err),
      );
    }
    read(key: string, cb: Callback, timeWindow: number) {
      counters.read(this.prefix + key, timeWindow).then(
        (res) => cb(null, res),
        (err: Error) => cb(err),
      );
    }
    child(options: RouteOptions & { path: string; prefix: string }) {
      // At run time the route arrives as `routeInfo` inside the merged limit options.
      const route = (options as unknown as { routeInfo?: Partial<RouteOptions> }).routeInfo ?? options;
      const method = [route.method ?? ''].flat().join(',');
      return new CountersStore(undefined, `ip:${method}${route.url ?? ''}:`);
    }
  };
}

/**
 * Rate limits. Routes opt in with `config.rateLimit` (per IP, @fastify/rate-limit, `global: false`); services
 * add per-account limits through `app.limits`. The answer is `429 {detail}` (errors plugin).
 */
export default fp(
  async (app: FastifyInstance) => {
    const counters = new Counters(app.redis, app.log);
    await app.register(rateLimit, {
      global: false,
      store: storeOver(counters),
      // Thrown as an error with statusCode 429: the errors plugin writes the translated `{detail}`.
      errorResponseBuilder: () => tooManyRequests(),
    });
    app.decorate('limits', {
      counters,
      async hit(key, max, windowMs) {
        const { current } = await counters.incr(key, windowMs);
        if (current > max) throw tooManyRequests();
      },
      async check(key, max, windowMs) {
        const { current } = await counters.read(key, windowMs);
        if (current >= max) throw tooManyRequests();
      },
    } satisfies Limits);
  },
  { name: 'rate-limit', dependencies: ['redis', 'errors'] },
);
