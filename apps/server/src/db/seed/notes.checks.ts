import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);

it("gives medecin@ personal notes (one pinned, first) that nobody else sees, and notes on Didier's record", async () => {
  const doctor = await actor('medecin@greensen.test');
  const mine = await ctx.app.inject({ url: '/api/notes/', headers: doctor.headers });
  const list = mine.json() as { count: number; results: { title: string; pinned: boolean }[] };
  expect(list.count).toBe(3);
  expect(list.results[0]).toMatchObject({ title: 'Garde de ce week-end', pinned: true });
  expect(list.results.filter((n) => n.pinned)).toHaveLength(1);

  const other = await actor('medecin2@greensen.test');
  const theirs = await ctx.app.inject({ url: '/api/notes/', headers: other.headers });
  expect((theirs.json() as { count: number }).count).toBe(0);

  const patients = await ctx.app.inject({
    url: '/api/patients/?search=Didier%20Mwamba',
    headers: doctor.headers,
  });
  const didier = (patients.json() as { results: { id: string }[] }).results[0]!;
  const nurse = await actor('infirmier@greensen.test');
  const notes = await ctx.app.inject({ url: `/api/patients/${didier.id}/notes/`, headers: nurse.headers });
  expect(notes.statusCode).toBe(200);
  expect((notes.json() as { results: { title: string }[] }).results.map((n) => n.title)).toEqual([
    'Contexte social',
    'Voie veineuse',
  ]);
  const secretary = await actor('secretaire@greensen.test');
  const refused = await ctx.app.inject({
    url: `/api/patients/${didier.id}/notes/`,
    headers: secretary.headers,
  });
  expect(refused.statusCode).toBe(403);
});
