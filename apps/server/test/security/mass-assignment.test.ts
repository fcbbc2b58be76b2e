import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_MATRIX, type Caller, type RoutePolicy } from '../../src/modules/access-matrix.js';
import { createTestApp, type TestContext } from '../app.js';
import { TEST_DB_KIND } from '../database.js';
import {
  buildRequest,
  collectRoutes,
  designBodyProblem,
  jsonOf,
  type MatrixRoute,
  send,
  urlOf,
} from './harness.js';
import { runs, SEED } from './runs.js';
import { buildWorld, type Member, type World } from './world.js';
import { objectShape } from './zod-sample.js';

/**
 * Mass assignment (issue 8): every create and update route, replayed with random extra fields that are not its
 * inputs (fast-check). The policy says per route whether extras are refused (400) or ignored; when ignored, the
 * row the request stored is read back from the database and must not have taken any of them.
 */

/** Fields a client must never set by itself (those that are a route's inputs are left out for that route). */
const PROTECTED_FIELDS = [
  'hospital',
  'hospital_id',
  'id',
  'record_number',
  'created_by',
  'created_at',
  'updated_at',
  'role_code',
  'roles',
  'is_active',
  'is_archived',
  'archived_at',
  'archived_by',
  'status',
  'patient',
  'patient_id',
  'admission_id',
  'doctor_id',
  'department_id',
  'user',
  'user_id',
  'version',
  'queue_number',
  'queue_date',
  'recorded_by',
  'level_rank',
  'tews',
  'password_hash',
  'token_version',
  'email_verified_at',
  'pin_hash',
  'is_read',
  'memberships',
  'deleted_at',
  '__proto__',
  'constructor',
] as const;

const NUMBER_MARKER_MIN = 900_000;
const tally = { routes: 0, cases: 0, refused: 0, ignored: 0 };

let ctx: TestContext;
let world: World;
let routes: MatrixRoute[];

beforeAll(async () => {
  ctx = await createTestApp();
  world = await buildWorld(ctx);
  routes = collectRoutes(ctx.app);
}, 120_000);

afterAll(async () => {
  console.log(
    `[security] mass assignment (${TEST_DB_KIND}, seed ${SEED}): ${tally.routes} write routes, ${tally.cases} ` +
      `generated requests with extra fields: ${tally.refused} refused with 400, ${tally.ignored} stored without them`,
  );
  await ctx?.close();
});

async function callerFor(policy: RoutePolicy): Promise<Member> {
  if (policy.allow === 'public') return world.callers.anonymous;
  const group = policy.allow === 'signed-in' ? 'nurse' : policy.allow[0]!;
  return policy.freshCaller ? world.freshCaller(group) : world.callers[group];
}

async function rowOf(table: string, id: string): Promise<Record<string, unknown> | undefined> {
  const res = await ctx.database.db.execute(sql`select * from ${sql.identifier(table)} where id = ${id}`);
  return res.rows[0] as Record<string, unknown> | undefined;
}

const normal = (v: unknown) => JSON.parse(JSON.stringify(v ?? null)) as unknown;

/** The values an extra field gets: markers easy to find in a row, and the other hospital's ids. */
function valueArb() {
  return fc.oneof(
    fc.uuid(),
    fc.constant(world.other.id),
    fc.constant(world.other.standing.patient),
    fc.constant(world.other.staff.admin),
    fc.string({ minLength: 1, maxLength: 12 }).map((s) => `mass-${s}`),
    fc.integer({ min: NUMBER_MARKER_MIN, max: 999_999 }),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('cancelled', 'completed', 'ADMIN', 'HEAD_DOCTOR', 'validated'),
    fc.array(fc.uuid(), { minLength: 1, maxLength: 2 }),
    fc.record({ id: fc.uuid(), hospital: fc.constant(world.other.id) }),
  );
}

/** Strings and numbers that, found in a stored row, can only have come from the extras. */
function markersOf(extras: Record<string, unknown>): { strings: string[]; numbers: number[] } {
  const strings: string[] = [];
  const numbers: number[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string' && (v.startsWith('mass-') || /^[0-9a-f-]{36}$/i.test(v))) strings.push(v);
    else if (typeof v === 'number' && v >= NUMBER_MARKER_MIN) numbers.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(extras);
  return { strings, numbers };
}

const safe = (extras: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(extras).filter(([k]) => k !== '__proto__'));

/** Adds the extras at the top of the body and, for half of the cases, inside its nested objects too. */
function withExtras(body: unknown, extras: Record<string, unknown>, nested: boolean) {
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if (nested) {
    for (const [k, v] of Object.entries(out))
      if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = { ...v, ...safe(extras) };
  }
  // Defined, not assigned: `__proto__` and `constructor` stay plain own keys of the JSON sent.
  const target = JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
  for (const [k, v] of Object.entries(extras))
    Object.defineProperty(target, k, { value: v, enumerable: true, writable: true, configurable: true });
  return target;
}

function rowProblems(
  row: Record<string, unknown>,
  controls: [Record<string, unknown>, Record<string, unknown>],
  extras: Record<string, unknown>,
): string[] {
  const problems: string[] = [];
  if (Object.hasOwn(row, 'hospital_id') && row.hospital_id !== world.own.id)
    problems.push(`hospital_id ${row.hospital_id}`);
  for (const [key, value] of Object.entries(extras)) {
    for (const col of [key, `${key}_id`]) {
      if (!Object.hasOwn(row, col)) continue;
      const [a, b] = controls.map((c) => normal(c[col]));
      if (isDeepStrictEqual(a, b)) {
        if (!isDeepStrictEqual(normal(row[col]), a))
          problems.push(`${col} = ${JSON.stringify(row[col])} (always ${JSON.stringify(a)} without extras)`);
      } else if (
        value !== null &&
        typeof value !== 'boolean' &&
        isDeepStrictEqual(normal(row[col]), normal(value))
      ) {
        problems.push(`${col} took the extra value ${JSON.stringify(value)}`);
      }
    }
  }
  const text = JSON.stringify(row);
  const { strings, numbers } = markersOf(extras);
  for (const s of strings) if (text.includes(s)) problems.push(`the row contains ${s}`);
  for (const v of Object.values(row))
    if (typeof v === 'number' && numbers.includes(v)) problems.push(`value ${v}`);
  return problems;
}

describe('mass assignment', () => {
  const writes = Object.entries(ACCESS_MATRIX).filter(([, p]) => p.massAssignment);

  it('covers every create and update route: a POST, PUT or PATCH with a body declares how it treats extras', () => {
    const undeclared = routes
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && r.body && r.policy)
      .filter((r) => !r.policy!.massAssignment && !READ_ONLY_BODIES.has(r.key))
      .map((r) => r.key);
    expect(undeclared, 'declare massAssignment in src/modules/access-matrix.ts').toEqual([]);
  });

  it('self-check: the read-back finds a row that took an extra field', () => {
    const base = { id: 'a', hospital_id: world.own.id, status: 'waiting', created_by: 'u1', note: null };
    const controls: [Record<string, unknown>, Record<string, unknown>] = [base, { ...base, id: 'b' }];
    expect(rowProblems({ ...base, id: 'c' }, controls, { status: 'cancelled', id: 'x' })).toEqual([]);
    expect(rowProblems({ ...base, status: 'cancelled' }, controls, { status: 'cancelled' })).toHaveLength(1);
    expect(rowProblems({ ...base, id: 'mass-1' }, controls, { id: 'mass-1' }).length).toBeGreaterThan(0);
    expect(
      rowProblems({ ...base, hospital_id: world.other.id }, controls, { hospital: world.other.id }),
    ).not.toEqual([]);
    expect(rowProblems({ ...base, note: 'mass-z' }, controls, { version: 'mass-z' })).toHaveLength(1);
  });

  for (const [key, policy] of writes) {
    it(`${key}: extra fields are ${policy.massAssignment!.extras}`, async () => {
      const route = routes.find((r) => r.policyKey === key);
      expect(route, `no route for ${key}`).toBeDefined();
      const r = route!;
      tally.routes += 1;
      const mode = policy.massAssignment!;
      const inputs = new Set(Object.keys(objectShape(r.body) ?? {}));
      const candidates = PROTECTED_FIELDS.filter((f) => !inputs.has(f));

      const request = async (extras: Record<string, unknown> | null, nested = false) => {
        const caller: Caller & { token: string | null } = await callerFor(policy);
        const parts = await buildRequest(r, world.own, caller);
        const body = extras ? withExtras(parts.body, extras, nested) : parts.body;
        const res = await send(ctx.app, {
          method: r.method,
          url: urlOf(r, parts),
          token: caller.token,
          hospitalId: world.own.id,
          body,
          ...(parts.headers ? { headers: parts.headers } : {}),
        });
        return { res, parts, caller };
      };

      const readBack = async (o: Awaited<ReturnType<typeof request>>) => {
        if (mode.extras !== 'ignored') return undefined;
        const id = mode.row(jsonOf(o.res), o.parts, o.caller);
        const row = await rowOf(mode.table, id);
        if (!row) throw new Error(`${key}: no ${mode.table} row ${id}`);
        return row;
      };

      let controls: [Record<string, unknown>, Record<string, unknown>] | undefined;
      if (mode.extras === 'ignored') {
        const c1 = await request(null);
        const c2 = await request(null);
        for (const c of [c1, c2])
          expect(c.res.statusCode, `${key} without extras: ${c.res.body}`).toBeLessThan(300);
        controls = [(await readBack(c1))!, (await readBack(c2))!];
      }

      const extrasArb = fc.subarray([...candidates], { minLength: 1, maxLength: 6 }).chain((keys) =>
        fc.tuple(fc.tuple(...keys.map(() => valueArb())), fc.boolean()).map(([values, nested]) => ({
          extras: Object.fromEntries(keys.map((k, i) => [k, values[i]])),
          nested,
        })),
      );

      await fc.assert(
        fc.asyncProperty(extrasArb, async ({ extras, nested }) => {
          tally.cases += 1;
          const o = await request(extras, nested);
          // `__proto__` is refused by the JSON parser itself (secure-json-parse), whatever the route; a plain
          // `constructor` key is an ordinary unknown field (only `constructor.prototype` would be refused).
          const poisoned = Object.hasOwn(extras, '__proto__');
          if (mode.extras === 'refused' || poisoned) {
            expect(o.res.statusCode, o.res.body).toBe(400);
            expect(designBodyProblem(o.res, key)).toBeNull();
            tally.refused += 1;
            return;
          }
          expect(o.res.statusCode, `${key} with ${JSON.stringify(extras)}: ${o.res.body}`).toBeLessThan(300);
          expect(o.res.statusCode).toBeGreaterThanOrEqual(200);
          const row = (await readBack(o))!;
          expect(rowProblems(row, controls!, extras), JSON.stringify(extras)).toEqual([]);
          tally.ignored += 1;
        }),
        { numRuns: runs(10), seed: SEED, endOnFailure: true },
      );
    }, 120_000);
  }
});

/** Routes that take a body but write nothing a client could smuggle a field into. */
const READ_ONLY_BODIES = new Set([
  'POST /api/login/',
  'POST /api/token/refresh/',
  'POST /api/logout/',
  'POST /api/patients/check-duplicates/',
  'POST /api/triage/suggest/',
  'POST /api/register/resend-verification/',
  'POST /api/auth/forgot-password/',
  'POST /api/auth/reset-password/',
  // A hospital's invitation link (issue 36): a token and, like a reset, a password; nothing else is stored.
  'POST /api/auth/invitations/check/',
  'POST /api/auth/invitations/accept/',
  'POST /api/pin/verify/',
  'POST /api/unlock/',
]);
