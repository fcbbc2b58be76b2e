import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { departments } from '../src/db/schema/index.js';
import type { TestContext } from './app.js';
import { authHeaders, makeUser, tokenFor } from './factories.js';
import { type Actor, admit, call, createPatient } from './journey.js';

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

/** The cashier's open cash session, opened (with `floats`) when she has none. */
export async function openCashSession(
  ctx: TestContext,
  actor: Actor,
  floats: { currency: string; amount: number }[] = [],
): Promise<string> {
  const current = await call(ctx.app, actor, 'GET', '/api/cash-sessions/current/');
  if (current.statusCode === 200) return current.json().id as string;
  const res = await call(ctx.app, actor, 'POST', '/api/cash-sessions/', { floats });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** The bed-day act (`LIT-JOUR`, 15 000 a day for private payers), made by a billing manager of the hospital. */
export async function bedDayAct(ctx: TestContext, manager: Actor): Promise<string> {
  const act = await call(ctx.app, manager, 'POST', '/api/medical-acts/', {
    code: 'LIT-JOUR',
    label_fr: "Journée d'hospitalisation",
    label_en: 'Bed-day',
    category: 'bed_day',
    auto_source: 'bed_day',
    tariffs: [{ payer_category: 'private', price: 15_000, valid_from: '2020-01-01' }],
  });
  expect(act.statusCode, act.body).toBe(201);
  return act.json().id as string;
}

/**
 * A new patient's stay in `department`, registered by `desk`, hospitalised by `doctor` and back-dated to have
 * started `days` days ago (so many bed-days to bill).
 */
export async function stayOfDays(
  ctx: TestContext,
  actors: { desk: Actor; doctor: Actor },
  department: string,
  days: number,
): Promise<{ id: string; patient: string }> {
  const patient = await createPatient(ctx.app, actors.desk);
  const admission = await admit(ctx.app, actors.desk, patient.id, department);
  const res = await call(ctx.app, actors.doctor, 'POST', '/api/hospitalizations/', {
    admission: admission.id,
    department,
    reason: 'Paludisme grave',
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  await ctx.database.db.execute(
    sql`update hospitalizations set admitted_at = now() - make_interval(days => ${days}) where id = ${id}`,
  );
  return { id, patient: patient.id };
}
