import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CronExpressionParser } from 'cron-parser';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Listener, Queryable } from '../db/client.js';
import { type ServiceContext, systemContext } from '../lib/context.js';
import type { HospitalScope } from '../plugins/access.js';
import {
  type ClaimedJob,
  claimJobs,
  completeRun,
  failAbandoned,
  failRun,
  insertJob,
  JOBS_CHANNEL,
  jobsHeld,
  renewLease,
} from './queue.js';

/** What a job's handler receives besides its payload. */
export interface JobRun {
  /** The system acting (source: the job's name), in the job's hospital, on behalf of who caused it. */
  ctx: ServiceContext;
  jobId: string;
  /** 1 for the first try. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the instance stops or the run lost its lease: stop at the next safe point. */
  signal: AbortSignal;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  /** `area.action` (`mail.deliver`): the job's name in the table, the logs and the audit rows. */
  name: string;
  /** Checked before every run; a payload it refuses fails the job at once (no retry could mend it). */
  payload: S;
  /** Tries before the job is `failed` (default 5). */
  maxAttempts?: number;
  /** Wait before the n-th retry: `baseMs × 2^(n-1)`, at most `maxMs` (default 30 s doubling up to 1 h). */
  backoff?: { baseMs: number; maxMs: number };
  /** The rule that causes the job, for the audit trail (`actor.rule`). */
  rule?: string;
  run(payload: z.output<S>, job: JobRun): Promise<void>;
}

/** A recurring job: one run per tick of `cron` (5 or 6 fields), in `timeZone` (IANA name, default UTC). */
export interface JobSchedule {
  name: string;
  cron: string;
  timeZone?: string;
  payload?: Record<string, unknown>;
}

export interface EnqueueOptions {
  /** One job per (name, key), whatever its state: scheduling the same work twice makes one job. */
  key?: string;
  /** When it is due (default: now). */
  runAt?: Date;
  delayMs?: number;
  /** The hospital it works for (its administrators see it); none for system-wide work. */
  hospitalId?: string | null;
  /** The user whose action caused it. */
  onBehalfOf?: string | null;
  /** Enqueue inside the caller's transaction: the job exists only if the work that asked for it commits. */
  tx?: Queryable;
}

export interface JobsOptions {
  database: Database;
  log: FastifyBaseLogger;
  /** The clock every instant comes from (tests move it). */
  now?: () => Date;
  /** Jobs run at once at most (per instance). */
  concurrency: number;
  /** Time between two polls when nothing wakes the worker earlier. */
  pollMs: number;
  /** A running job's lease; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** How long stopping waits for running jobs before leaving them to another instance (lease expiry). */
  stopTimeoutMs?: number;
  /** This instance's name in `locked_by`. */
  instance?: string;
  /**
   * Called once a job has failed for good (its last attempt, or a payload no retry can mend): the jobs plugin
   * tells the administrators who see it. Its own failure is logged, never the job's concern.
   */
  onFailed?: (job: FailedJob) => Promise<void>;
}

/** A job that failed for good. */
export interface FailedJob {
  id: string;
  name: string;
  /** Its hospital, or null for system-wide work. */
  hospitalId: string | null;
  attempts: number;
  error: string;
}

const DEFAULT_BACKOFF = { baseMs: 30_000, maxMs: 60 * 60_000 };
const DEFAULT_MAX_ATTEMPTS = 5;

/** An error as kept in the jobs table and shown to administrators: its message, e-mail addresses masked. */
export function jobError(err: unknown): string {
  const message = err instanceof Error ? err.message || err.name : String(err);
  return message.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]').slice(0, 1000);
}

/** The instant of the next tick of `cron` strictly after `after`, in `timeZone`. */
export function nextTick(cron: string, after: Date, timeZone = 'UTC'): Date {
  return CronExpressionParser.parse(cron, { currentDate: after, tz: timeZone }).next().toDate();
}

/**
 * The job system (decision 0015): handlers registered by name, recurring schedules, and a worker loop that
 * every instance runs: it polls for due jobs (woken early by `pg_notify`), claims them with `SKIP LOCKED`, runs
 * them with a renewed lease, and records their outcome. No leader: the database decides who runs what.
 */
export class Jobs {
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly schedules = new Map<string, JobSchedule & { ensured: number }>();
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  /** The clock of every instant the job system writes. */
  readonly now: () => Date;
  private readonly leaseMs: number;
  readonly instance: string;
  private loop: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private listener: Listener | null = null;

  constructor(private readonly opts: JobsOptions) {
    this.now = opts.now ?? (() => new Date());
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.instance = opts.instance ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** Registers a job's handler (at start, before the worker runs). */
  define<S extends z.ZodType>(definition: JobDefinition<S>): void {
    if (this.definitions.has(definition.name)) throw new Error(`job ${definition.name} is defined twice`);
    this.definitions.set(definition.name, definition as unknown as JobDefinition);
  }

  /** Makes a defined job recurring. Every instance registers the same schedules; each tick runs once. */
  schedule(schedule: JobSchedule): void {
    if (!this.definitions.has(schedule.name)) throw new Error(`job ${schedule.name} is not defined`);
    nextTick(schedule.cron, this.now(), schedule.timeZone); // refuses a wrong expression or zone at start
    this.schedules.set(schedule.name, { ...schedule, ensured: 0 });
  }

  get names(): string[] {
    return [...this.definitions.keys()];
  }

  /** Queues a job (validated against its definition now, not only when it runs). */
  async enqueue(name: string, payload: Record<string, unknown>, o: EnqueueOptions = {}) {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`job ${name} is not defined`);
    definition.payload.parse(payload);
    const now = this.now();
    const runAt = o.runAt ?? new Date(now.getTime() + (o.delayMs ?? 0));
    const result = await insertJob(
      o.tx ?? this.opts.database.db,
      {
        name,
        payload,
        key: o.key ?? null,
        hospitalId: o.hospitalId ?? null,
        onBehalfOf: o.onBehalfOf ?? null,
        runAt,
        maxAttempts: definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      },
      now,
    );
    if (!o.tx && runAt <= now) this.wake();
    return result;
  }

  /** Starts the worker loop (and listening for wake-ups). */
  async start(): Promise<void> {
    if (this.loop) return;
    this.stopping = false;
    try {
      this.listener = await this.opts.database.listen(JOBS_CHANNEL, {
        notice: () => this.wake(),
        state: () => {},
      });
    } catch (err) {
      this.opts.log.warn(
        { err: { message: jobError(err) } },
        'jobs: cannot listen for wake-ups; polling only',
      );
    }
    this.loop = this.work();
  }

  /**
   * Stops claiming jobs and waits for the running ones, at most `stopTimeoutMs`; jobs still running then are
   * told to stop (their signal) and left to another instance when their lease runs out.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    this.loop = null;
    const runs = [...this.running.values()];
    if (runs.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => {
        timer = setTimeout(r, this.opts.stopTimeoutMs ?? 5000);
      });
      await Promise.race([Promise.allSettled(runs.map((r) => r.done)), timeout]);
      clearTimeout(timer);
      for (const r of this.running.values()) r.abort.abort(new Error('the instance is stopping'));
    }
    await this.listener?.close();
    this.listener = null;
  }

  /**
   * One pass of the worker, awaited: queues the next tick of every schedule, then claims and runs due jobs
   * until none is left. What the loop does in the background; tests call it to step time by hand.
   */
  async runDue(): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await this.claim(this.opts.concurrency);
      if (claimed.length === 0) return ran;
      ran += claimed.length;
      await Promise.all(claimed.map((job) => this.launch(job)));
    }
  }

  private wake() {
    this.woken = true;
    this.wakeUp?.();
  }

  private async work() {
    while (!this.stopping) {
      this.woken = false;
      try {
        const free = this.opts.concurrency - this.running.size;
        if (free > 0) for (const job of await this.claim(free)) void this.launch(job);
      } catch (err) {
        if (!this.stopping) this.opts.log.warn({ err: { message: jobError(err) } }, 'jobs: poll failed');
      }
      if (this.stopping || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.opts.pollMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  /** Whether the last poll found the jobs held (after a restore, until an administrator releases them). */
  held = false;

  /** The worker loop is running in this instance (health). */
  get working(): boolean {
    return this.loop !== null && !this.stopping;
  }

  private async claim(limit: number): Promise<ClaimedJob[]> {
    const db = this.opts.database.db;
    const held = await jobsHeld(db);
    if (held !== this.held) {
      this.held = held;
      if (held)
        this.opts.log.warn(
          'jobs: held (a restored installation): nothing runs, no mail or SMS goes out, until an administrator releases them (cli.js release-jobs)',
        );
      else this.opts.log.info('jobs: released; the worker runs them again');
    }
    if (held) return [];
    await this.ensureSchedules();
    const names = this.names;
    const now = this.now();
    const abandoned = await failAbandoned(db, names, now);
    if (abandoned > 0)
      this.opts.log.warn({ jobs: abandoned }, 'jobs: interrupted on their last attempt, failed');
    return claimJobs(db, { names, limit, instance: this.instance, now, leaseMs: this.leaseMs });
  }

  /** Queues each schedule's next tick (once per tick and instance; the key makes it one row in all). */
  private async ensureSchedules() {
    const now = this.now();
    for (const s of this.schedules.values()) {
      const tick = nextTick(s.cron, now, s.timeZone);
      if (tick.getTime() === s.ensured) continue;
      await insertJob(
        this.opts.database.db,
        {
          name: s.name,
          payload: s.payload ?? {},
          key: `tick:${tick.toISOString()}`,
          hospitalId: null,
          onBehalfOf: null,
          runAt: tick,
          maxAttempts: this.definitions.get(s.name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        },
        now,
      );
      s.ensured = tick.getTime();
    }
  }

  /** Runs one claimed job in the background of the loop; resolves when its outcome is recorded. */
  private launch(job: ClaimedJob): Promise<void> {
    const abort = new AbortController();
    const done = this.execute(job, abort).finally(() => {
      this.running.delete(job.run_id);
      this.wake();
    });
    this.running.set(job.run_id, { done, abort });
    return done;
  }

  private async execute(job: ClaimedJob, abort: AbortController) {
    const db = this.opts.database.db;
    const definition = this.definitions.get(job.name)!;
    const log = this.opts.log.child({ job: job.name, job_id: job.id, run_id: job.run_id });
    const heartbeat = setInterval(() => {
      renewLease(db, job.run_id, this.now(), this.leaseMs).then(
        (kept) => {
          if (!kept) abort.abort(new Error('the run lost its lease'));
        },
        (err) => log.warn({ err: { message: jobError(err) } }, 'jobs: lease renewal failed'),
      );
    }, this.leaseMs / 3);
    heartbeat.unref();
    // A stopped instance or a lost lease renews nothing any more: the job is left to whoever takes it next.
    abort.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true });
    const started = Date.now();
    try {
      const raw = typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload;
      const parsed = definition.payload.safeParse(raw);
      if (!parsed.success) {
        const error = `invalid payload: ${parsed.error.message}`.slice(0, 1000);
        if (await failRun(db, job.run_id, error, null, this.now())) await this.failedForGood(job, error, log);
        log.error('job payload refused; failed without retry');
        return;
      }
      const ctx = systemContext({
        source: job.name,
        log,
        hospital: job.hospital_id ? await this.hospitalScope(job.hospital_id) : null,
        onBehalfOf: job.on_behalf_of,
        rule: definition.rule ?? null,
        requestId: job.run_id,
      });
      try {
        await definition.run(parsed.data, {
          ctx,
          jobId: job.id,
          attempt: job.attempts,
          maxAttempts: job.max_attempts,
          signal: abort.signal,
        });
      } catch (err) {
        const last = job.attempts >= job.max_attempts;
        const { baseMs, maxMs } = definition.backoff ?? DEFAULT_BACKOFF;
        const delay = Math.min(maxMs, baseMs * 2 ** (job.attempts - 1));
        const now = this.now();
        const recorded = await failRun(
          db,
          job.run_id,
          jobError(err),
          last ? null : new Date(now.getTime() + delay),
          now,
        );
        const fields = {
          err: { message: jobError(err) },
          attempt: job.attempts,
          retry_in_ms: last ? null : delay,
        };
        if (!last) {
          log.warn(fields, 'job failed; it will be retried');
          return;
        }
        log.error(fields, 'job failed after its last attempt');
        if (recorded) await this.failedForGood(job, jobError(err), log);
        return;
      }
      await completeRun(db, job.run_id, this.now());
      log.info({ attempt: job.attempts, ms: Date.now() - started }, 'job done');
    } catch (err) {
      // Recording the outcome failed (database gone, instance stopping): the lease runs out and the job is
      // taken again.
      log.error({ err: { message: jobError(err) } }, 'jobs: could not record the outcome of a run');
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async failedForGood(job: ClaimedJob, error: string, log: FastifyBaseLogger) {
    try {
      await this.opts.onFailed?.({
        id: job.id,
        name: job.name,
        hospitalId: job.hospital_id,
        attempts: job.attempts,
        error,
      });
    } catch (err) {
      log.error(
        { err: { message: jobError(err) } },
        'jobs: could not tell the administrators of a failed job',
      );
    }
  }

  private async hospitalScope(id: string): Promise<HospitalScope | null> {
    const res = await this.opts.database.db.execute<{ name: string; code: string }>(
      sql`select name, code from hospitals where id = ${id}`,
    );
    const row = res.rows[0];
    return row ? { id, name: row.name, code: row.code, roleCodes: [], groups: [], departmentIds: [] } : null;
  }
}
