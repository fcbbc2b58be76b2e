import type { TAppointment, TSlot } from '@greensen/shared/contracts/appointments';
import { addDays, zonedDate } from '@greensen/shared/domain/care';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { demoActor } from '../../../test/factories.js';
import { seedDemo } from './demo.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
  await seedDemo(ctx.database.db);
}, 120_000);
afterAll(() => ctx.close());

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('shows appointments in use: medecin@’s day, past and coming bookings, clinics with free slots, a holiday', async () => {
  const doctor = await actor('medecin@greensen.test');
  const today = await get(doctor, '/api/appointments/today/');
  // Around now whatever the hour: at least the ones seen and the ones to come of today (some may fall tomorrow).
  expect(today.results.length).toBeGreaterThanOrEqual(2);

  const desk = await actor('secretaire@greensen.test');
  const from = addDays(zonedDate(new Date(), 'Africa/Kinshasa'), -14);
  const to = addDays(zonedDate(new Date(), 'Africa/Kinshasa'), 14);
  const list = await get(desk, `/api/appointments/?from=${from}&to=${to}&page_size=100`);
  const statuses = new Set((list.results as TAppointment[]).map((a) => a.status));
  for (const s of ['completed', 'no_show', 'booked', 'confirmed']) expect(statuses).toContain(s);
  expect((list.results as TAppointment[]).some((a) => a.appointment_type === 'antenatal')).toBe(true);

  const providers = await get(desk, '/api/appointments/providers/');
  expect(providers.results.length).toBeGreaterThanOrEqual(3);
  const midwife = (await get(desk, '/api/appointments/schedules/?page_size=100')).results.find(
    (s: { types: string[] }) => s.types.includes('antenatal'),
  );
  const slots = await get(
    desk,
    `/api/appointments/slots/?provider=${midwife.provider.id}&from=${addDays(from, 14)}&to=${to}`,
  );
  expect((slots.results as TSlot[]).length).toBeGreaterThan(0);
  expect((await get(desk, '/api/appointments/holidays/')).count).toBe(1);
});
