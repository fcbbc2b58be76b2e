import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { authHeaders, tokenFor } from '../../../test/factories.js';

async function demoActor(email: string, hospitalCode: string) {
  const res = await ctx.database.db.execute<{ id: string; token_version: number; hospital_id: string }>(
    sql`select u.id, u.token_version, h.id as hospital_id from users u, hospitals h
      where u.email = ${email} and h.code = ${hospitalCode}`,
  );
  const row = res.rows[0]!;
  const token = await tokenFor(ctx.config.jwtSecret, { id: row.id, tokenVersion: Number(row.token_version) });
  return authHeaders(token, row.hospital_id);
}

it('gives the demo consultations their sections, coded diagnoses, outcome and addendum', async () => {
  const headers = await demoActor('medecin@greensen.test', 'HGG');
  const list = await ctx.app.inject({ method: 'GET', url: '/api/consultations/?scope=mine', headers });
  expect(list.statusCode, list.body).toBe(200);
  const rows = list.json().results as { id: string; status: string; patient: { full_name: string } }[];
  const byName = (name: string) => rows.find((r) => r.patient.full_name === name)!;
  expect(byName('Gloire Kalala')).toMatchObject({
    status: 'in_progress',
    access: 'edit',
    primary_diagnosis: { icd_code: 'B54', certainty: 'suspected', coded: true },
  });
  // Every seeded record passes the response contract (sections, vitals, diagnoses, addenda).
  for (const row of rows) {
    const detail = await ctx.app.inject({ method: 'GET', url: `/api/consultations/${row.id}/`, headers });
    expect(detail.statusCode, detail.body).toBe(200);
  }
  const done = await ctx.app.inject({
    method: 'GET',
    url: `/api/consultations/${byName('Françoise Mwamba').id}/`,
    headers,
  });
  expect(done.json()).toMatchObject({
    status: 'completed',
    outcome: 'discharge',
    may_add_addendum: true,
    diagnoses: [{ icd_code: 'S93.4', label: 'Entorse et foulure de la cheville', rank: 'primary' }],
  });
  expect(done.json().examination).toContain('Ottawa');
  expect(done.json().addenda).toHaveLength(1);
  const chef = await demoActor('chef@greensen.test', 'HGG');
  const all = await ctx.app.inject({
    method: 'GET',
    url: '/api/consultations/?diagnosis=I10',
    headers: chef,
  });
  expect(all.json().results.map((r: { patient: { full_name: string } }) => r.patient.full_name)).toEqual([
    'Rémy Ilunga Banza',
  ]);
});
