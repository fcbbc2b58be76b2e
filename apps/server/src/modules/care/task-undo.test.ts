import type { TCareExecution } from '@greensen/shared/contracts/care';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, admit, call, createPatient, journeyHospital } from '../../../test/journey.js';

/**
 * Issue 37, "A vitals task is done when vitals are recorded": "Surveillance des constantes" closed in one click
 * without a value. A vitals task is done by recording its vitals; every task may be taken back for a minute by
 * whoever recorded it (audited).
 */
let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let desk: Actor;
let doctor: Actor;
let nurse: Actor;
let nurse2: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx);
  desk = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
  nurse2 = await h.as('NURSE', 'URG');
}, 90_000);
afterAll(() => ctx.close());

/** An emergency visit's care plan with one task of `kind`, due now. */
async function taskOf(kind: 'vitals' | 'dressing') {
  const patient = await createPatient(ctx.app, desk);
  const visit = await admit(ctx.app, desk, patient.id, h.dep('URG').id);
  const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { admission: visit.id });
  expect(plan.statusCode, plan.body).toBe(201);
  const order = await call(ctx.app, doctor, 'POST', `/api/care/plans/${plan.json().id}/orders/`, {
    kind,
    title: kind === 'vitals' ? 'Surveillance des constantes' : 'Pansement',
    ...(kind === 'vitals' ? { signs: ['temperature', 'heart_rate'] } : {}),
    schedule: { kind: 'once' },
  });
  expect(order.statusCode, order.body).toBe(201);
  const list = await call(ctx.app, nurse, 'GET', `/api/care/plans/${plan.json().id}/executions/?status=open`);
  const execution = (list.json().results as TCareExecution[])[0]!;
  return { plan: plan.json().id as string, execution: execution.id };
}

describe('a vitals task is done by recording vitals (issue 37)', () => {
  it('refuses "done" without values, and is done by the set that answers it', async () => {
    const t = await taskOf('vitals');
    const click = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/record/`, {
      outcome: 'done',
    });
    expect(click.statusCode).toBe(400);
    expect(click.json().outcome).toEqual([
      'Une surveillance des constantes se valide en saisissant les constantes.',
    ]);
    // "Not done" with a reason stays possible (the patient refused, was away…).
    const set = await call(ctx.app, nurse, 'POST', `/api/care/plans/${t.plan}/vitals/`, {
      vitals: { temperature: 37.2, heart_rate: 80, on_oxygen: false },
      execution: t.execution,
    });
    expect(set.statusCode, set.body).toBe(201);
    const list = await call(ctx.app, nurse, 'GET', `/api/care/plans/${t.plan}/executions/?status=all`);
    expect((list.json().results as TCareExecution[]).find((e) => e.id === t.execution)).toMatchObject({
      status: 'done',
      done_by: { id: nurse.id },
    });
  });
});

describe('every task may be taken back for a minute (issue 37)', () => {
  it('by whoever recorded it: the task is to do again, and the undo is audited', async () => {
    const t = await taskOf('dressing');
    const done = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/record/`, {
      outcome: 'done',
    });
    expect(done.statusCode, done.body).toBe(200);
    const other = await call(ctx.app, nurse2, 'POST', `/api/care/executions/${t.execution}/undo/`);
    expect(other.statusCode).toBe(409);
    const undone = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/undo/`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ status: 'scheduled', done_by: null, done_at: null });
    const audit = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'care.execution_undo'
        and resource_id = ${t.execution} and user_id = ${nurse.id}`,
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
    // Twice is nothing to take back.
    expect((await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/undo/`)).statusCode).toBe(
      409,
    );
    // A "not done" is taken back the same way.
    const notDone = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/record/`, {
      outcome: 'not_done',
      reason: 'patient_refused',
    });
    expect(notDone.statusCode, notDone.body).toBe(200);
    const back = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/undo/`);
    expect(back.json()).toMatchObject({ status: 'scheduled', not_done_reason: null });
  });

  it('not after a minute', async () => {
    const t = await taskOf('dressing');
    await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/record/`, { outcome: 'done' });
    await ctx.database.db.execute(
      sql`update care_executions set recorded_at = recorded_at - interval '61 seconds' where id = ${t.execution}`,
    );
    const late = await call(ctx.app, nurse, 'POST', `/api/care/executions/${t.execution}/undo/`);
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toMatch(/dans la minute/);
  });
});
