import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from './app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from './factories.js';

export type Role =
  | 'SECRETARY'
  | 'QUEUE_MANAGER'
  | 'NURSE'
  | 'DOCTOR'
  | 'HEAD_DOCTOR'
  | 'SAGE_FEMME'
  | 'ADMIN';

/** A hospital with its three departments and a helper to act as a user of a given role there. */
export async function journeyHospital(
  ctx: TestContext,
  over: { triageScale?: 'FRENCH' | 'SATS'; code?: string } = {},
) {
  const db = ctx.database.db;
  const hospital = await makeHospital(db, over);
  const dep = (code: string) => hospital.departments.find((d) => d.code === code)!;
  async function as(role: Role, departmentCode = 'URG') {
    const user = await makeUser(db, {
      role,
      hospitals: [{ id: hospital.id, departmentId: dep(departmentCode).id }],
    });
    const token = await tokenFor(ctx.config.jwtSecret, user);
    return { id: user.id, headers: authHeaders(token, hospital.id) };
  }
  return { hospital, dep, as };
}

export type Actor = { id: string; headers: Record<string, string> };

export async function call(
  app: FastifyInstance,
  actor: Actor,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: actor.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

const SYLLABLES =
  'ba ko mi tu se da ne fo gi lu pa ri vo ze ha jo ky wa be co di fu ga ho ju ka le mo nu pe qi ra'.split(
    ' ',
  );

/**
 * The n-th made-up name (four syllables from a hash of n and `salt`): names of different n share few trigrams
 * (at most 0.38 similarity over the first 1,000), so that no two test patients look like duplicates of each
 * other, even with the same birth date, however many a run has made (the counter is shared by every file a
 * worker runs).
 */
function madeUpName(n: number, salt: number): string {
  let x = (n * 2 + salt) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  let name = '';
  for (let i = 0; i < 4; i++) {
    name += SYLLABLES[x % 32];
    x = Math.floor(x / 32);
  }
  return name.charAt(0).toUpperCase() + name.slice(1);
}

let n = 0;
export async function createPatient(app: FastifyInstance, actor: Actor, over: Record<string, unknown> = {}) {
  n += 1;
  const res = await call(app, actor, 'POST', '/api/patients/', {
    first_name: madeUpName(n, 0),
    last_name: madeUpName(n, 1),
    sex: 'F',
    birth_date: `19${String(50 + (n % 49)).padStart(2, '0')}-0${1 + (n % 9)}-1${n % 9}`,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; record_number: string; [k: string]: unknown };
}

export async function admit(
  app: FastifyInstance,
  actor: Actor,
  patient: string,
  department: string,
  type = 'emergency',
) {
  const res = await call(app, actor, 'POST', '/api/admissions/', {
    patient,
    department,
    admission_type: type,
    reason: 'Fièvre',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; queue_number: number; status: string; [k: string]: unknown };
}
