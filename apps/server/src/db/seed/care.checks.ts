import type { TCarePatient, TMar, TTask } from '@greensen/shared/contracts/care';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('gives the emergency nurse a shift of care: late tasks, doses given and refused, a NEWS2 alert, handoffs to acknowledge', async () => {
  const nurse = await actor('infirmier@greensen.test');
  const me = await get(nurse, '/api/profile/');
  const tasks = await get(nurse, `/api/nurses/${me.id}/tasks/?page_size=100`);
  expect(tasks.results.length).toBeGreaterThan(3);
  expect(tasks.results.some((t: TTask) => t.type === 'execution' && t.late)).toBe(true);
  expect(tasks.results.some((t: TTask) => t.type === 'dose' && t.dose.status === 'overdue')).toBe(true);

  const patients = await get(nurse, '/api/care/patients/?page_size=100');
  const planned = patients.results.filter((p: TCarePatient) => p.plan);
  expect(planned.length).toBeGreaterThanOrEqual(2);
  expect(planned.some((p: TCarePatient) => (p.news2?.score ?? 0) >= 5)).toBe(true);

  const marOf = await Promise.all(
    planned.map((p: TCarePatient) =>
      get(
        nurse,
        `/api/care/plans/${p.plan}/mar/?from=${encodeURIComponent(new Date(Date.now() - 24 * 3_600_000).toISOString())}`,
      ),
    ),
  );
  const outcomes = (marOf as TMar[]).flatMap((m) => m.lines.flatMap((l) => l.doses.map((d) => d.status)));
  expect(outcomes).toEqual(expect.arrayContaining(['given', 'not_given', 'overdue']));

  const handoffs = await get(nurse, '/api/care/handoffs/?box=to_acknowledge');
  expect(handoffs.count).toBeGreaterThanOrEqual(2);
  const charge = await actor('cadre@greensen.test');
  expect((await get(charge, '/api/care/handoffs/?box=unacknowledged')).count).toBeGreaterThanOrEqual(2);
});
