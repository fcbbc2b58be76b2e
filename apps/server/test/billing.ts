import { expect } from 'vitest';
import { departments } from '../src/db/schema/index.js';
import type { TestContext } from './app.js';
import { authHeaders, makeUser, tokenFor } from './factories.js';
import { type Actor, call } from './journey.js';

/** The hospital's billing department "Caisse" (decision 0027): its members are the cash desk. */
export async function billingDepartment(ctx: TestContext, hospitalId: string): Promise<string> {
  const [cai] = await ctx.database.db
    .insert(departments)
    .values({ hospitalId, code: 'CAI', name: 'Caisse', kind: 'billing' })
    .returning({ id: departments.id });
  return cai!.id;
}

/** A user of `role` in the departments given, acting in `hospitalId`. */
export async function memberOf(
  ctx: TestContext,
  hospitalId: string,
  role: string,
  departmentIds: string[],
): Promise<Actor> {
  const user = await makeUser(ctx.database.db, {
    role,
    hospitals: departmentIds.map((d) => ({ id: hospitalId, departmentId: d })),
  });
  return { id: user.id, headers: authHeaders(await tokenFor(ctx.config.jwtSecret, user), hospitalId) };
}

/** The cashier's open cash session, opened when she has none. */
export async function openCashSession(ctx: TestContext, actor: Actor): Promise<string> {
  const current = await call(ctx.app, actor, 'GET', '/api/cash-sessions/current/');
  if (current.statusCode === 200) return current.json().id as string;
  const res = await call(ctx.app, actor, 'POST', '/api/cash-sessions/', { floats: [] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
