import type { sql } from 'drizzle-orm';
import { hospitalToday } from '../src/lib/queries.js';
import { createTestApp, type TestContext } from './app.js';
import { completedConsultation, insertTestIcd10, startedConsultation } from './consultations.js';
import { type Actor, journeyHospital } from './journey.js';

export type ReportingHospital = Awaited<ReturnType<typeof journeyHospital>>;

/**
 * The reporting tests' world (stats.test.ts, dhis2.test.ts): an app with the test ICD-10 codes, the hospital
 * whose figures are read and another one, the hospital's date today, and a count made directly in the database.
 */
export async function reportingWorld() {
  const ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  const h = await journeyHospital(ctx);
  const other = await journeyHospital(ctx);
  const today = await hospitalToday(ctx.database.db, h.hospital.id);
  const count = async (query: ReturnType<typeof sql>): Promise<number> => {
    const res = await ctx.database.db.execute<{ n: number }>(query);
    return Number(res.rows[0]?.n ?? 0);
  };
  return { ctx, h, other, today, count };
}

/**
 * Confirmed malaria cases seen today in `h`'s emergency department, one new patient born on each of `births`,
 * each consultation completed by `actors.doctor` (its primary diagnosis the test codes' malaria): their ids.
 */
export async function confirmedMalariaCases(
  ctx: TestContext,
  h: ReportingHospital,
  actors: { desk: Actor; assigner: Actor; doctor: Actor },
  births: string[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const birth of births) {
    const c = await startedConsultation(ctx.app, actors, h.dep('URG').id, 'emergency', { birth_date: birth });
    await completedConsultation(ctx.app, actors.doctor, c.id);
    ids.push(c.id);
  }
  return ids;
}

/** A case of the other hospital, seen by its own staff: no figure of the first hospital may count it. */
export async function foreignCase(ctx: TestContext, other: ReportingHospital): Promise<string> {
  const doctor = await other.as('DOCTOR');
  const actors = { desk: await other.as('SECRETARY'), assigner: await other.as('QUEUE_MANAGER'), doctor };
  return (await confirmedMalariaCases(ctx, other, actors, ['1985-03-04']))[0]!;
}
