import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, tokenFor } from '../../../test/factories.js';
import { seedDemo } from './demo.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await seedDemo(ctx.database.db);
});
afterAll(() => ctx.close());

async function actor(email: string) {
  const res = await ctx.database.db.execute<{ id: string; token_version: number; hospital_id: string }>(
    sql`select u.id, u.token_version, m.hospital_id from users u join memberships m on m.user_id = u.id
      join hospitals h on h.id = m.hospital_id where u.email = ${email} and h.code = 'HGG'`,
  );
  const u = res.rows[0]!;
  const token = await tokenFor(ctx.config.jwtSecret, { id: u.id, tokenVersion: Number(u.token_version) });
  return { id: u.id, headers: authHeaders(token, u.hospital_id) };
}

it('seeds exam orders in every status, the laboratory accounts, and alerts for the demo doctors', async () => {
  const statuses = await ctx.database.db.execute<{ status: string }>(
    sql`select distinct status::text as status from exam_orders`,
  );
  expect(statuses.rows.map((r) => r.status).sort()).toEqual([
    'cancelled',
    'completed',
    'in_progress',
    'requested',
    'validated',
  ]);
  const tech = await actor('labo@greensen.test');
  const worklist = await ctx.app.inject({
    method: 'GET',
    url: '/api/exams/?status=requested,in_progress',
    headers: tech.headers,
  });
  expect(worklist.statusCode).toBe(200);
  const rows = worklist.json().results as {
    urgency: string;
    department: { kind: string };
    actions: string[];
  }[];
  expect(rows[0]!.urgency).toBe('urgent');
  // The technician can work on the laboratory's orders.
  expect(rows.filter((r) => r.department.kind === 'laboratory').every((r) => r.actions.length > 0)).toBe(
    true,
  );

  const bio = await actor('biologiste@greensen.test');
  const toValidate = await ctx.app.inject({
    method: 'GET',
    url: '/api/exams/?status=completed',
    headers: bio.headers,
  });
  expect(
    (toValidate.json().results as { actions: string[]; department: { kind: string } }[]).some(
      (r) => r.department.kind === 'laboratory' && r.actions.includes('validate'),
    ),
  ).toBe(true);

  for (const email of ['medecin@greensen.test', 'medecin2@greensen.test']) {
    const doctor = await actor(email);
    const alerts = await ctx.app.inject({
      method: 'GET',
      url: '/api/exams/alerts/',
      headers: doctor.headers,
    });
    expect(alerts.json().count, email).toBeGreaterThan(0);
  }
  // Order numbers follow the hospital's sequence.
  const numbers = await ctx.database.db.execute<{ order_number: string }>(
    sql`select order_number from exam_orders order by order_number`,
  );
  expect(numbers.rows[0]!.order_number).toBe('HGG-EX-000001');
});
