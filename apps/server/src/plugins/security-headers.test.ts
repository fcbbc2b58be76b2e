import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import securityHeaders, { helmetHeaders, jsonApiHeaders } from './security-headers.js';

const OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  hsts: { maxAge: 15552000, includeSubDomains: true },
};

describe('security headers', () => {
  it("are the ones helmet's own middleware sets, worked out once", () => {
    const set: Record<string, string> = {};
    helmet(OPTIONS)(
      {} as never,
      {
        setHeader: (name: string, value: string) => {
          set[name.toLowerCase()] = value;
        },
        removeHeader: () => {},
      } as never,
      () => {},
    );
    const headers = helmetHeaders(OPTIONS);
    expect(headers).toEqual(set);
    expect(headers['content-security-policy']).toBe(
      "default-src 'self';object-src 'none';frame-ancestors 'none'",
    );
    expect(headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuse an invalid policy when the app starts, not on a request', () => {
    expect(() => helmetHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ['self'] } } })).toThrow(
      /should be quoted/,
    );
  });

  it('go on every answer, errors included; API answers are never stored by browsers or proxies', async () => {
    const app = Fastify();
    await app.register(securityHeaders, OPTIONS);
    app.get('/api/thing/', async () => ({ ok: true }));
    app.get('/api/broken/', async () => {
      throw new Error('boom');
    });
    app.get('/page', async () => 'page');
    app.get('/api/docs', async () => 'docs page');
    const [api, broken, missing, page, docs] = await Promise.all(
      ['/api/thing/', '/api/broken/', '/api/missing/', '/page', '/api/docs'].map((url) => app.inject(url)),
    );
    expect([api, broken, missing, page, docs].map((r) => r!.statusCode)).toEqual([200, 500, 404, 200, 200]);
    // Pages (the API's documentation page included) carry helmet's whole set.
    for (const res of [page, docs]) {
      expect(res!.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res!.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res!.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    // JSON answers the set that protects a JSON answer, no more.
    const expected = jsonApiHeaders(helmetHeaders(OPTIONS));
    expect(expected['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    for (const res of [api, broken, missing]) {
      for (const [name, value] of Object.entries(expected)) expect(res!.headers[name]).toBe(value);
      expect(res!.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res!.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res!.headers['x-dns-prefetch-control']).toBeUndefined();
    }
    for (const res of [api, broken, missing, docs]) expect(res!.headers['cache-control']).toBe('no-store');
    expect(page!.headers['cache-control']).toBeUndefined();
    await app.close();
  });
});
