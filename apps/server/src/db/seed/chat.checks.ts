import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('shows messaging in use: unread messages for medecin@, infirmier@ and secretaire@, a patient card for the clinicians only', async () => {
  const doctor = await actor('medecin@greensen.test');
  const nurse = await actor('infirmier@greensen.test');
  const desk = await actor('secretaire@greensen.test');
  for (const who of [doctor, nurse, desk]) {
    expect((await get(who, '/api/chat/unread/')).unread_total).toBeGreaterThan(0);
  }
  const list = await get(doctor, '/api/chat/conversations/');
  const kinds = list.results.map((c: { kind: string }) => c.kind);
  expect(kinds).toEqual(expect.arrayContaining(['direct', 'group', 'department']));
  const group = list.results.find((c: { title: string }) => c.title === 'Coordination accueil');
  const forDoctor = await get(doctor, `/api/chat/conversations/${group.id}/messages/`);
  const forDesk = await get(desk, `/api/chat/conversations/${group.id}/messages/`);
  const card = (page: { results: { patient: unknown }[] }) => page.results.find((m) => m.patient)?.patient;
  expect(card(forDoctor)).toMatchObject({ restricted: false, record_number: expect.any(String) });
  expect(card(forDesk)).toEqual({ restricted: true });
});
