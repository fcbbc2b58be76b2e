import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientIp, login, makeAccount } from '../../test/accounts.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { Counters } from '../lib/counters.js';

const redisUrl = process.env.TEST_REDIS_URL;

function logStub() {
  const warn = vi.fn();
  return { log: { warn, info: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger, warn };
}

describe('rate-limit counters', () => {
  it('count per key in fixed windows, in memory', async () => {
    const { log } = logStub();
    const c = new Counters(null, log);
    expect((await c.incr('a', 60)).current).toBe(1);
    expect((await c.incr('a', 60)).current).toBe(2);
    expect((await c.incr('b', 60)).current).toBe(1);
    expect((await c.read('a', 60)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 80));
    expect((await c.read('a', 60)).current).toBe(0);
    expect((await c.incr('a', 60)).current).toBe(1);
  });

  it('fall back to memory with one warning when Redis cannot be reached', async () => {
    const { log, warn } = logStub();
    const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    try {
      const c = new Counters(down, log);
      expect((await c.incr('k', 10_000)).current).toBe(1);
      expect((await c.incr('k', 10_000)).current).toBe(2);
      expect((await c.read('k', 10_000)).current).toBe(2);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      down.disconnect();
    }
  });

  it.skipIf(!redisUrl)('count in Redis when it is there, under the app prefix', async () => {
    const prefix = `greensen-test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(redisUrl!, { keyPrefix: prefix });
    const raw = new Redis(redisUrl!);
    try {
      const { log, warn } = logStub();
      const c = new Counters(redis, log);
      await new Promise((r) => (redis.status === 'ready' ? r(null) : redis.once('ready', r)));
      expect((await c.incr('x', 10_000)).current).toBe(1);
      expect((await c.incr('x', 10_000)).current).toBe(2);
      // A second client (another instance) sees the same count.
      const other = new Counters(redis.duplicate(), log);
      await new Promise((r) => setTimeout(r, 50));
      expect((await other.read('x', 10_000)).current).toBe(2);
      expect(await raw.get(`${prefix}rl:x`)).toBe('2');
      const ttl = await raw.pttl(`${prefix}rl:x`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(10_000);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      redis.disconnect();
      raw.disconnect();
    }
  });
});

describe.skipIf(!redisUrl)('two API instances on one Redis', () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    const redisPrefix = `greensen-test:${randomBytes(6).toString('hex')}:`;
    a = await createTestApp({ redisPrefix });
    b = await createTestApp({ redisPrefix }, { database: a.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share the sign-in limit of an account from one address', async () => {
    const acct = await makeAccount(a.app);
    const attacker = clientIp();
    for (let i = 0; i < 10; i++) {
      const app = i % 2 ? a.app : b.app;
      expect((await login(app, acct.email, `wrong-${i}-password`, attacker)).statusCode).toBe(401);
    }
    expect((await login(a.app, acct.email, acct.password, attacker)).statusCode).toBe(429);
    expect((await login(b.app, acct.email, acct.password, attacker)).statusCode).toBe(429);
    // The owner, elsewhere, still signs in (docs/security.md, sign-in throttling).
    expect((await login(b.app, acct.email, acct.password, clientIp())).statusCode).toBe(200);
  });
});

describe('an app whose Redis is unreachable', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(() => ctx.close());

  it('starts, serves and still limits (in memory)', async () => {
    const acct = await makeAccount(ctx.app);
    const ip = clientIp();
    expect((await login(ctx.app, acct.email, acct.password, ip)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) await login(ctx.app, acct.email, `wrong-${i}-password`, ip);
    expect((await login(ctx.app, acct.email, acct.password, ip)).statusCode).toBe(429);
  });
});
