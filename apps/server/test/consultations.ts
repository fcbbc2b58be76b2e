import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.js';
import { icd10Codes } from '../src/db/schema/index.js';
import { type Actor, admit, createPatient } from './journey.js';

/** The ICD-10 rows the consultation tests use, inserted directly (the catalogue loader is not needed). */
export const TEST_ICD10 = [
  {
    code: 'I',
    kind: 'chapter',
    parentCode: null,
    chapter: 'I',
    fr: 'Certaines maladies infectieuses et parasitaires',
    en: 'Certain infectious and parasitic diseases',
  },
  {
    code: 'B50',
    kind: 'category',
    parentCode: 'B50-B64',
    chapter: 'I',
    fr: 'Paludisme à Plasmodium falciparum',
    en: 'Plasmodium falciparum malaria',
  },
  {
    code: 'B50.9',
    kind: 'code',
    parentCode: 'B50',
    chapter: 'I',
    fr: 'Paludisme à Plasmodium falciparum, sans précision',
    en: 'Plasmodium falciparum malaria, unspecified',
  },
  {
    code: 'B54',
    kind: 'category',
    parentCode: 'B50-B64',
    chapter: 'I',
    fr: 'Paludisme, sans précision',
    en: 'Unspecified malaria',
  },
  {
    code: 'A01.0',
    kind: 'code',
    parentCode: 'A01',
    chapter: 'I',
    fr: 'Fièvre typhoïde',
    en: 'Typhoid fever',
  },
  {
    code: 'I10',
    kind: 'category',
    parentCode: 'I10-I15',
    chapter: 'IX',
    fr: 'Hypertension essentielle (primitive)',
    en: 'Essential (primary) hypertension',
  },
  {
    code: 'J18.9',
    kind: 'code',
    parentCode: 'J18',
    chapter: 'X',
    fr: 'Pneumopathie, sans précision',
    en: 'Pneumonia, unspecified',
  },
] as const;

export async function insertTestIcd10(db: Db) {
  await db
    .insert(icd10Codes)
    .values(
      TEST_ICD10.map((c) => ({
        code: c.code,
        kind: c.kind,
        parentCode: c.parentCode,
        chapter: c.chapter,
        labelFr: c.fr,
        labelEn: c.en,
        common: true,
      })),
    )
    .onConflictDoNothing();
}

export async function call(
  app: FastifyInstance,
  actor: Actor,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: { ...actor.headers, ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/**
 * A visit of a new patient admitted to `department`, assigned to `doctor` by `assigner`, whose consultation
 * `doctor` starts. Returns the consultation and admission ids.
 */
export async function startedConsultation(
  app: FastifyInstance,
  actors: { desk: Actor; assigner: Actor; doctor: Actor },
  department: string,
  type = 'emergency',
  patientOver: Record<string, unknown> = {},
) {
  const patient = await createPatient(app, actors.desk, patientOver);
  const admission = await admit(app, actors.desk, patient.id, department, type);
  const assigned = await call(app, actors.assigner, 'POST', '/api/assign-patient/', {
    admission: admission.id,
    doctor: actors.doctor.id,
  });
  expect(assigned.statusCode, assigned.body).toBe(200);
  const started = await call(
    app,
    actors.doctor,
    'POST',
    `/api/admissions/${admission.id}/start-consultation/`,
  );
  expect(started.statusCode, started.body).toBe(201);
  return { id: started.json().id as string, admission: admission.id, patient: patient.id };
}

/** Saves sections, adds a primary diagnosis and completes with `outcome`. */
export async function completedConsultation(
  app: FastifyInstance,
  doctor: Actor,
  id: string,
  outcome = 'discharge',
  extra: Record<string, unknown> = {},
) {
  const current = (await call(app, doctor, 'GET', `/api/consultations/${id}/`)).json();
  const saved = await call(app, doctor, 'PATCH', `/api/consultations/${id}/`, {
    version: current.version,
    conclusion: 'Accès palustre simple',
    outcome,
    ...extra,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const dx = await call(app, doctor, 'POST', `/api/consultations/${id}/diagnoses/`, {
    icd_code: 'B50.9',
    rank: 'primary',
  });
  expect(dx.statusCode, dx.body).toBe(201);
  const done = await call(app, doctor, 'POST', `/api/consultations/${id}/complete/`, {});
  expect(done.statusCode, done.body).toBe(200);
  return done.json();
}

/** The audit rows of a consultation. */
export async function auditOf(db: Db, consultationId: string) {
  const res = await db.execute<{ action: string; outcome: string; user_id: string }>(
    sql`select action, outcome, user_id from audit_events where resource_id = ${consultationId} order by occurred_at, id`,
  );
  return res.rows;
}
