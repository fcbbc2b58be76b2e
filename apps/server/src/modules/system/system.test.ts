import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { MODULE_NAMES } from '@greensen/shared/domain/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { ConfigError, loadConfig, webDistBeside } from '../../config.js';
import { setJobsHeld } from '../../jobs/queue.js';

describe('system routes', () => {
  let ctx: TestContext;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'greensen-web-'));
    writeFileSync(
      join(webDist, 'index.html'),
      '<!doctype html><html><body><div id="root"></div></body></html>',
    );
    writeFileSync(join(webDist, 'build.json'), JSON.stringify({ build_id: 'build-42' }));
    ctx = await createTestApp({ webDist });
  });
  afterAll(() => ctx.close());

  it('answers health with the database, file store, Redis and job worker states', async () => {
    const res = await ctx.app.inject('/api/health/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: 'ok',
      file_store: 'ok',
      file_store_kind: 'disk',
      redis: ctx.config.redisUrl ? 'ok' : 'not_configured',
      jobs_worker: 'running',
      problems: [],
    });
  });

  it('publishes the public configuration with the build id of the served web app', async () => {
    const res = await ctx.app.inject('/api/config/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      environment: 'development',
      extra_modules: [],
      maintenance: false,
      version: expect.any(String),
      build_id: 'build-42',
      languages: ['fr', 'en'],
    });
  });

  it('keeps unknown API paths as JSON 404s, in French by default and English on request', async () => {
    const fr = await ctx.app.inject('/api/does-not-exist/');
    expect(fr.statusCode).toBe(404);
    expect(fr.headers['content-type']).toMatch(/application\/json/);
    expect(fr.json()).toEqual({ detail: "Cette adresse d'API n'existe pas." });
    const en = await ctx.app.inject({
      url: '/api/does-not-exist/',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(en.json()).toEqual({ detail: 'This API path does not exist.' });
  });

  it('serves the app shell for client routes, and a real 404 for missing assets', async () => {
    const page = await ctx.app.inject('/patients/123');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    const en = await ctx.app.inject('/en/login');
    expect(en.statusCode).toBe(200);
    const asset = await ctx.app.inject('/assets/missing-chunk.js');
    expect(asset.statusCode).toBe(404);
  });

  it('sends a strict content security policy without inline scripts, on every answer', async () => {
    for (const url of ['/', '/api/health/', '/api/admin/maintenance/']) {
      const res = await ctx.app.inject(url);
      const csp = String(res.headers['content-security-policy']);
      // Pages load the app's own scripts; JSON answers let nothing load at all.
      expect(csp).toContain(url === '/' ? "script-src 'self'" : "default-src 'none'");
      expect(csp).not.toMatch(/unsafe-inline[^;]*;?$|script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('publishes an OpenAPI 3 document generated from the route schemas, and its page', async () => {
    const doc = await ctx.app.inject('/api/docs/openapi.json');
    expect(doc.statusCode).toBe(200);
    const body = doc.json();
    expect(body.openapi).toMatch(/^3\./);
    expect(body.paths['/api/health/'].get).toBeDefined();
    expect(body.paths['/api/admin/maintenance/'].put.requestBody).toBeDefined();
    const page = await ctx.app.inject('/api/docs');
    expect([200, 302]).toContain(page.statusCode);
  });

  describe('maintenance switch', () => {
    it('refuses anonymous callers, non-members and non-administrators, and lets an administrator switch it', async () => {
      const h = await makeHospital(ctx.app.db);
      const other = await makeHospital(ctx.app.db);
      const admin = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: h.id }] });
      const nurse = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: h.id }] });
      const adminToken = await tokenFor(ctx.config.jwtSecret, admin);
      const nurseToken = await tokenFor(ctx.config.jwtSecret, nurse);

      const anon = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        payload: { enabled: true },
      });
      expect(anon.statusCode).toBe(401);
      expect(anon.json().code).toBe('not_authenticated');

      const noHospital = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(adminToken),
        payload: { enabled: true },
      });
      expect(noHospital.statusCode).toBe(400);

      const foreign = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(adminToken, other.id),
        payload: { enabled: true },
      });
      expect(foreign.statusCode).toBe(403);

      const asNurse = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(nurseToken, h.id),
        payload: { enabled: true },
      });
      expect(asNurse.statusCode).toBe(403);
      expect(asNurse.json()).toEqual({ detail: expect.any(String) });

      const bad = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(adminToken, h.id),
        payload: { enabled: 'yes' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('enabled');

      const on = await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(adminToken, h.id),
        payload: { enabled: true },
      });
      expect(on.statusCode).toBe(200);
      expect(on.json()).toEqual({ enabled: true, forced_by_environment: false });
      expect((await ctx.app.inject('/api/config/')).json().maintenance).toBe(true);

      await ctx.app.inject({
        method: 'PUT',
        url: '/api/admin/maintenance/',
        headers: authHeaders(adminToken, h.id),
        payload: { enabled: false },
      });
      expect((await ctx.app.inject('/api/config/')).json().maintenance).toBe(false);
    });
  });
});

describe('maintenance forced by the environment', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ maintenanceMode: true, appEnv: 'production' });
  });
  afterAll(() => ctx.close());

  it('reports maintenance and the environment', async () => {
    expect((await ctx.app.inject('/api/config/')).json()).toMatchObject({
      maintenance: true,
      environment: 'production',
    });
  });
});

describe("an installation's extra modules (EXTRA_MODULES, decision 0021)", () => {
  const hospitalRead = async (ctx: TestContext) => {
    const h = await makeHospital(ctx.app.db);
    const admin = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: h.id }] });
    const token = await tokenFor(ctx.config.jwtSecret, admin);
    return ctx.app.inject({ url: `/api/hospitals/${h.id}/`, headers: authHeaders(token, h.id) });
  };

  it('refuses a module route outside the production set, even to an administrator', async () => {
    const ctx = await createTestApp({ appEnv: 'production' });
    try {
      const res = await hospitalRead(ctx);
      expect(res.statusCode).toBe(403);
      expect((await ctx.app.inject('/api/config/')).json().extra_modules).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('opens it when the installation adds the module, and says so in the public configuration', async () => {
    const ctx = await createTestApp({
      appEnv: 'production',
      extraModules: loadConfig({ EXTRA_MODULES: 'hospitals, admin' }).extraModules,
    });
    try {
      expect((await hospitalRead(ctx)).statusCode).toBe(200);
      expect((await ctx.app.inject('/api/config/')).json()).toMatchObject({
        environment: 'production',
        extra_modules: ['hospitals', 'admin'],
      });
    } finally {
      await ctx.close();
    }
  });

  it('refuses to start with a name that is not a module', () => {
    expect(() => loadConfig({ EXTRA_MODULES: 'admin,hopitals' })).toThrow(ConfigError);
    expect(() => loadConfig({ EXTRA_MODULES: 'admin,hopitals' })).toThrow(/unknown module\(s\): hopitals/);
    expect(loadConfig({}).extraModules).toEqual([]);
  });

  it('finds the web app built beside the server build (what main.js serves without WEB_DIST)', () => {
    const root = mkdtempSync(join(tmpdir(), 'greensen-layout-'));
    const serverDist = join(root, 'apps/server/dist');
    mkdirSync(serverDist, { recursive: true });
    expect(webDistBeside(serverDist)).toBeUndefined();
    mkdirSync(join(root, 'apps/web/dist'), { recursive: true });
    writeFileSync(join(root, 'apps/web/dist/index.html'), '<!doctype html>');
    expect(webDistBeside(serverDist)).toBe(join(root, 'apps/web/dist'));
  });

  it('enables every module with EXTRA_MODULES=all', () => {
    expect(
      loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(40), EXTRA_MODULES: 'all' }).extraModules,
    ).toEqual([...MODULE_NAMES]);
  });

  it('keeps files in the database with PostgreSQL and on disk with the embedded engine, unless FILE_STORE says', () => {
    expect(loadConfig({}).fileStore).toBe('disk');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db' }).fileStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db', FILE_STORE: 'disk' }).fileStore).toBe('disk');
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(ConfigError);
  });
});

describe('health when the database does not answer', () => {
  it('answers 503 "unavailable" instead of hanging; the database file store is unavailable with it', {
    timeout: 60_000,
  }, async () => {
    const ctx = await createTestApp({ fileStore: 'database' });
    try {
      await ctx.database.close();
      const res = await ctx.app.inject('/api/health/');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'unavailable',
        database: 'unavailable',
        file_store: 'unavailable',
        file_store_kind: 'database',
      });
      expect(res.json().problems.slice(0, 2)).toEqual(['database', 'file_store']);
    } finally {
      await ctx.app.close();
      await ctx.database.destroy().catch(() => {});
    }
  });
});

describe('health of an instance that serves but is degraded', () => {
  it('answers 200 "degraded" when Redis is lost, and logs it as an error once', {
    timeout: 60_000,
  }, async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const ctx = await createTestApp(
      { redisUrl: 'redis://127.0.0.1:1', logLevel: 'error' },
      { deps: { logStream } },
    );
    try {
      for (let i = 0; i < 2; i++) {
        const res = await ctx.app.inject('/api/health/');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ status: 'degraded', redis: 'unavailable', problems: ['redis'] });
      }
      expect(lines.filter((l) => l.includes('health: degraded (redis)'))).toHaveLength(1);
    } finally {
      await ctx.close();
    }
  });

  it('answers "degraded" while the jobs are held or the worker is stopped', { timeout: 60_000 }, async () => {
    const ctx = await createTestApp();
    try {
      await setJobsHeld(ctx.app.db, true, null);
      await ctx.app.jobs.runDue();
      const held = await ctx.app.inject('/api/health/');
      expect(held.statusCode).toBe(200);
      expect(held.json()).toMatchObject({
        status: 'degraded',
        jobs_worker: 'held',
        problems: ['jobs_worker'],
      });
      await setJobsHeld(ctx.app.db, false, null);
      await ctx.app.jobs.runDue();
      expect((await ctx.app.inject('/api/health/')).json()).toMatchObject({
        status: 'ok',
        jobs_worker: 'running',
      });
      await ctx.app.jobs.stop();
      expect((await ctx.app.inject('/api/health/')).json()).toMatchObject({
        status: 'degraded',
        jobs_worker: 'stopped',
      });
    } finally {
      await ctx.close();
    }
  });
});
