import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { seedDemo } from './demo.js';
import { seedScale } from './scale.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await seedDemo(ctx.database.db);
});
afterAll(() => ctx.close());

it('seeds admissions in every state, triage on both scales and executions for the demo doctors', async () => {
  const db = ctx.database.db;
  const states = await db.execute<{ status: string }>(sql`select distinct status::text from admissions`);
  expect(states.rows.map((r) => r.status)).toEqual(
    expect.arrayContaining(['waiting', 'assigned', 'in_consultation', 'completed', 'cancelled']),
  );
  const scales = await db.execute<{ scale: string }>(sql`select distinct scale::text from triage_records`);
  expect(scales.rows.map((r) => r.scale).sort()).toEqual(['FRENCH', 'SATS']);
  const doctors = await db.execute<{ email: string }>(
    sql`select distinct u.email from executions e join users u on u.id = e.doctor_id`,
  );
  expect(doctors.rows.map((r) => r.email)).toEqual(
    expect.arrayContaining(['medecin@greensen.test', 'medecin2@greensen.test']),
  );
});

it('bulk-loads synthetic patients with continuing record numbers', async () => {
  const res = await seedScale(ctx.database.db, 1200, () => {}, 500);
  expect(res).toEqual({ hospital: 'HGG', inserted: 1200 });
  const rows = await ctx.database.db.execute<{ n: number; max: string }>(
    sql`select count(*)::int as n, max(record_number) as max from patients p join hospitals h on h.id = p.hospital_id where h.code = 'HGG'`,
  );
  const n = Number(rows.rows[0]!.n);
  expect(rows.rows[0]!.max).toBe(`HGG-${String(n).padStart(6, '0')}`);
});
