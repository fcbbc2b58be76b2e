import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface CounterState {
  /** Hits in the current window, this one included for `incr`. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

// INCR + PEXPIRE on the first hit of a window, atomically.
const INCR_LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

type RedisWithCounter = Redis & {
  greensenCounterIncr(key: string, windowMs: number): Promise<[number, number]>;
};

const MEMORY_MAX_KEYS = 20_000;

/**
 * Fixed-window counters for rate limits: in Redis when the app has a ready Redis client (shared by every
 * instance), else in memory. A Redis failure falls back to memory for that call, with one warning per outage.
 */
export class Counters {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();
  private warned = false;

  constructor(
    private readonly redis: Redis | null,
    private readonly log: FastifyBaseLogger,
  ) {
    if (redis) {
      redis.defineCommand('greensenCounterIncr', { numberOfKeys: 1, lua: INCR_LUA });
      redis.on('ready', () => {
        this.warned = false;
      });
    }
  }

  async incr(key: string, windowMs: number): Promise<CounterState> {
    const redis = this.usableRedis();
    if (redis) {
      try {
        const [current, ttl] = await redis.greensenCounterIncr(`rl:${key}`, windowMs);
        return { current: Number(current), ttl: Number(ttl) };
      } catch (err) {
        this.fallback(err);
      }
    }
    return this.memoryIncr(key, windowMs);
  }

  async read(key: string, windowMs: number): Promise<CounterState> {
    const redis = this.usableRedis();
    if (redis) {
      try {
        const [value, ttl] = await Promise.all([redis.get(`rl:${key}`), redis.pttl(`rl:${key}`)]);
        return { current: value ? Number(value) : 0, ttl: Math.max(ttl, 0) };
      } catch (err) {
        this.fallback(err);
      }
    }
    const now = Date.now();
    const entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) return { current: 0, ttl: 0 };
    return { current: entry.count, ttl: Math.min(windowMs, entry.resetAt - now) };
  }

  private usableRedis(): RedisWithCounter | null {
    if (!this.redis) return null;
    if (this.redis.status !== 'ready') {
      this.fallback(new Error(`redis ${this.redis.status}`));
      return null;
    }
    return this.redis as RedisWithCounter;
  }

  private fallback(err: unknown) {
    if (this.warned) return;
    this.warned = true;
    this.log.warn(
      { err: { message: err instanceof Error ? err.message : String(err) } },
      'rate-limit counters fall back to memory: redis is not available',
    );
  }

  private lastPrune = 0;

  /** Drops finished windows (at most once a second), then the oldest keys if memory is still full. */
  private prune(now: number) {
    if (now - this.lastPrune >= 1000) {
      this.lastPrune = now;
      for (const [k, e] of this.memory) if (e.resetAt <= now) this.memory.delete(k);
    }
    for (const k of this.memory.keys()) {
      if (this.memory.size < MEMORY_MAX_KEYS) break;
      this.memory.delete(k);
    }
  }

  private memoryIncr(key: string, windowMs: number): CounterState {
    const now = Date.now();
    if (this.memory.size >= MEMORY_MAX_KEYS) this.prune(now);
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, entry);
    }
    entry.count += 1;
    return { current: entry.count, ttl: entry.resetAt - now };
  }
}
