import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../test/app.js';
import { makeHospital, makeUser } from '../../test/factories.js';
import { loadConfig } from '../config.js';
import {
  auditEvents,
  authSessions,
  emailTokens,
  jobs,
  mailOutbox,
  refreshTokens,
} from '../db/schema/index.js';
import type { MailTransport } from '../lib/mail.js';
import { jobError, nextTick } from './runner.js';

/**
 * The job system's guarantees (decision 0015), on the embedded engine and, with TEST_DATABASE_URL, on
 * PostgreSQL, with two app instances on one database where it matters. Time is a clock the test moves; waits
 * on the real worker loop are bounded polls.
 */

const opened: TestContext[] = [];
afterEach(async () => {
  // Second instances first: the first owns the database.
  for (const c of opened.reverse()) await c.close();
  opened.length = 0;
});

/** A clock the test moves by hand. */
function fakeClock(start = Date.parse('2026-11-24T10:00:30Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

/** Two instances on one database (the second shares the first's). */
async function twoInstances(
  overrides: Parameters<typeof createTestApp>[0],
  deps: NonNullable<Parameters<typeof createTestApp>[1]>['deps'] = {},
) {
  const a = await createTestApp(overrides, { deps });
  opened.push(a);
  const b = await createTestApp(overrides, { database: a.database, deps });
  opened.push(b);
  return [a, b] as const;
}

/**
 * `b` owns the database and only steps by hand (`runDue`); `a` runs its worker loop on the same database, both
 * on `clock`.
 */
async function stepperAndWorker(
  clock: { now: () => Date },
  workerDeps: { jobsStopTimeoutMs?: number; jobsLeaseMs?: number },
) {
  const b = await createTestApp({ jobsWorker: false }, { deps: { clock: clock.now } });
  opened.push(b);
  const a = await createTestApp(
    { jobsWorker: true, jobsPollMs: 50 },
    { database: b.database, deps: { clock: clock.now, ...workerDeps } },
  );
  opened.push(a);
  return { a, b };
}

const rowsOf = (c: TestContext, name: string) =>
  c.database.db.select().from(jobs).where(eq(jobs.name, name)).orderBy(jobs.runAt);

/**
 * Runs what is due on each instance and answers how many runs of `name` that made: the app's own recurring jobs
 * (the reporting summaries every minute, the care executions every quarter of an hour…) may be due in the same poll.
 */
async function runDueOf(name: string, ...instances: TestContext[]): Promise<number> {
  const attempts = async () => (await rowsOf(instances[0]!, name)).reduce((n, r) => n + r.attempts, 0);
  const before = await attempts();
  await Promise.all(instances.map((c) => c.app.jobs.runDue()));
  return (await attempts()) - before;
}

describe('background jobs', () => {
  it('runs each job once with two instances polling the same database', async () => {
    const [a, b] = await twoInstances({ jobsPollMs: 50, jobsConcurrency: 3 });
    const runs: { id: string; by: string }[] = [];
    for (const c of [a, b]) {
      c.app.jobs.define({
        name: 'test.count',
        payload: z.object({ n: z.number() }),
        run: async (_p, job) => {
          runs.push({ id: job.jobId, by: c.app.jobs.instance });
          await new Promise((r) => setTimeout(r, 5));
        },
      });
    }
    for (let n = 0; n < 30; n++) await (n % 2 ? a : b).app.jobs.enqueue('test.count', { n });
    await vi.waitFor(
      async () => {
        const rows = await rowsOf(a, 'test.count');
        expect(rows.filter((r) => r.state === 'done')).toHaveLength(30);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(runs).toHaveLength(30);
    expect(new Set(runs.map((r) => r.id)).size).toBe(30);
    const rows = await rowsOf(a, 'test.count');
    expect(rows.every((r) => r.attempts === 1 && r.lockedBy === null)).toBe(true);
  });

  it('runs a recurring every-minute job once per tick in total across two instances', async () => {
    const clock = fakeClock();
    const [a, b] = await twoInstances({ jobsWorker: false }, { clock: clock.now });
    const ticks: string[] = [];
    for (const c of [a, b]) {
      c.app.jobs.define({
        name: 'test.tick',
        payload: z.object({}),
        run: async (_p, job) => {
          ticks.push(job.ctx.requestId);
          expect(job.ctx.actor).toEqual({
            kind: 'system',
            source: 'test.tick',
            onBehalfOf: null,
            rule: null,
          });
        },
      });
      c.app.jobs.schedule({ name: 'test.tick', cron: '* * * * *' });
    }
    // Both instances start together at 10:00:30: one row for the 10:01 tick.
    await Promise.all([a.app.jobs.runDue(), b.app.jobs.runDue()]);
    expect((await rowsOf(a, 'test.tick')).map((r) => [r.state, r.runAt.toISOString()])).toEqual([
      ['queued', '2026-11-24T10:01:00.000Z'],
    ]);
    for (let minute = 1; minute <= 3; minute++) {
      clock.advance(60_000);
      expect(await runDueOf('test.tick', a, b)).toBe(1);
      expect(ticks).toHaveLength(minute);
    }
    const rows = await rowsOf(a, 'test.tick');
    expect(rows.map((r) => [r.state, r.runAt.toISOString().slice(11, 16)])).toEqual([
      ['done', '10:01'],
      ['done', '10:02'],
      ['done', '10:03'],
      ['queued', '10:04'],
    ]);
    // The run id is the context's request id: every run has its own.
    expect(new Set(ticks).size).toBe(3);
  });

  it('computes cron ticks in a time zone', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    expect(nextTick('0 7 * * *', at, 'Africa/Kinshasa').toISOString()).toBe('2026-11-25T06:00:00.000Z');
    expect(nextTick('0 7 * * *', at).toISOString()).toBe('2026-11-25T07:00:00.000Z');
    // Paris leaves summer time on 2026-10-25: 07:00 is 06:00Z after, 05:00Z before.
    expect(nextTick('0 7 * * *', new Date('2026-10-24T12:00:00Z'), 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T06:00:00.000Z',
    );
  });

  it('lets the other instance finish a job whose instance was killed while running it', async () => {
    const clock = fakeClock();
    // a is stopped in the middle of the job, and waits only 50 ms for it.
    const { a, b } = await stepperAndWorker(clock, { jobsStopTimeoutMs: 50 });
    const finishedBy: string[] = [];
    a.app.jobs.define({
      name: 'test.long',
      payload: z.object({}),
      // Never ends, and ignores its signal: like a process that dies in the middle.
      run: () => new Promise<void>(() => {}),
    });
    b.app.jobs.define({
      name: 'test.long',
      payload: z.object({}),
      run: async () => {
        finishedBy.push('b');
      },
    });
    const { id } = await a.app.jobs.enqueue('test.long', {});
    await vi.waitFor(
      async () => {
        const [row] = await b.database.db.select().from(jobs).where(eq(jobs.id, id));
        expect(row?.state).toBe('running');
        expect(row?.lockedBy).toBe(a.app.jobs.instance);
      },
      { timeout: 10_000, interval: 20 },
    );
    opened.splice(opened.indexOf(a), 1);
    await a.close();
    // The lease still holds: b leaves the job alone.
    expect(await runDueOf('test.long', b)).toBe(0);
    clock.advance(61_000);
    expect(await runDueOf('test.long', b)).toBe(1);
    const [row] = await b.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ state: 'done', attempts: 2, lockedBy: null });
    expect(finishedBy).toEqual(['b']);
  });

  it('keeps a long job with its instance while that instance renews the lease', async () => {
    const clock = fakeClock();
    // A lease of 300 ms (renewed every 100 ms of real time) on a clock the test moves.
    const { a, b } = await stepperAndWorker(clock, { jobsLeaseMs: 300 });
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    a.app.jobs.define({ name: 'test.slow', payload: z.object({}), run: () => gate });
    b.app.jobs.define({ name: 'test.slow', payload: z.object({}), run: async () => {} });
    const { id } = await a.app.jobs.enqueue('test.slow', {});
    const leaseOf = async () =>
      (await b.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]?.lockedUntil?.getTime() ?? 0;
    await vi.waitFor(async () => expect(await leaseOf()).toBe(clock.now().getTime() + 300), {
      timeout: 10_000,
      interval: 20,
    });
    for (let step = 0; step < 3; step++) {
      // Time passes beyond the lease a claim gave, but a renews it.
      clock.advance(200);
      const now = clock.now().getTime();
      await vi.waitFor(async () => expect(await leaseOf()).toBe(now + 300), {
        timeout: 10_000,
        interval: 20,
      });
      expect(await runDueOf('test.slow', b)).toBe(0);
    }
    release();
    await vi.waitFor(
      async () => {
        const [row] = await b.database.db.select().from(jobs).where(eq(jobs.id, id));
        expect(row).toMatchObject({ state: 'done', attempts: 1 });
      },
      { timeout: 10_000, interval: 20 },
    );
  });

  it('fails a job whose instance died on each of its attempts instead of taking it again', async () => {
    const clock = fakeClock();
    const [a] = await twoInstances({ jobsWorker: false }, { clock: clock.now });
    a.app.jobs.define({ name: 'test.crashy', payload: z.object({}), maxAttempts: 1, run: async () => {} });
    const { id } = await a.app.jobs.enqueue('test.crashy', {});
    // An instance claimed it (attempt 1 of 1) and died.
    await a.database.db
      .update(jobs)
      .set({ state: 'running', attempts: 1, lockedBy: 'dead', lockedUntil: clock.now() })
      .where(eq(jobs.id, id));
    clock.advance(1000);
    expect(await runDueOf('test.crashy', a)).toBe(0);
    const [row] = await a.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row?.state).toBe('failed');
    expect(row?.lastError).toMatch(/lease expired/);
  });

  it('audits a job’s writes as the system’s, in the job’s hospital, on behalf of who caused it', async () => {
    const [a] = await twoInstances({ jobsWorker: false });
    const db = a.database.db;
    const hospital = await makeHospital(db);
    const secretary = await makeUser(db, { role: 'SECRETARY', hospitals: [{ id: hospital.id }] });
    a.app.jobs.define({
      name: 'test.reminder_sent',
      payload: z.object({ appointment: z.string() }),
      rule: 'appointments.reminder',
      run: async ({ appointment }, job) => {
        expect(job.ctx.hospital).toMatchObject({ id: hospital.id, code: hospital.code });
        await a.app.audit.record(job.ctx, {
          action: 'test.reminder_sent',
          resourceType: 'appointment',
          resourceId: appointment,
        });
      },
    });
    await a.app.jobs.enqueue(
      'test.reminder_sent',
      { appointment: 'A-9' },
      { hospitalId: hospital.id, onBehalfOf: secretary.id },
    );
    expect(await runDueOf('test.reminder_sent', a)).toBe(1);
    const [run] = await rowsOf(a, 'test.reminder_sent');
    const [row] = await db.select().from(auditEvents).where(eq(auditEvents.action, 'test.reminder_sent'));
    expect(row).toMatchObject({
      userId: null,
      roleCode: null,
      hospitalId: hospital.id,
      resourceId: 'A-9',
      requestId: run!.runId,
      details: {
        system: { source: 'test.reminder_sent', on_behalf_of: secretary.id, rule: 'appointments.reminder' },
      },
    });
  });

  it('makes one job per key, even when two instances schedule it at once', async () => {
    const clock = fakeClock();
    const [a, b] = await twoInstances({ jobsWorker: false }, { clock: clock.now });
    for (const c of [a, b])
      c.app.jobs.define({
        name: 'test.reminder',
        payload: z.object({ appointment: z.string() }),
        run: async () => {},
      });
    const payload = { appointment: 'A-1' };
    const made = await Promise.all([
      a.app.jobs.enqueue('test.reminder', payload, { key: 'appointment:A-1', delayMs: 60_000 }),
      b.app.jobs.enqueue('test.reminder', payload, { key: 'appointment:A-1', delayMs: 60_000 }),
      a.app.jobs.enqueue('test.reminder', payload, { key: 'appointment:A-1', delayMs: 60_000 }),
    ]);
    expect(made.filter((m) => m.created)).toHaveLength(1);
    expect(new Set(made.map((m) => m.id)).size).toBe(1);
    // Delayed: not before its time, once after.
    expect(await runDueOf('test.reminder', a)).toBe(0);
    clock.advance(60_000);
    expect(await runDueOf('test.reminder', a, b)).toBe(1);
    // Done, the key still holds: scheduling it again makes nothing.
    expect(await b.app.jobs.enqueue('test.reminder', payload, { key: 'appointment:A-1' })).toEqual({
      id: made[0]!.id,
      created: false,
    });
    expect(await rowsOf(a, 'test.reminder')).toHaveLength(1);
    // Queued inside a transaction that rolls back: no job.
    await expect(
      a.database.db.transaction(async (tx) => {
        await a.app.jobs.enqueue('test.reminder', { appointment: 'A-2' }, { key: 'appointment:A-2', tx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rowsOf(a, 'test.reminder')).toHaveLength(1);
    // A payload the job refuses is refused when queued.
    await expect(a.app.jobs.enqueue('test.reminder', { appointment: 7 })).rejects.toThrow();
  });

  it('masks e-mail addresses in the errors it keeps', () => {
    expect(jobError(new Error('550 5.1.1 <someone@example.test>: Recipient address rejected'))).toBe(
      '550 5.1.1 <[address]>: Recipient address rejected',
    );
  });

  it('runs the worker unless JOBS_WORKER=off', () => {
    expect(loadConfig({}).jobsWorker).toBe(true);
    expect(loadConfig({ JOBS_WORKER: 'off' }).jobsWorker).toBe(false);
  });
});

describe('mail delivery through jobs', () => {
  it('retries a mail the SMTP server refused, with backoff, until it is sent', async () => {
    const clock = fakeClock();
    const sent: string[] = [];
    let failures = 2;
    const transport: MailTransport = {
      sendMail: async (mail) => {
        if (failures > 0) {
          failures--;
          throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        }
        sent.push(mail.to);
      },
      close: () => {},
    };
    const ctx = await createTestApp(
      { jobsWorker: false, smtpUrl: 'smtp://mail.invalid:25' },
      { deps: { clock: clock.now, mailTransport: transport } },
    );
    opened.push(ctx);
    expect(ctx.app.mailer.mode).toBe('smtp');
    await ctx.app.mailer.send({
      to: 'nurse@example.test',
      subject: 'Lien',
      text: 'https://x.test/reset/TOKEN',
    });
    const [mail] = await ctx.database.db.select().from(mailOutbox);
    expect(mail).toMatchObject({ toAddress: 'nurse@example.test', sentAt: null });

    expect(await runDueOf('mail.deliver', ctx)).toBe(1);
    let [job] = await rowsOf(ctx, 'mail.deliver');
    expect(job).toMatchObject({
      state: 'queued',
      attempts: 1,
      lastError: 'connect ECONNREFUSED 127.0.0.1:25',
    });
    expect(job!.runAt.getTime() - clock.now().getTime()).toBe(60_000);
    expect((await ctx.database.db.select().from(mailOutbox))[0]?.error).toMatch(/ECONNREFUSED/);

    clock.advance(60_000);
    expect(await runDueOf('mail.deliver', ctx)).toBe(1);
    [job] = await rowsOf(ctx, 'mail.deliver');
    expect(job!.runAt.getTime() - clock.now().getTime()).toBe(120_000);
    clock.advance(119_000);
    expect(await runDueOf('mail.deliver', ctx)).toBe(0);
    clock.advance(1000);
    expect(await runDueOf('mail.deliver', ctx)).toBe(1);

    expect(sent).toEqual(['nurse@example.test']);
    [job] = await rowsOf(ctx, 'mail.deliver');
    expect(job).toMatchObject({ state: 'done', attempts: 3, lastError: null });
    const [delivered] = await ctx.database.db.select().from(mailOutbox);
    expect(delivered?.sentAt).not.toBeNull();
    expect(delivered?.error).toBeNull();
    // The link (a token) does not stay in the database once sent.
    expect(delivered?.textBody).toBe('');
  });
});

describe('maintenance.purge', () => {
  it('deletes expired links, tokens, dead sessions, old mail and old jobs, hourly, and audits it', async () => {
    const clock = fakeClock(Date.now());
    const ctx = await createTestApp({ jobsWorker: false }, { deps: { clock: clock.now } });
    opened.push(ctx);
    const db = ctx.database.db;
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(now + ms);
    const DAY = 86_400_000;
    const user = await makeUser(db);
    await db.insert(emailTokens).values([
      { userId: user.id, purpose: 'reset', tokenHash: 'expired', expiresAt: at(-1000) },
      { userId: user.id, purpose: 'verify', tokenHash: 'valid', expiresAt: at(DAY) },
    ]);
    const [dead, live] = await db
      .insert(authSessions)
      .values([
        { userId: user.id, tokenVersion: 0, lastUsedAt: at(-8 * DAY) },
        { userId: user.id, tokenVersion: 0, lastUsedAt: at(-8 * DAY) },
      ])
      .returning();
    await db.insert(refreshTokens).values([
      { sessionId: dead!.id, tokenHash: 'r-expired', expiresAt: at(-DAY) },
      { sessionId: live!.id, tokenHash: 'r-valid', expiresAt: at(DAY) },
    ]);
    await db.insert(mailOutbox).values([
      { toAddress: 'old@example.test', subject: 's', textBody: 't', createdAt: at(-8 * DAY) },
      { toAddress: 'new@example.test', subject: 's', textBody: 't', createdAt: at(-DAY) },
    ]);
    await db.insert(jobs).values([
      { name: 'test.old', state: 'done', runAt: at(-9 * DAY), finishedAt: at(-8 * DAY) },
      { name: 'test.recent', state: 'done', runAt: at(-DAY), finishedAt: at(-DAY) },
      { name: 'test.failed', state: 'failed', runAt: at(-9 * DAY), finishedAt: at(-8 * DAY) },
    ]);

    // Scheduled at minute 17 of every hour: not run before, run once after (other recurring jobs, such as the
    // care executions' every quarter of an hour, may run in the same poll).
    await ctx.app.jobs.runDue();
    const [tick] = await rowsOf(ctx, 'maintenance.purge');
    expect(tick!.runAt.getUTCMinutes()).toBe(17);
    expect(tick!.state).toBe('queued');
    clock.advance(tick!.runAt.getTime() - now);
    await ctx.app.jobs.runDue();
    const purges = await rowsOf(ctx, 'maintenance.purge');
    expect(purges.filter((j) => j.state === 'done').map((j) => j.id)).toEqual([tick!.id]);

    expect((await db.select().from(emailTokens)).map((t) => t.tokenHash)).toEqual(['valid']);
    expect((await db.select().from(refreshTokens)).map((t) => t.tokenHash)).toEqual(['r-valid']);
    expect((await db.select().from(authSessions)).map((s) => s.id)).toEqual([live!.id]);
    expect((await db.select().from(mailOutbox)).map((m) => m.toAddress)).toEqual(['new@example.test']);
    expect(
      (
        await db
          .select({ name: jobs.name })
          .from(jobs)
          .where(sql`${jobs.name} like 'test.%'`)
          .orderBy(jobs.name)
      ).map((j) => j.name),
    ).toEqual(['test.failed', 'test.recent']);

    const [audit] = await db.select().from(auditEvents).where(eq(auditEvents.action, 'system.purge'));
    const [run] = await rowsOf(ctx, 'maintenance.purge');
    expect(audit).toMatchObject({
      userId: null,
      hospitalId: null,
      outcome: 'success',
      requestId: run!.runId,
    });
    expect(audit?.details).toMatchObject({
      system: { source: 'maintenance.purge', on_behalf_of: null, rule: 'maintenance.purge' },
      email_tokens: 1,
      refresh_tokens: 1,
      sessions: 1,
      mail: 1,
      jobs: 1,
    });
  });
});
