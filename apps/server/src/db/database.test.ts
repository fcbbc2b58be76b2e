import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { TEST_DB_KIND } from '../../test/database.js';
import { verifySecret } from '../lib/passwords.js';
import { auditEvents, memberships, users } from './schema/index.js';
import { DEMO_ACCOUNTS, DEMO_HOSPITALS, DEMO_PASSWORD, databaseIsEmpty } from './seed/demo.js';
import { SeedRefused, seedDemoIfAllowed } from './seed/run.js';

describe(`database on ${TEST_DB_KIND} PostgreSQL`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('applies every migration with pg_trgm and unaccent available', async () => {
    const ext = await ctx.app.db.execute<{ extname: string }>(
      sql`select extname from pg_extension where extname in ('pg_trgm', 'unaccent') order by extname`,
    );
    expect(ext.rows.map((r) => r.extname)).toEqual(['pg_trgm', 'unaccent']);
    const r = await ctx.app.db.execute<{ a: string; s: number }>(
      sql`select f_unaccent('Éloïse Mbuyi') as a, similarity('mbuyi', 'mbouyi') as s`,
    );
    expect(r.rows[0]!.a).toBe('Eloise Mbuyi');
    expect(Number(r.rows[0]!.s)).toBeGreaterThan(0.3);
    // applying again is a no-op
    await ctx.database.migrate();
  });

  it('returns dates, timestamps, intervals and their arrays as the text PostgreSQL sends, in and out of transactions', async () => {
    // Both engines must give the modules the same values: drizzle keeps these types as text on node-postgres
    // and PGlite alike (on PGlite the parsers are set once on the client, db/client.ts).
    const query = sql`select '2026-11-23'::date as d, '2026-11-23 10:00:00'::timestamp as ts,
      '2026-11-23 10:00:00+00'::timestamptz as tstz, '1 day'::interval as iv,
      array['2026-11-23'::date] as ds, array['2026-11-23 10:00:00'::timestamp] as tss, 42::int as n,
      array['a', 'b'] as texts, '{"a": 1}'::json as j`;
    const outside = (await ctx.app.db.execute(query)).rows[0]!;
    const inside = (await ctx.app.db.transaction((tx) => tx.execute(query))).rows[0]!;
    for (const row of [outside, inside]) {
      expect(row.d).toBe('2026-11-23');
      expect(row.ts).toBe('2026-11-23 10:00:00');
      expect(typeof row.tstz).toBe('string');
      expect(new Date(String(row.tstz)).toISOString()).toBe('2026-11-23T10:00:00.000Z');
      expect(row.iv).toBe('1 day');
      expect(row.ds).toBe('{2026-11-23}');
      expect(row.tss).toBe('{"2026-11-23 10:00:00"}');
      expect(row.n).toBe(42);
      expect(row.texts).toEqual(['a', 'b']);
      expect(row.j).toEqual({ a: 1 });
    }
  });

  it('keeps the audit trail append-only: UPDATE and DELETE are refused by the database', async () => {
    await ctx.app.db.insert(auditEvents).values({ action: 'test.event' });
    await expect(ctx.app.db.execute(sql`update audit_events set action = 'tampered'`)).rejects.toThrow();
    await expect(ctx.app.db.execute(sql`delete from audit_events`)).rejects.toThrow();
    const rows = await ctx.app.db.select().from(auditEvents);
    expect(rows.map((r) => r.action)).toContain('test.event');
    expect(rows.map((r) => r.action)).not.toContain('tampered');
  });

  it('seeds the demo once on an empty database, with every account able to sign in', async () => {
    expect(await databaseIsEmpty(ctx.app.db)).toBe(true);
    const summary = await seedDemoIfAllowed(ctx.database, ctx.config);
    expect(summary?.hospitals).toBe(2);
    expect(summary?.departments).toBe(20);
    const emails = (await ctx.app.db.select({ email: users.email }).from(users)).map((u) => u.email).sort();
    expect(emails).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    const [one] = await ctx.app.db.select().from(users).where(sql`email = 'medecin@greensen.test'`);
    expect(await verifySecret(one!.passwordHash, DEMO_PASSWORD)).toBe(true);
    expect(one!.emailVerifiedAt).not.toBeNull();
    const ms = await ctx.app.db.select().from(memberships).where(sql`user_id = ${one!.id}`);
    expect(ms).toHaveLength(2);
    expect(DEMO_HOSPITALS.map((h) => h.code)).toEqual(['HGG', 'CDF']);
    // a second run leaves the data alone
    expect(await seedDemoIfAllowed(ctx.database, ctx.config)).toBeNull();
    expect(await ctx.app.db.select({ id: users.id }).from(users)).toHaveLength(DEMO_ACCOUNTS.length);
  });

  it('never seeds in production mode', async () => {
    await expect(
      seedDemoIfAllowed(ctx.database, { ...ctx.config, appEnv: 'production' }),
    ).rejects.toBeInstanceOf(SeedRefused);
  });
});
