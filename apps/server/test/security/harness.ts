import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { z } from 'zod';
import {
  ACCESS_MATRIX,
  type Caller,
  type HospitalKit,
  type RequestParts,
  type RoutePolicy,
} from '../../src/modules/access-matrix.js';
import type { PolicedRoute } from '../../src/plugins/access.js';
import { queryOf, sampleOf } from './zod-sample.js';

/** A route of the app's own table with its entry in the reviewed policy (null when it has none). */
export interface MatrixRoute extends PolicedRoute {
  key: string;
  policyKey: string | null;
  policy: RoutePolicy | null;
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
}

/** The policy entry of `METHOD url`: exact, else the longest `prefix*` entry that covers it. */
export function policyKeyFor(method: string, url: string): string | null {
  const exact = `${method} ${url}`;
  if (ACCESS_MATRIX[exact]) return exact;
  let best: string | null = null;
  for (const key of Object.keys(ACCESS_MATRIX)) {
    if (!key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (exact.startsWith(prefix) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

/**
 * The app's /api routes (from the access plugin's onRoute registry), HEAD twins left out: Fastify adds them to
 * GET routes with the same hooks, so they get the same answers.
 */
export function collectRoutes(app: FastifyInstance): MatrixRoute[] {
  return app.apiRoutes
    .filter((r) => r.method !== 'HEAD')
    .map((r) => {
      const policyKey = policyKeyFor(r.method, r.url);
      const schema = (r.schema ?? {}) as { body?: z.ZodType; querystring?: z.ZodType; params?: z.ZodType };
      return {
        ...r,
        key: `${r.method} ${r.url}`,
        policyKey,
        policy: policyKey ? ACCESS_MATRIX[policyKey]! : null,
        ...(schema.body ? { body: schema.body } : {}),
        ...(schema.querystring ? { querystring: schema.querystring } : {}),
        ...(schema.params ? { params: schema.params } : {}),
      };
    });
}

/** Routes with no policy entry, and entries that cover no route: both fail the suite. */
export function coverage(routes: MatrixRoute[]) {
  const missing = routes.filter((r) => !r.policy).map((r) => suggestEntry(r));
  const used = new Set(routes.map((r) => r.policyKey));
  const unused = Object.keys(ACCESS_MATRIX).filter((k) => !used.has(k));
  return { missing, unused };
}

/** What to add to access-matrix.ts for a new route (its declared access, to be reviewed). */
function suggestEntry(r: MatrixRoute): string {
  const a = r.access;
  const allow =
    'public' in a
      ? "'public'"
      : a.scope === 'user'
        ? "'signed-in'"
        : a.roles === 'any'
          ? 'ALL'
          : `[${a.roles.map((g) => `'${g}'`).join(', ')}]`;
  return `'${r.key}': { allow: ${allow}, audit: '…' }`;
}

/** Hints for generated bodies and queries: fields that name a row get the kit's rows. */
export function kitHint(kit: HospitalKit) {
  return (key: string): unknown => {
    switch (key) {
      case 'patient':
        return kit.standing.patient;
      case 'admission':
        return kit.standing.admission;
      case 'department':
        return kit.departments.URG;
      case 'doctor':
        return kit.staff.doctor;
      case 'consultation':
        return kit.standing.consultation;
      default:
        return undefined;
    }
  };
}

/** The request of a route for a caller on `kit`'s rows: the policy's fixture, the rest generated. */
export async function buildRequest(
  route: MatrixRoute,
  kit: HospitalKit,
  caller: Caller,
): Promise<RequestParts> {
  const parts: RequestParts = { ...((await route.policy?.request?.(kit, caller)) ?? {}) };
  if (route.params && !parts.params) {
    const generated = sampleOf(route.params, { hint: kitHint(kit) }) as Record<string, string>;
    parts.params = generated;
  }
  if (route.body && parts.body === undefined) parts.body = sampleOf(route.body, { hint: kitHint(kit) });
  if (route.querystring && !parts.query) parts.query = queryOf(sampleOf(route.querystring, {}));
  return parts;
}

/**
 * Percent-encodes a path segment; a lone surrogate (which encodeURIComponent refuses) becomes the bytes of its
 * code unit, so the server sees the malformed UTF-8 a hostile client would send.
 */
export function encodeSegment(v: string): string {
  let out = '';
  for (const ch of v) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

export function urlOf(route: { url: string }, parts: RequestParts): string {
  let url = route.url.replace(/:(\w+)/g, (_, name: string) => {
    const v = parts.params?.[name];
    if (v === undefined) throw new Error(`no value for :${name} of ${route.url}`);
    return encodeSegment(v);
  });
  const q = new URLSearchParams(parts.query ?? {}).toString();
  if (q) url += `?${q}`;
  return url;
}

let requestSerial = 0;
/** A request id the app keeps (x-request-id), unique in the run: the audit rows of one request are found by it. */
export const newRequestId = (tag = 'sec') =>
  `${tag}-${(requestSerial++).toString(36)}-${randomBytes(6).toString('hex')}`;
/** A distinct client address per request: per-IP limits never mix requests, and the audit row's IP is known. */
export const newIp = () => `10.${[0, 0, 0].map(() => 1 + (randomBytes(1)[0]! % 250)).join('.')}`;

export interface SendOptions {
  method: string;
  url: string;
  token?: string | null;
  hospitalId?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  requestId?: string;
  ip?: string;
}

export function send(app: FastifyInstance, o: SendOptions) {
  const headers: Record<string, string> = { 'x-request-id': o.requestId ?? newRequestId(), ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.hospitalId) headers['hospital-id'] = o.hospitalId;
  return app.inject({
    method: o.method as 'GET',
    url: o.url,
    headers,
    remoteAddress: o.ip ?? newIp(),
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
}

export function jsonOf(res: LightMyRequestResponse): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown) =>
  Array.isArray(v) && v.every((m) => typeof m === 'string' && m.length > 0);

/**
 * Why an error answer does not have the body of DESIGN §4, or null when it does:
 * 400 `{field: ["message"], non_field_errors: [...]}`; 401 `{detail, code}`; other 4xx and 503 `{detail}`.
 * Two answers of the specification keep their own documented shape: the verification link (`400 {error}`) and
 * the unlock attempts (`400 {pin|password: [...], attempts_left}`); a 409 of a registration carries the
 * probable `duplicates`, a stale consultation draft the current `version`.
 */
export function designBodyProblem(res: LightMyRequestResponse, routeKey = ''): string | null {
  if (res.statusCode < 400) return null;
  if (routeKey.includes(' /fhir/')) return operationOutcomeProblem(res);
  if (!/^application\/json/.test(String(res.headers['content-type'] ?? '')))
    return `content-type ${res.headers['content-type']}`;
  const body = jsonOf(res);
  if (!isObject(body)) return 'not a JSON object';
  if (res.statusCode === 400) {
    if (routeKey === 'GET /api/verify-email/:uid/:token/' && typeof body.error === 'string') return null;
    const entries = Object.entries(body).filter(
      ([k]) => !(k === 'attempts_left' && typeof body[k] === 'number'),
    );
    if (entries.length === 0) return '400 without field errors';
    for (const [k, v] of entries) if (!isStringList(v)) return `400 field ${k} is not a list of messages`;
    return null;
  }
  if (typeof body.detail !== 'string' || body.detail.length === 0) return `${res.statusCode} without detail`;
  // 409s may carry what resolves them: a registration's probable `duplicates`, a stale draft's current `version`.
  const allowed = new Set(['detail', 'code', ...(res.statusCode === 409 ? ['duplicates', 'version'] : [])]);
  const extra = Object.keys(body).filter((k) => !allowed.has(k));
  if (extra.length) return `${res.statusCode} with extra keys ${extra.join(',')}`;
  if (res.statusCode === 401 && typeof body.code !== 'string') return '401 without code';
  return null;
}

/**
 * The FHIR endpoint (issue 39) answers its errors as OperationOutcomes (`application/fhir+json`): why one is not,
 * or null.
 */
function operationOutcomeProblem(res: LightMyRequestResponse): string | null {
  if (!/^application\/fhir\+json/.test(String(res.headers['content-type'] ?? '')))
    return `content-type ${res.headers['content-type']}`;
  const body = jsonOf(res);
  if (!isObject(body) || body.resourceType !== 'OperationOutcome') return 'not an OperationOutcome';
  const issues = body.issue;
  if (!Array.isArray(issues) || issues.length === 0) return 'OperationOutcome without issues';
  for (const i of issues)
    if (
      !isObject(i) ||
      i.severity !== 'error' ||
      typeof i.code !== 'string' ||
      typeof i.diagnostics !== 'string'
    )
      return 'OperationOutcome issue without severity, code or diagnostics';
  return null;
}

/** Internals that an error answer must never show: stack frames, file paths, SQL and driver messages. */
const LEAKS: RegExp[] = [
  /\bat [\w$.<>]+ \(/,
  /\(\/[^)]*:\d+:\d+\)/,
  /node_modules/,
  /\/(src|dist)\/[\w/.-]+\.[jt]s/,
  /\b(select|insert|update|delete)\b[\s\S]{0,80}\b(from|into|set|where)\b/i,
  /syntax error/i,
  /violates .* constraint/i,
  /duplicate key/i,
  /\brelation "/i,
  /\bSQLSTATE\b/i,
  /pglite|drizzle|node-postgres|\bpg_/i,
  /\b[A-Z][A-Za-z]*Error\b/,
  /\bECONN[A-Z]+\b/,
];

export function leakIn(text: string): string | null {
  for (const re of LEAKS) {
    const m = re.exec(text);
    if (m) return m[0];
  }
  return null;
}

/** The other hospital's ids (and record numbers) found in a response text. */
export function foreignIdsIn(text: string, secrets: Set<string>): string[] {
  const found: string[] = [];
  for (const s of secrets) if (text.includes(s)) found.push(s);
  return found;
}
