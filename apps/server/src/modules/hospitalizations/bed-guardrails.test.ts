import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, admit, call, createPatient, journeyHospital } from '../../../test/journey.js';

/**
 * Issue 37, "Beds with guardrails": one click placed a 41-year-old woman in Pédiatrie, in the room of a 4-year-old
 * boy. The server decides the guardrails (the ward's sex and ages, the stay's department, one sex per room), the
 * bed board asks it before every placement, a placement that breaks one is refused unless a charge nurse gives a
 * reason, which is kept with the placement and audited.
 */
let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let desk: Actor;
let doctor: Actor;
let nurse: Actor;
let charge: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR', 'MED');
  nurse = await h.as('NURSE', 'MED');
  charge = await h.as('NURSE', 'MED');
  await ctx.database.db.execute(
    sql`update memberships set role_code = 'CHARGE_NURSE' where user_id = ${charge.id}`,
  );
}, 90_000);
afterAll(() => ctx.close());

let serial = 0;
/** A ward of `department` with rules, and one room of two beds. */
async function room(department: string, rules: Record<string, unknown> = {}) {
  serial += 1;
  const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep(department).id,
    name: `Pédiatrie ${serial}`,
    code: `PG-${serial}`,
    ...rules,
  });
  expect(ward.statusCode, ward.body).toBe(201);
  const made = await call(ctx.app, admin, 'POST', `/api/wards/${ward.json().id}/rooms/`, {
    name: `P${serial}`,
    beds: ['1', '2'],
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().room_list[0].beds.map((b: { id: string }) => b.id) as [string, string];
}

/** A stay of a new patient in department MED, waiting for a bed. */
async function stay(patient: Record<string, unknown>) {
  const p = await createPatient(ctx.app, desk, patient);
  const visit = await admit(ctx.app, desk, p.id, h.dep('MED').id, 'outpatient');
  const res = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: visit.id,
    department: h.dep('MED').id,
    reason: 'Paludisme grave',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-02`;

describe('beds with guardrails (issue 37)', () => {
  it('refuses a 41-year-old woman in a paediatric room beside a boy, unless a charge nurse gives a reason', async () => {
    const [boyBed, otherBed] = await room('MED', { min_age: 0, max_age: 15 });
    const boy = await stay({ sex: 'M', birth_date: yearsAgo(4) });
    const placedBoy = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${boy}/bed/`, {
      bed: boyBed,
    });
    expect(placedBoy.statusCode, placedBoy.body).toBe(201);

    const woman = await stay({ sex: 'F', birth_date: yearsAgo(41) });
    // The bed board asks first: the server's answer, in the caller's language.
    const check = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/hospitalizations/${woman}/bed-check/?bed=${otherBed}`,
    );
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().guardrails.map((g: { code: string }) => g.code)).toEqual([
      'ward_age',
      'room_mixed_sex',
    ]);
    expect(check.json().guardrails[0].message).toMatch(/de 0 à 15 ans ; ce patient a 4[01] ans/);
    expect(check.json().may_override).toBe(false);
    expect(
      (await call(ctx.app, charge, 'GET', `/api/hospitalizations/${woman}/bed-check/?bed=${otherBed}`)).json()
        .may_override,
    ).toBe(true);

    // One click is not enough any more.
    const refused = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${woman}/bed/`, {
      bed: otherBed,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().guardrails.map((g: { code: string }) => g.code)).toEqual([
      'ward_age',
      'room_mixed_sex',
    ]);
    // A nurse may not override; a charge nurse may, with a reason.
    const reason = 'Mère accompagnante, aucun lit adulte libre cette nuit';
    const nurseOverride = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${woman}/bed/`, {
      bed: otherBed,
      override_reason: reason,
    });
    expect(nurseOverride.statusCode).toBe(403);
    const tooShort = await call(ctx.app, charge, 'POST', `/api/hospitalizations/${woman}/bed/`, {
      bed: otherBed,
      override_reason: 'ok',
    });
    expect(tooShort.statusCode).toBe(400);
    const overridden = await call(ctx.app, charge, 'POST', `/api/hospitalizations/${woman}/bed/`, {
      bed: otherBed,
      override_reason: reason,
    });
    expect(overridden.statusCode, overridden.body).toBe(201);

    const kept = await ctx.database.db.execute<{ overridden: string[] | string; override_reason: string }>(
      sql`select array_to_json(overridden) as overridden, override_reason from bed_assignments
        where hospitalization_id = ${woman} and ended_at is null`,
    );
    const row = kept.rows[0]!;
    const codes = typeof row.overridden === 'string' ? JSON.parse(row.overridden) : row.overridden;
    expect(codes).toEqual(['ward_age', 'room_mixed_sex']);
    expect(row.override_reason).toBe(reason);
    const audit = await ctx.database.db.execute<{
      details: Record<string, unknown> | string;
      actor_id: string;
    }>(
      sql`select details, user_id as actor_id from audit_events where resource_id = ${woman} and action = 'hospitalization.bed_assign'`,
    );
    const details = audit.rows[0]!.details;
    expect(typeof details === 'string' ? JSON.parse(details) : details).toMatchObject({
      overridden: ['ward_age', 'room_mixed_sex'],
      override_reason: reason,
    });
    expect(audit.rows[0]!.actor_id).toBe(charge.id);
  });

  it("refuses a bed of another department than the stay's, and a women's ward for a man", async () => {
    const [urgBed] = await room('URG');
    const man = await stay({ sex: 'M', birth_date: yearsAgo(50) });
    const check = await call(ctx.app, nurse, 'GET', `/api/hospitalizations/${man}/bed-check/?bed=${urgBed}`);
    expect(check.json().guardrails.map((g: { code: string }) => g.code)).toEqual(['ward_department']);
    expect(
      (await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${man}/bed/`, { bed: urgBed })).statusCode,
    ).toBe(409);

    const [womenBed] = await room('MED', { sex_restriction: 'F' });
    const refused = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${man}/bed/`, {
      bed: womenBed,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().guardrails).toEqual([
      { code: 'ward_sex', message: expect.stringMatching(/n'accueille que des femmes/) },
    ]);
  });

  it('places at once when nothing is broken (the check answers no guardrail)', async () => {
    const [bed] = await room('MED', { min_age: 16 });
    const woman = await stay({ sex: 'F', birth_date: yearsAgo(41) });
    const check = await call(ctx.app, nurse, 'GET', `/api/hospitalizations/${woman}/bed-check/?bed=${bed}`);
    expect(check.json()).toEqual({ bed, guardrails: [], may_override: false });
    const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${woman}/bed/`, { bed });
    expect(placed.statusCode, placed.body).toBe(201);
  });
});
