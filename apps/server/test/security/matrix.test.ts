import type { DashboardGroup } from '@greensen/shared/domain/roles';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_MATRIX, type AuditClass, type RequestParts } from '../../src/modules/access-matrix.js';
import { createTestApp, type TestContext } from '../app.js';
import { TEST_DB_KIND } from '../database.js';
import {
  buildRequest,
  collectRoutes,
  coverage,
  designBodyProblem,
  foreignIdsIn,
  jsonOf,
  type MatrixRoute,
  newIp,
  newRequestId,
  send,
  urlOf,
} from './harness.js';
import { buildWorld, CALLERS, GROUP_ROLE, type Member, type World } from './world.js';

/**
 * The authorization matrix (issue 8): every route of the app's own table × every caller × every tenancy case,
 * checked against the reviewed policy (src/modules/access-matrix.ts), with the audit rows each answer leaves and
 * a scan of every answer for the other hospital's ids.
 */

type Case = 'own' | 'foreign-header' | 'other-object';
type Expected =
  | { kind: 'allowed'; status?: number | 'not-refused' }
  | { kind: 'refused'; status: 401 | 403 }
  | { kind: 'not-found' }
  | { kind: 'rejected' }
  | { kind: 'empty' }
  | { kind: 'ignored' };

interface AuditRow {
  user_id: string | null;
  role_code: string | null;
  hospital_id: string | null;
  patient_id: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  outcome: string;
  ip: string | null;
  request_id: string | null;
  occurred_at: string | Date;
}

const tally = {
  routes: 0,
  requests: 0,
  allowed: 0,
  refused: 0,
  notFound: 0,
  unexpected: 0,
  auditRows: 0,
  byCase: { own: 0, 'foreign-header': 0, 'other-object': 0 } as Record<Case, number>,
};

let ctx: TestContext;
let world: World;
let routes: MatrixRoute[];

beforeAll(async () => {
  ctx = await createTestApp();
  world = await buildWorld(ctx);
  routes = collectRoutes(ctx.app);
}, 120_000);

afterAll(async () => {
  const callers = CALLERS.length;
  console.log(
    `[security] authorization matrix (${TEST_DB_KIND}): ${tally.routes} routes × ${callers} callers × up to 3 ` +
      `tenancy cases = ${tally.requests} requests (own hospital ${tally.byCase.own}, foreign Hospital-ID ` +
      `${tally.byCase['foreign-header']}, other hospital's rows ${tally.byCase['other-object']}): ` +
      `${tally.allowed} allowed, ${tally.refused} refused, ${tally.notFound} hidden as 404/400, ` +
      `${tally.unexpected} unexpected; ${tally.auditRows} audit rows checked`,
  );
  await ctx?.close();
});

function casesOf(route: MatrixRoute): Case[] {
  const policy = route.policy!;
  const cases: Case[] = ['own', 'foreign-header'];
  if (Array.isArray(policy.allow) && (policy.otherHospital || route.url.includes(':')))
    cases.push('other-object');
  return cases;
}

function expected(route: MatrixRoute, caller: Member, c: Case): Expected {
  const { allow, otherHospital } = route.policy!;
  const status = route.policy!.status;
  if (allow === 'public') return status ? { kind: 'allowed', status } : { kind: 'allowed' };
  if (caller.group === 'anonymous') return { kind: 'refused', status: 401 };
  if (allow === 'signed-in') return status ? { kind: 'allowed', status } : { kind: 'allowed' };
  if (caller.group === 'waiting') return { kind: 'refused', status: 403 };
  if (route.policy!.objectRule?.includes(caller.group as DashboardGroup))
    return c === 'other-object' ? { kind: 'not-found' } : { kind: 'refused', status: 403 };
  if (!(allow as readonly string[]).includes(caller.group)) return { kind: 'refused', status: 403 };
  if (c === 'foreign-header') return { kind: 'refused', status: 403 };
  if (c === 'other-object') return { kind: otherHospital ?? 'not-found' };
  return status ? { kind: 'allowed', status } : { kind: 'allowed' };
}

/** The audit rows of a route's requests, by request id: one read per route (the table has no request-id index). */
async function auditRowsOf(requestIds: string[]): Promise<Map<string, AuditRow[]>> {
  if (!requestIds.length) return new Map();
  const res = await ctx.database.db.execute(
    sql`select user_id, role_code, hospital_id, patient_id, action, resource_type, resource_id, outcome, ip,
               request_id, occurred_at
          from audit_events
         where request_id in (${sql.join(
           requestIds.map((id) => sql`${id}`),
           sql`, `,
         )})`,
  );
  const byRequest = new Map<string, AuditRow[]>(requestIds.map((id) => [id, []]));
  for (const row of res.rows as unknown as AuditRow[]) byRequest.get(row.request_id!)?.push(row);
  return byRequest;
}

/** What is wrong with the audit rows of one answer, given the route's audit class. */
function auditProblems(
  rows: AuditRow[],
  o: {
    cls: AuditClass;
    /** How many rows a success writes (the policy's `auditRows`, 1 by default). */
    count: number;
    res: LightMyRequestResponse;
    caller: Member;
    ip: string;
    hospitalRoute: boolean;
  },
): string[] {
  const problems: string[] = [];
  const { res, caller } = o;
  if (res.statusCode === 401) {
    if (rows.length) problems.push(`401 wrote ${rows.length} audit rows`);
    return problems;
  }
  if (res.statusCode === 403) {
    // The access hook's refusal (`access.denied`), or a module's own refusal row (`consultation.access_denied`).
    const denied = rows.filter((r) => r.outcome === 'denied');
    if (rows.length !== 1 || denied.length !== 1)
      problems.push(`403 wrote ${rows.length} rows (1 refusal expected)`);
    const row = denied[0];
    if (row && row.user_id !== caller.userId) problems.push('refusal row without the caller');
    if (row && row.ip !== o.ip) problems.push(`refusal row IP ${row.ip}`);
    return problems;
  }
  if (res.statusCode >= 300) return problems;
  const expectedRows = o.cls === 'none' ? 0 : o.count;
  if (rows.length !== expectedRows) {
    problems.push(`${o.cls}: ${rows.length} audit rows (${expectedRows} expected)`);
    return problems;
  }
  for (const row of rows) problems.push(...auditRowProblems(row, o));
  return problems;
}

/** What is wrong with one audit row of a successful answer. */
function auditRowProblems(
  row: AuditRow,
  o: { cls: AuditClass; caller: Member; ip: string; hospitalRoute: boolean },
): string[] {
  const problems: string[] = [];
  const { caller } = o;
  if (!row.action) problems.push('row without action');
  if (o.cls !== 'event' && row.outcome !== 'success') problems.push(`row outcome ${row.outcome}`);
  if (row.ip !== o.ip) problems.push(`row IP ${row.ip} (sent from ${o.ip})`);
  const age = Date.now() - new Date(row.occurred_at).getTime();
  if (!(age >= -5000 && age < 120_000)) problems.push(`row time ${String(row.occurred_at)}`);
  if (o.hospitalRoute) {
    if (row.user_id !== caller.userId) problems.push('row without the caller');
    if (row.hospital_id !== world.own.id) problems.push('row without the hospital');
    if (row.role_code !== GROUP_ROLE[caller.group as DashboardGroup])
      problems.push(`row role ${row.role_code}`);
  }
  if (['read', 'search', 'create', 'update', 'cancel'].includes(o.cls) && !row.resource_type)
    problems.push('patient-data row without resource type');
  if (['read', 'create', 'update', 'cancel'].includes(o.cls) && !row.patient_id)
    problems.push(`${o.cls} row without patient`);
  return problems;
}

const fixtureCache = new Map<string, Promise<RequestParts>>();

async function runRoute(route: MatrixRoute) {
  const problems: string[] = [];
  const policy = route.policy!;
  const hospitalRoute = Array.isArray(policy.allow);
  tally.routes += 1;
  const audits: {
    requestId: string;
    where: string;
    c: Case;
    exp: Expected;
    caller: Member;
    res: LightMyRequestResponse;
    ip: string;
  }[] = [];
  for (const c of casesOf(route)) {
    for (const name of CALLERS) {
      const base = world.callers[name];
      const exp = expected(route, base, c);
      const caller = policy.freshCaller && exp.kind !== 'refused' ? await world.freshCaller(name) : base;
      const kit = c === 'other-object' ? world.other : world.own;
      // Refused callers never reach the handler: they share one fixture per case. A read (GET) changes nothing, so
      // the callers it lets through share one fixture per case too, unless the policy builds it for the caller
      // (its request function takes the caller) or wants a fresh caller. Every other request gets fresh rows.
      let parts: RequestParts;
      const shared =
        exp.kind === 'refused'
          ? `${route.key}|${c}|refused`
          : route.method === 'GET' && !policy.freshCaller && (policy.request?.length ?? 0) < 2
            ? `${route.key}|${c}|read`
            : null;
      if (shared) {
        if (!fixtureCache.has(shared)) fixtureCache.set(shared, buildRequest(route, kit, caller));
        parts = await fixtureCache.get(shared)!;
      } else {
        parts = await buildRequest(route, kit, caller);
      }
      const requestId = newRequestId('mx');
      const ip = newIp();
      const res = await send(ctx.app, {
        method: route.method,
        url: urlOf(route, parts),
        token: caller.token,
        hospitalId: c === 'foreign-header' ? world.other.id : world.own.id,
        body: parts.body,
        ...(parts.headers ? { headers: parts.headers } : {}),
        requestId,
        ip,
      });
      await ctx.app.authService.idle();
      tally.requests += 1;
      tally.byCase[c] += 1;
      const where = `${route.key} as ${name} (${c})`;
      const got = `${res.statusCode} ${res.body.slice(0, 200)}`;
      const before = problems.length;

      switch (exp.kind) {
        case 'allowed': {
          const ok =
            exp.status === 'not-refused'
              ? res.statusCode !== 401 && res.statusCode !== 403 && res.statusCode < 500
              : exp.status
                ? res.statusCode === exp.status
                : res.statusCode >= 200 && res.statusCode <= 299;
          if (!ok) problems.push(`${where}: expected ${exp.status ?? '2xx'}, got ${got}`);
          else tally.allowed += 1;
          break;
        }
        case 'refused':
          if (res.statusCode !== exp.status) problems.push(`${where}: expected ${exp.status}, got ${got}`);
          else tally.refused += 1;
          break;
        case 'not-found':
          if (res.statusCode !== 404) problems.push(`${where}: expected 404, got ${got}`);
          else tally.notFound += 1;
          break;
        case 'rejected':
          if (res.statusCode !== 400 && res.statusCode !== 404)
            problems.push(`${where}: expected 400 or 404, got ${got}`);
          else tally.notFound += 1;
          break;
        case 'empty': {
          const body = jsonOf(res) as
            | {
                count?: number;
                results?: unknown[];
                resourceType?: string;
                total?: number;
                entry?: unknown[];
              }
            | undefined;
          // A FHIR search answers an empty searchset Bundle (issue 39).
          const empty =
            body?.resourceType === 'Bundle'
              ? body.total === 0 && (body.entry?.length ?? 0) === 0
              : body?.count === 0 && body.results?.length === 0;
          if (res.statusCode !== 200 || !empty) problems.push(`${where}: expected an empty list, got ${got}`);
          else tally.allowed += 1;
          break;
        }
        case 'ignored':
          if (res.statusCode < 200 || res.statusCode > 299)
            problems.push(`${where}: expected 2xx changing nothing, got ${got}`);
          else tally.allowed += 1;
          break;
      }
      const bodyProblem = designBodyProblem(res, route.key);
      if (bodyProblem) problems.push(`${where}: error body not as in DESIGN §4 (${bodyProblem}): ${got}`);
      // A directory of the installation's hospitals (names and codes, by design) names the other hospital.
      const foreign = policy.directory ? [] : foreignIdsIn(answerText(res, route.key), world.other.secrets);
      if (foreign.length)
        problems.push(`${where}: the answer shows the other hospital's ${foreign.join(', ')}`);

      if (problems.length > before) tally.unexpected += 1;
      audits.push({ requestId, where, c, exp, caller, res, ip });
    }
  }
  // The audit rows each answer left, read once for the route's requests.
  const rowsOf = await auditRowsOf(audits.map((a) => a.requestId));
  for (const { requestId, where, c, exp, caller, res, ip } of audits) {
    const before = problems.length;
    const rows = rowsOf.get(requestId) ?? [];
    tally.auditRows += rows.length;
    if (c === 'own' || exp.kind === 'refused' || !hospitalRoute) {
      for (const p of auditProblems(rows, {
        cls: policy.audit,
        count: policy.auditRows ?? 1,
        res,
        caller,
        ip,
        hospitalRoute,
      }))
        problems.push(`${where}: audit: ${p}`);
    }
    // Nothing about the other hospital is recorded as done (a refused or empty request may be audited).
    if (
      rows.some(
        (r) =>
          r.outcome === 'success' &&
          (r.hospital_id === world.other.id ||
            // A list filtered by another hospital's patient records the filter it was asked, nothing more.
            (exp.kind !== 'empty' && r.patient_id && world.other.secrets.has(r.patient_id))),
      )
    )
      problems.push(`${where}: a success audit row about the other hospital`);
    if (problems.length > before) tally.unexpected += 1;
  }
  return problems;
}

describe('authorization matrix', () => {
  it('has one reviewed policy entry for every route of the app, and no entry without a route', () => {
    const { missing, unused } = coverage(routes);
    expect(missing, 'routes without an entry in src/modules/access-matrix.ts (add one, reviewed)').toEqual(
      [],
    );
    expect(unused, 'entries of src/modules/access-matrix.ts that match no route').toEqual([]);
  });

  it('declares on every route the access the policy expects (same public / signed-in / hospital scope)', () => {
    const mismatched = routes
      .filter((r) => r.policy)
      .filter((r) => {
        const allow = r.policy!.allow;
        const a = r.access;
        if (allow === 'public') return !('public' in a);
        if (allow === 'signed-in') return !('scope' in a) || a.scope !== 'user';
        return !('scope' in a) || a.scope !== 'hospital';
      })
      .map((r) => r.key);
    expect(mismatched).toEqual([]);
  });

  for (const key of Object.keys(ACCESS_MATRIX)) {
    it(`${key}: every caller × tenancy case answers as the policy says`, async () => {
      const matching = routes.filter((r) => r.policyKey === key);
      expect(matching.length, `no route for ${key}`).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const route of matching) problems.push(...(await runRoute(route)));
      expect(problems).toEqual([]);
    }, 180_000);
  }
});

/**
 * The text of an answer to look for the other hospital's ids in. A FHIR searchset Bundle's links are the caller's
 * own request echoed (its `patient=` parameter, issue 39): not data of the other hospital, so left out.
 */
function answerText(res: LightMyRequestResponse, routeKey: string): string {
  if (!routeKey.includes(' /fhir/')) return res.body;
  const body = jsonOf(res) as { resourceType?: string; link?: unknown } | undefined;
  if (body?.resourceType !== 'Bundle') return res.body;
  const { link: _echo, ...rest } = body;
  return JSON.stringify(rest);
}
