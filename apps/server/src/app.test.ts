import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginPair, makeAccount } from '../test/accounts.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** The request log: one line per answered request, nothing secret in it (issue 9: two lines cost 12 %). */
describe('request log', () => {
  let database: TestDatabase;
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.destroy());

  const appAt = (level: string) =>
    buildApp(
      loadConfig({
        APP_ENV: 'development',
        LOG_LEVEL: level,
        JWT_SECRET: 'test-secret-0123456789abcdef0123456789',
      }),
      { database, logStream: stream },
    );

  it('writes one line when a request is answered: method, URL without secrets, status, time, request id', async () => {
    const app = await appAt('info');
    try {
      const acct = await makeAccount(app);
      const pair = await loginPair(app, acct.email);
      lines.length = 0;
      const res = await app.inject({
        url: '/api/profile/?token=abc123secret',
        headers: { ...bearer(pair.access), 'x-request-id': 'req-log-test-0001' },
      });
      expect(res.statusCode).toBe(200);
      const requestLines = lines.filter(
        (l) => (l.req as { id?: string } | undefined)?.id === 'req-log-test-0001',
      );
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        reqId: 'req-log-test-0001',
        req: { method: 'GET', url: '/api/profile/?token=[redacted]', id: 'req-log-test-0001' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      });
      const all = JSON.stringify(lines);
      expect(all).not.toContain(pair.access);
      expect(all).not.toContain('abc123secret');
    } finally {
      await app.close();
    }
  });

  it('also logs the arrival of each request at debug level', async () => {
    const app = await appAt('debug');
    try {
      lines.length = 0;
      await app.inject({ url: '/api/health/', headers: { 'x-request-id': 'req-log-test-0002' } });
      const mine = lines.filter((l) => l.reqId === 'req-log-test-0002').map((l) => l.msg);
      expect(mine).toEqual(['incoming request', 'request completed']);
    } finally {
      await app.close();
    }
  });
});
