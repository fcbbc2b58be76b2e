import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACCESS_MATRIX, type RequestParts, type RoutePolicy } from '../../src/modules/access-matrix.js';
import { createTestApp, type TestContext } from '../app.js';
import { TEST_DB_KIND } from '../database.js';
import {
  buildRequest,
  collectRoutes,
  designBodyProblem,
  leakIn,
  type MatrixRoute,
  newIp,
  newRequestId,
  send,
  urlOf,
} from './harness.js';
import { runs, SEED } from './runs.js';
import { buildWorld, type Member, type World } from './world.js';
import { objectShape } from './zod-sample.js';

/**
 * Fuzzed input (issue 8): for every route with a body, query or path schema, generated malformed inputs — wrong
 * types, huge strings, unicode and NUL, nulls, SQL and script payloads, deep nesting, non-JSON content types —
 * never give a 5xx nor show internals, and always answer with the error body of DESIGN §4. Enumerated sort and
 * filter parameters refuse any value off their allow-list. Cases per route are bounded; the seed is printed.
 */

const tally = { routes: 0, cases: 0, byStatus: new Map<number, number>() };
let ctx: TestContext;
let world: World;
let routes: MatrixRoute[];

beforeAll(async () => {
  ctx = await createTestApp(process.env.FUZZ_LOG ? { logLevel: 'error' } : {});
  world = await buildWorld(ctx);
  routes = collectRoutes(ctx.app);
}, 120_000);

afterAll(async () => {
  const statuses = [...tally.byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const fivexx = [...tally.byStatus.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(
    `[security] fuzzing (${TEST_DB_KIND}, seed ${SEED}): ${tally.routes} routes, ${tally.cases} malformed ` +
      `requests, ${fivexx} answered 5xx; statuses ${statuses}`,
  );
  await ctx?.close();
});

const SQL_AND_SCRIPTS = [
  "' OR '1'='1",
  "'; DROP TABLE patients; --",
  '" OR ""="',
  '1; SELECT pg_sleep(3); --',
  "admin'--",
  '1) OR (1=1',
  "%' AND 1=CAST((SELECT version()) AS int) --",
  '$$; DROP TABLE audit_events; $$',
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("alert(1)")()}}',
  `\${7*7}`,
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  'a\u0000b',
  '\u202eevil',
  '\ud83c',
  '𝕳𝖔𝖘𝖕𝖎𝖙𝖆𝖑 🏥',
  'e\u0301',
  '\r\nX-Injected: 1',
  ' ',
  '',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x1F',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  'true',
];

function nest(depth: number, arrays: boolean): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
}

/** Malformed JSON values for a body field or a whole body. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL_AND_SCRIPTS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      -0.5,
      1.5,
      2 ** 53,
      -(2 ** 63),
      1e308,
      [],
      {},
      [[]],
      { $gt: '' },
      { $ne: null },
      ['a', 'b'],
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'é'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 20, max: 3000 }), fc.boolean()).map(([d, a]) => nest(d, a)),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** The same, as text (query strings, path segments, headers). */
const nastyText = nasty.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))));

const MALFORMED_JSON = ['{', '{"a":', '[1,2', '{"a":1}}', "{'a':1}", '{"a":NaN}', 'nul', '"\\u00"', '\u0000'];
/** Routes that take a multipart form (a file upload) instead of JSON. */
const MULTIPART_ROUTES = new Set([
  'POST /api/patient-documents/',
  'POST /api/dictation/transcriptions/',
  'POST /api/chat/conversations/:id/attachments/',
]);

const NON_JSON_TYPES: Array<[string, string]> = [
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'first_name=a&last_name=b'],
  [
    'multipart/form-data; boundary=xyz',
    '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--',
  ],
  ['application/xml', '<a>1</a>'],
  ['text/html', '<b>x</b>'],
  ['application/octet-stream', 'AAAA'],
  ['application/json-patch+json', '[]'],
];

async function callerFor(policy: RoutePolicy): Promise<Member> {
  if (policy.allow === 'public') return world.callers.anonymous;
  const group = policy.allow === 'signed-in' ? 'nurse' : policy.allow[0]!;
  return policy.freshCaller ? world.freshCaller(group) : world.callers[group];
}

interface Attempt {
  url: string;
  body?: unknown;
  payload?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

describe('fuzzed input', () => {
  for (const [key, policy] of Object.entries(ACCESS_MATRIX)) {
    it(`${key}: malformed input never gives a 5xx, internals or another error shape`, async () => {
      const matching = routes.filter((r) => r.policyKey === key);
      expect(matching.length, `no route for ${key}`).toBeGreaterThan(0);
      for (const route of matching) {
        if (!route.body && !route.querystring && !route.params && route.method === 'GET') continue;
        tally.routes += 1;
        let caller = await callerFor(policy);
        const valid = await buildRequest(route, world.own, caller);
        const failures: string[] = [];

        const attempt = async (a: Attempt, expectStatus?: number) => {
          tally.cases += 1;
          // A route that changes the caller's account (a fuzzed body may be a valid password change): a new
          // caller for every attempt, so that no attempt answers for the one before.
          if (policy.freshCaller) caller = await callerFor(policy);
          // A route that changes its hospital (a fuzzed body may deactivate it): a new hospital for every attempt,
          // named by the header and by the path where the valid request named the world's own.
          const hospital = policy.scratchHospital ? await world.scratchHospital() : world.own.id;
          const url = a.url.replaceAll(world.own.id, hospital);
          const headers: Record<string, string> = { ...a.headers };
          if (a.contentType) headers['content-type'] = a.contentType;
          const res = await send(ctx.app, {
            method: route.method,
            url,
            token: caller.token,
            hospitalId: headers['hospital-id'] ? null : hospital,
            headers,
            requestId: newRequestId('fz'),
            ip: newIp(),
            ...(a.payload !== undefined ? { body: a.payload } : a.body !== undefined ? { body: a.body } : {}),
          });
          tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
          const what = `${route.method} ${a.url.slice(0, 120)} ${JSON.stringify(a.body ?? a.payload ?? '').slice(0, 120)}`;
          if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (expectStatus && res.statusCode !== expectStatus)
            failures.push(
              `${what}: expected ${expectStatus}, got ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          const shape = designBodyProblem(res, route.key);
          if (shape) failures.push(`${what}: ${shape}: ${res.body.slice(0, 200)}`);
          const leak = res.statusCode >= 400 ? leakIn(res.body) : null;
          if (leak) failures.push(`${what}: shows "${leak}": ${res.body.slice(0, 200)}`);
          return res.statusCode;
        };
        const validUrl = urlOf(route, valid);

        // Bodies: fields replaced, removed, or the whole body replaced.
        if (route.body) {
          const base = (valid.body ?? {}) as Record<string, unknown>;
          const keys = Object.keys(objectShape(route.body) ?? {});
          const fieldKeys = keys.length ? keys : ['x'];
          const bodyArb = fc.oneof(
            fc
              .dictionary(fc.constantFrom(...fieldKeys), nasty, { minKeys: 1, maxKeys: 3 })
              .map((d) => ({ ...base, ...d })),
            fc.constantFrom(...fieldKeys).map((k) => {
              const { [k]: _, ...rest } = base;
              return rest;
            }),
            nasty,
          );
          await fc.assert(
            fc.asyncProperty(bodyArb, async (body) => {
              await attempt({ url: validUrl, body: body === undefined ? null : body });
            }),
            { numRuns: runs(20), seed: SEED },
          );
        }

        // Bodies that are not JSON, or not valid JSON.
        if (route.method !== 'GET') {
          for (const payload of MALFORMED_JSON)
            await attempt({ url: validUrl, payload, contentType: 'application/json' }, 400);
          // The upload routes take multipart forms: a form without their fields is a 400 there.
          for (const [type, payload] of NON_JSON_TYPES)
            await attempt(
              { url: validUrl, payload, contentType: type },
              MULTIPART_ROUTES.has(key) && type.startsWith('multipart/') ? 400 : 415,
            );
          await attempt(
            { url: validUrl, payload: `{"a":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' },
            413,
          );
        }

        // Query strings: known and unknown parameters, repeated, with malformed values.
        if (route.querystring || route.method === 'GET') {
          const known = Object.keys(objectShape(route.querystring) ?? {});
          const names = [
            ...new Set([...known, 'ordering', 'sort', 'order_by', 'filter', 'page', 'page_size', 'id']),
          ];
          const queryArb = fc.tuple(
            fc.dictionary(fc.constantFrom(...names), nastyText, { minKeys: 1, maxKeys: 3 }),
            fc.boolean(),
          );
          await fc.assert(
            fc.asyncProperty(queryArb, async ([q, repeat]) => {
              const search = new URLSearchParams(valid.query ?? {});
              for (const [k, v] of Object.entries(q)) {
                const text = v.slice(0, 20_000);
                if (repeat) search.append(k, text);
                else search.set(k, text);
              }
              await attempt({ url: `${urlOf(route, { ...valid, query: {} })}?${search}` });
            }),
            { numRuns: runs(12), seed: SEED },
          );
        }

        // Path parameters: every id replaced by malformed text (overlong ones included).
        if (route.params) {
          const names = Object.keys(objectShape(route.params) ?? {});
          const paramArb = fc.tuple(
            fc.constantFrom(...names),
            fc.oneof(
              nastyText,
              fc.integer({ min: 490, max: 2000 }).map((n) => 'a'.repeat(n)),
            ),
          );
          await fc.assert(
            fc.asyncProperty(paramArb, async ([name, value]) => {
              const parts: RequestParts = {
                ...valid,
                params: { ...valid.params, [name]: value.slice(0, 5000) },
              };
              await attempt({ url: urlOf(route, parts), body: valid.body });
            }),
            { numRuns: runs(10), seed: SEED },
          );
        }

        // Headers of hospital routes: Hospital-ID and Accept-Language of any shape.
        if (Array.isArray(policy.allow)) {
          const headerText = nastyText.filter((v) => /^[\x20-\x7e]{1,4000}$/.test(v));
          await fc.assert(
            fc.asyncProperty(headerText, headerText, async (hospital, language) => {
              await attempt({
                url: validUrl,
                body: valid.body,
                headers: { 'hospital-id': hospital, 'accept-language': language },
              });
            }),
            { numRuns: runs(5), seed: SEED },
          );
        }

        expect(failures).toEqual([]);
      }
    }, 180_000);
  }

  it('answers every payload of the list in every search box without a 5xx (deterministic)', async () => {
    const failures: string[] = [];
    let searched = 0;
    for (const route of routes) {
      if (route.method !== 'GET' || !route.policy || !objectShape(route.querystring)?.search) continue;
      searched += 1;
      const caller = await callerFor(route.policy);
      const valid = await buildRequest(route, world.own, caller);
      for (const payload of [...SQL_AND_SCRIPTS, 'Mbuyi\ud83c', '𝕳𝖔𝖘', 'a🏥b', 'Ñoël-Ngoy']) {
        const search = new URLSearchParams(valid.query ?? {});
        search.set('search', payload);
        const res = await send(ctx.app, {
          method: 'GET',
          url: `${urlOf(route, { ...valid, query: {} })}?${search}`,
          token: caller.token,
          hospitalId: world.own.id,
        });
        tally.cases += 1;
        tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500 || designBodyProblem(res, route.key))
          failures.push(
            `${route.key} ?search=${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    expect(searched).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps sort and filter parameters on their allow-lists: any other value is a 400 on that parameter', async () => {
    const checked: string[] = [];
    const failures: string[] = [];
    for (const route of routes) {
      if (route.method !== 'GET' || !route.querystring || !route.policy) continue;
      const shape = objectShape(route.querystring) ?? {};
      const caller = await callerFor(route.policy);
      const valid = await buildRequest(route, world.own, caller);
      for (const [name, schema] of Object.entries(shape)) {
        if (!enumerated(schema)) continue;
        for (const value of ['id; DROP TABLE patients', '-password_hash', 'hospital_id', '__proto__']) {
          const search = new URLSearchParams(valid.query ?? {});
          search.set(name, value);
          const res = await send(ctx.app, {
            method: 'GET',
            url: `${urlOf(route, { ...valid, query: {} })}?${search}`,
            token: caller.token,
            hospitalId: world.own.id,
          });
          tally.cases += 1;
          checked.push(`${route.key} ${name}`);
          const body = res.statusCode === 400 ? (JSON.parse(res.body) as Record<string, unknown>) : {};
          // The FHIR endpoint's 400 is an OperationOutcome: the parameter is an issue's expression.
          const fields =
            body.resourceType === 'OperationOutcome'
              ? (body.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? [])
              : Object.keys(body);
          if (res.statusCode !== 400 || !fields.some((k) => k === name || k.startsWith(`${name}.`)))
            failures.push(`${route.key} ?${name}=${value}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
    }
    console.log(`[security] allow-listed sort/filter parameters: ${new Set(checked).size} checked`);
    expect(checked.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  }, 120_000);
});

/** Whether a query parameter only takes values from a list (an enum, possibly a comma list of them). */
function enumerated(schema: z.ZodType): boolean {
  const seen = new Set<unknown>();
  const walk = (s: z.ZodType | undefined): boolean => {
    if (!s || seen.has(s)) return false;
    seen.add(s);
    const def = (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    switch (def.type) {
      case 'enum':
      case 'literal':
        return true;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'catch':
        return walk(def.innerType as z.ZodType);
      case 'pipe':
        return walk(def.in as z.ZodType) || walk(def.out as z.ZodType);
      case 'array':
        return walk(def.element as z.ZodType);
      case 'union':
        return (def.options as z.ZodType[]).every((o) => walk(o));
      default:
        return false;
    }
  };
  return walk(schema);
}
