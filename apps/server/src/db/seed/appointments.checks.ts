import type { TAppointment, TSlot } from '@greensen/shared/contracts/appointments';
import { addDays, zonedDate } from '@greensen/shared/domain/care';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('shows appointments in use: medecin@’s day, past and coming bookings, clinics with free slots, a holiday, an absence', async () => {
  const doctor = await actor('medecin@greensen.test');
  const today = await get(doctor, '/api/appointments/today/');
  // Around now whatever the hour: the three to come are on today's date (the two seen and the no-show too, unless
  // the demo is made in the first two hours of the day: they are then late yesterday).
  expect(today.results.length).toBeGreaterThanOrEqual(3);
  const toCome = (today.results as TAppointment[]).filter(
    (a) => a.status === 'booked' || a.status === 'confirmed',
  );
  expect(toCome).toHaveLength(3);

  // The desk can check the next one in (its patient has no visit open): it lands in medecin@'s queue.
  const desk = await actor('secretaire@greensen.test');
  const checkIn = await ctx.app.inject({
    method: 'POST',
    url: `/api/appointments/${toCome[0]!.id}/check-in/`,
    headers: desk.headers,
    payload: {},
  });
  expect(checkIn.statusCode, checkIn.body).toBe(200);
  expect(checkIn.json().admission.status).toBe('assigned');

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

  // An absence of medecin2@ three weeks ahead: no slot of hers on those days, slots the days around.
  const absences = await get(desk, `/api/appointments/exceptions/?from=${addDays(from, 14)}`);
  expect(absences.count).toBe(1);
  const absence = absences.results[0] as { provider: { id: string }; start_date: string; end_date: string };
  const around = await get(
    desk,
    `/api/appointments/slots/?provider=${absence.provider.id}&from=${addDays(absence.start_date, -7)}&to=${addDays(absence.end_date, 7)}&limit=500`,
  );
  const days = new Set(
    (around.results as TSlot[]).map((s) => zonedDate(new Date(s.start), 'Africa/Kinshasa')),
  );
  expect(days.size).toBeGreaterThan(0);
  for (let d = absence.start_date; d <= absence.end_date; d = addDays(d, 1)) expect(days.has(d)).toBe(false);
});
