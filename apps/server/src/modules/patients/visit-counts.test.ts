// The visits' count of a record (issue 38, migration 0051): kept by the database as visits are added, removed and
// moved to another patient, so that the record reads one row instead of counting the history.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, call, createPatient, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let secretary: Actor;
let doctor: Actor;
let hospitalId: string;
let departmentId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: 'HGG' });
  hospitalId = h.hospital.id;
  departmentId = h.dep('URG').id;
  secretary = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR');
});
afterAll(() => ctx.close());

/** `count` past visits of a patient, one a day, with queue numbers no real day reaches (from `first`). */
const addVisits = (patientId: string, count: number, first: number) =>
  ctx.database.db.execute(sql`insert into admissions (id, hospital_id, patient_id, department_id,
      admission_type, reason, status, queue_date, queue_number, admitted_at, closed_at)
    select gen_random_uuid(), ${hospitalId}, ${patientId}, ${departmentId}, 'outpatient', 'Visite ' || k,
      'completed', (now() - k * interval '1 day')::date, ${first} + k, now() - k * interval '1 day',
      now() - k * interval '1 day' + interval '1 hour'
    from generate_series(1, ${count}::int) k`);

const recordCount = async (patientId: string) =>
  (await call(ctx.app, doctor, 'GET', `/api/patients/${patientId}/`)).json().admissions_count as number;

/** The row the record reads (no row: no visit). */
const storedCount = async (patientId: string) => {
  const res = await ctx.database.db.execute<{ n: number }>(
    sql`select visits as n from patient_visit_counts where patient_id = ${patientId}`,
  );
  return res.rows[0] === undefined ? 0 : Number(res.rows[0].n);
};

describe("a record's count of visits", () => {
  it('follows visits added, removed and moved to another patient', async () => {
    const a = await createPatient(ctx.app, secretary);
    const b = await createPatient(ctx.app, secretary);
    expect(await storedCount(a.id)).toBe(0);
    await addVisits(a.id, 12, 91000);
    await addVisits(b.id, 5, 92000);
    // Beyond the page of 5 visits, the record's count is the stored one.
    expect(await recordCount(a.id)).toBe(12);
    expect(await recordCount(b.id)).toBe(5);
    await ctx.database.db.execute(
      sql`delete from admissions where patient_id = ${a.id} and queue_number in (91001, 91002)`,
    );
    expect(await recordCount(a.id)).toBe(10);
    // Three of a's visits become b's (a merge of duplicates).
    await ctx.database.db.execute(
      sql`update admissions set patient_id = ${b.id} where patient_id = ${a.id} and queue_number in (91003, 91004, 91005)`,
    );
    expect(await recordCount(a.id)).toBe(7);
    expect(await recordCount(b.id)).toBe(8);
    // A change that does not move a visit leaves the counts alone.
    await ctx.database.db.execute(sql`update admissions set reason = 'Revue' where patient_id = ${b.id}`);
    expect(await storedCount(b.id)).toBe(8);
    // The stored counts agree with the visits themselves.
    const res = await ctx.database.db.execute<{ patient_id: string; n: number }>(
      sql`select patient_id, count(*)::int as n from admissions where patient_id in (${a.id}, ${b.id})
        group by patient_id`,
    );
    for (const r of res.rows) expect(await storedCount(r.patient_id)).toBe(Number(r.n));
  });
});
