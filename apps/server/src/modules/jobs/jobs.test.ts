import type { TJob, TJobList } from '@greensen/shared/contracts/jobs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, call, journeyHospital } from '../../../test/journey.js';
import { auditEvents } from '../../db/schema/index.js';

/**
 * Administrators and the background jobs: a job that always fails ends `failed` with its error after its
 * retries, its hospital's administrators see it and retry it; other hospitals' administrators do not.
 */
let ctx: TestContext;
let t = Date.parse('2026-11-24T10:00:00Z');
const clock = () => new Date(t);
let admin: Actor;
let nurse: Actor;
let otherAdmin: Actor;
let hospitalId: string;
let failing = true;

const list = async (actor: Actor, query = '') => {
  const res = await call(ctx.app, actor, 'GET', `/api/admin/jobs/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TJobList;
};

beforeAll(async () => {
  ctx = await createTestApp({ jobsWorker: false }, { deps: { clock } });
  const h = await journeyHospital(ctx);
  hospitalId = h.hospital.id;
  admin = await h.as('ADMIN');
  nurse = await h.as('NURSE');
  otherAdmin = await (await journeyHospital(ctx)).as('ADMIN');
  ctx.app.jobs.define({
    name: 'test.export',
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 10_000, maxMs: 60_000 },
    run: async () => {
      if (failing) throw new Error('upstream refused the report of chef@example.test');
    },
  });
});
afterAll(() => ctx.close());

const told = async (jobIdTold: string) => {
  const rows = await ctx.app.db.execute<{ recipient_id: string; title: string; message: string }>(
    sql`select recipient_id, title, message from notifications
        where data->>'action' = 'job_failed' and data->>'job_id' = ${jobIdTold}`,
  );
  return rows.rows;
};

describe('failing jobs and the administrators', () => {
  let jobId: string;

  it('retries a failing job with backoff, then marks it failed with its error', async () => {
    jobId = (await ctx.app.jobs.enqueue('test.export', {}, { hospitalId })).id;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await ctx.app.jobs.runDue()).toBe(1);
      const [job] = (await list(admin, '?name=test.export')).results;
      expect(job).toMatchObject({ id: jobId, attempts: attempt });
      if (attempt < 3) {
        expect(job!.state).toBe('queued');
        const wait = Date.parse(job!.run_at) - t;
        waits.push(wait);
        // Not before its time.
        t += wait - 1;
        expect(await ctx.app.jobs.runDue()).toBe(0);
        t += 1;
      } else {
        expect(job).toMatchObject({
          state: 'failed',
          last_error: 'upstream refused the report of [address]',
          max_attempts: 3,
          hospital: hospitalId,
        });
        expect(job!.finished_at).not.toBeNull();
      }
    }
    expect(waits).toEqual([10_000, 20_000]);
    expect(await ctx.app.jobs.runDue()).toBe(0);
  });

  it("tells its hospital's administrators, and them only, once it failed for good", async () => {
    const hospitalJob = await told(jobId);
    expect(hospitalJob.map((r) => r.recipient_id)).toEqual([admin.id]);
    expect(hospitalJob[0]!.title).toBe('Tâche de fond en échec : test.export');
    expect(hospitalJob[0]!.message).toContain(
      'Échec après 3 tentative(s) : upstream refused the report of [address]',
    );
  });

  it('lists it for its hospital administrators, by state, with the system-wide jobs', async () => {
    const system = await ctx.app.jobs.enqueue('test.export', {}, { key: 'system-wide', delayMs: 3_600_000 });
    const failed = await list(admin, '?state=failed');
    expect(failed.results.map((j) => j.id)).toEqual([jobId]);
    expect(failed.count).toBe(1);
    const all = await list(admin, '?name=test.export&page_size=1');
    expect(all.count).toBe(2);
    expect(all.next).toContain('page=2');
    // The other hospital's administrator sees the system-wide job, not this hospital's.
    const other = await list(otherAdmin, '?name=test.export');
    expect(other.results.map((j) => j.id)).toEqual([system.id]);
    const bad = await call(ctx.app, admin, 'GET', '/api/admin/jobs/?state=lost');
    expect(bad.statusCode).toBe(400);
  });

  it('refuses the list and the retry to other roles, and hides it from other hospitals', async () => {
    expect((await call(ctx.app, nurse, 'GET', '/api/admin/jobs/')).statusCode).toBe(403);
    expect((await call(ctx.app, nurse, 'POST', `/api/admin/jobs/${jobId}/retry/`)).statusCode).toBe(403);
    const other = await call(ctx.app, otherAdmin, 'POST', `/api/admin/jobs/${jobId}/retry/`);
    expect(other.statusCode).toBe(404);
    const [row] = (await list(admin, '?state=failed')).results;
    expect(row?.id).toBe(jobId);
  });

  it('lets an administrator retry it, once, and audits the retry', async () => {
    const res = await call(ctx.app, admin, 'POST', `/api/admin/jobs/${jobId}/retry/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: jobId, state: 'queued', attempts: 0 } satisfies Partial<TJob>);
    const again = await call(ctx.app, admin, 'POST', `/api/admin/jobs/${jobId}/retry/`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'Seule une tâche en échec peut être relancée.' });

    failing = false;
    expect(await ctx.app.jobs.runDue()).toBe(1);
    const [job] = (await list(admin, `?name=test.export&state=done`)).results;
    expect(job).toMatchObject({ id: jobId, state: 'done', attempts: 1, last_error: null });

    const audit = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'job.retry'), eq(auditEvents.resourceId, jobId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ userId: admin.id, hospitalId, outcome: 'success', resourceType: 'job' });
  });
});

describe('a system-wide job that fails for good', () => {
  it("is told to every hospital's administrators", async () => {
    failing = true;
    const system = (await ctx.app.jobs.enqueue('test.export', {}, { key: 'system-fails' })).id;
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await told(system)).length).toBe(0);
      await ctx.app.jobs.runDue();
      t += 60_000;
    }
    const recipients = (await told(system)).map((r) => r.recipient_id);
    expect(recipients).toEqual(expect.arrayContaining([admin.id, otherAdmin.id]));
    expect(recipients).not.toContain(nurse.id);
  });
});
