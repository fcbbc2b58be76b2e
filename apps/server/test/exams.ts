/**
 * Test fixture of the exam suites: a hospital with its laboratory and imaging
 * departments, actors per role and department, patients, consultations and orders.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { departments } from '../src/db/schema/index.js';
import { ensureExamCatalogue } from '../src/modules/exams/exam-catalogue.js';
import type { TestContext } from './app.js';
import { authHeaders, makeUser, tokenFor } from './factories.js';
import { type Actor, admit, createPatient, journeyHospital, type Role } from './journey.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

export async function examHospital(ctx: TestContext, over: { code?: string } = {}) {
  await ensureExamCatalogue(ctx.database.db);
  const base = await journeyHospital(ctx, over);
  const extra = await ctx.database.db
    .insert(departments)
    .values([
      { hospitalId: base.hospital.id, code: 'LAB', name: 'Laboratoire', kind: 'laboratory' as const },
      { hospitalId: base.hospital.id, code: 'IMG', name: 'Imagerie', kind: 'imaging' as const },
    ])
    .returning();
  const all = [...base.hospital.departments, ...extra];
  const dep = (code: string) => all.find((d) => d.code === code)!;
  async function as(role: Role, departmentCode = 'URG', language: 'fr' | 'en' = 'fr'): Promise<Actor> {
    const user = await makeUser(ctx.database.db, {
      role,
      language,
      hospitals: [{ id: base.hospital.id, departmentId: dep(departmentCode).id }],
    });
    const token = await tokenFor(ctx.config.jwtSecret, user);
    return { id: user.id, headers: authHeaders(token, base.hospital.id) };
  }
  return { hospital: base.hospital, dep, as };
}

export function request(
  ctx: TestContext,
  actor: Actor,
  method: Method,
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    headers: actor.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

export interface OrderJson {
  id: string;
  order_number: string;
  status: string;
  patient: { id: string; full_name: string; record_number: string };
  version: number;
  abnormal: boolean;
  urgency: string;
  actions: string[];
  results: Record<string, { value: unknown; flag: string | null }> | null;
  result_lines: { key: string; flag: string | null; reference: string | null; value: unknown }[];
  [k: string]: unknown;
}

/** Orders exams and returns the created orders (201 expected). */
export async function orderExams(
  ctx: TestContext,
  doctor: Actor,
  body: Record<string, unknown>,
): Promise<OrderJson[]> {
  const res = await request(ctx, doctor, 'POST', '/api/exams/', { urgency: 'routine', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { orders: OrderJson[] }).orders;
}

/** A patient of the hospital with an open consultation of `doctor` (assigned by the queue manager). */
export async function consultationFor(
  ctx: TestContext,
  h: Awaited<ReturnType<typeof examHospital>>,
  actors: { secretary: Actor; queueManager: Actor; doctor: Actor },
  patientOver: Record<string, unknown> = {},
) {
  const patient = await createPatient(ctx.app, actors.secretary, patientOver);
  const admission = await admit(ctx.app, actors.secretary, patient.id, h.dep('URG').id);
  const assigned = await request(ctx, actors.queueManager, 'POST', '/api/assign-patient/', {
    admission: admission.id,
    doctor: actors.doctor.id,
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  const started = await request(
    ctx,
    actors.doctor,
    'POST',
    `/api/admissions/${admission.id}/start-consultation/`,
  );
  expect(started.statusCode, started.body).toBe(201);
  return { patient, admission, consultation: started.json() as { id: string } };
}

export async function notificationsOf(ctx: TestContext, userId: string) {
  const res = await ctx.database.db.execute<{
    notification_type: string;
    title: string;
    message: string;
    data: Record<string, unknown>;
    initiated_by: string | null;
  }>(
    sql`select notification_type, title, message, data, initiated_by from notifications
      where recipient_id = ${userId} order by created_at, id`,
  );
  return res.rows;
}
