import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, makeAccount } from '../../test/accounts.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { makeHospital } from '../../test/factories.js';

/** Compressed delivery (decision 0017): the web app's files as the build compressed them, API reads on the fly. */
describe('compressed delivery', () => {
  let ctx: TestContext;
  const script = `export const strings = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `texte ${i}`))};\n`;
  const html = `<!doctype html><html><head><title>Greensen</title></head><body><div id="root"></div>${'<!-- x -->'.repeat(200)}</body></html>`;

  beforeAll(async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'greensen-web-'));
    mkdirSync(join(webDist, 'assets'));
    // As the build writes them (apps/web/vite.config.ts): the file, its brotli and its gzip beside it.
    for (const [name, text] of [
      ['assets/app-0a1b2c.js', script],
      ['index.html', html],
    ] as const) {
      writeFileSync(join(webDist, name), text);
      writeFileSync(join(webDist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(join(webDist, `${name}.gz`), gzipSync(text));
    }
    writeFileSync(join(webDist, 'assets/small-9f8e.js'), 'export const a = 1;\n');
    ctx = await createTestApp({ webDist });
  });
  afterAll(() => ctx.close());

  it('sends a hashed asset as brotli, else gzip, else plain, with its length, Vary and a year of caching', async () => {
    const br = await ctx.app.inject({
      url: '/assets/app-0a1b2c.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(script.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gz = await ctx.app.inject({ url: '/assets/app-0a1b2c.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await ctx.app.inject({
      url: '/assets/app-0a1b2c.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(script));
  });

  it('sends a file the build left uncompressed (too small to gain) as it is', async () => {
    const res = await ctx.app.inject({
      url: '/assets/small-9f8e.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export const a = 1;\n');
  });

  it('sends the page of every client route compressed and never cached stale', async () => {
    for (const url of ['/', '/patients/123', '/en/login']) {
      const res = await ctx.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html);
    }
  });

  it('compresses the answers of API reads from 1 KB, never the answers of writes (tokens)', async () => {
    const hospitals = await Promise.all(
      Array.from({ length: 12 }, (_, i) => makeHospital(ctx.app.db, { name: `Hôpital de compression ${i}` })),
    );
    const account = await makeAccount(ctx.app, {
      role: 'DOCTOR',
      hospitals: hospitals.map((h) => ({ id: h.id })),
    });
    // A write: the sign-in answer carries the tokens (and is over 1 KB here): sent as it is (BREACH).
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: account.email, password: account.password },
      headers: { 'accept-encoding': 'br, gzip' },
      remoteAddress: '10.9.9.9',
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.rawPayload.length).toBeGreaterThan(1024);
    expect(signIn.headers['content-encoding']).toBeUndefined();
    const { access } = signIn.json() as { access: string };

    // The same user read back: a GET over 1 KB, compressed for a client that takes it.
    const headers = { authorization: `Bearer ${access}` };
    const plain = await ctx.app.inject({
      url: '/api/profile/',
      headers: { ...headers, 'accept-encoding': 'identity' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await ctx.app.inject({
      url: '/api/profile/',
      headers: { ...headers, 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await ctx.app.inject({
      url: '/api/profile/',
      headers: { ...headers, 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves small API answers uncompressed: their headers would cost more than the bytes saved', async () => {
    const res = await ctx.app.inject({ url: '/api/health/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });
});
