import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);

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
