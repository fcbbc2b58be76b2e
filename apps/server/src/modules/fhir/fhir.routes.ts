import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { ApiError } from '../../lib/errors.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { errorAnswer } from '../../plugins/errors.js';
import type { SearchRequest } from './fhir.base.js';
import { etagOf, FHIR_JSON, operationOutcome, outcomeOfErrorBody, versionOfIfMatch } from './fhir.bundle.js';
import { capabilityStatement } from './fhir.capability.js';
import { FhirDirectoryService } from './fhir.directory.service.js';
import { FhirLabService } from './fhir.lab.service.js';
import { ADMINISTRATION_READERS, FhirMedicationService } from './fhir.medication.service.js';
import { FhirObservationsService } from './fhir.observations.service.js';
import {
  entryOf,
  type ResourceEntry,
  searchQuerySchema,
  zFhirIdParams,
  zResourceInHeader,
} from './fhir.resources.js';
import { CONDITION_READERS, FhirService } from './fhir.service.js';
import { type FhirObservationIn, ZFhirObservationIn } from './map-observation.js';
import type { FhirPatientIn } from './map-patient.js';

defineMessages({
  'fhir.date_invalid': {
    fr: 'Date de recherche illisible (AAAA, AAAA-MM, AAAA-MM-JJ, précédée de eq, ge, gt, le ou lt).',
    en: 'Unreadable search date (YYYY, YYYY-MM, YYYY-MM-DD, after eq, ge, gt, le or lt).',
  },
  'fhir.family_required': { fr: 'Le nom de famille est obligatoire.', en: 'The family name is required.' },
  'fhir.given_required': { fr: 'Le prénom est obligatoire.', en: 'The given name is required.' },
  'fhir.gender_required': {
    fr: 'Le sexe doit être « male » ou « female ».',
    en: 'The gender must be "male" or "female".',
  },
  'fhir.condition_unsupported': {
    fr: 'Seule la condition « identifier=système|valeur » est prise en charge.',
    en: 'Only the condition "identifier=system|value" is supported.',
  },
  'fhir.condition_ambiguous': {
    fr: 'Plusieurs patients portent cet identifiant : la création conditionnelle est refusée.',
    en: 'Several patients have this identifier: the conditional create is refused.',
  },
  'fhir.duplicates_found': {
    fr: 'Des patients semblables existent déjà : {{ids}}.',
    en: 'Similar patients already exist: {{ids}}.',
  },
  'fhir.id_mismatch': {
    fr: 'L’identifiant de la ressource ne correspond pas à l’adresse.',
    en: 'The resource id does not match the address.',
  },
  'fhir.if_match_required': {
    fr: 'En-tête If-Match obligatoire (version lue, W/"n").',
    en: 'If-Match header required (the version read, W/"n").',
  },
  'fhir.patient_required': {
    fr: 'Le paramètre « patient » est obligatoire.',
    en: 'The "patient" parameter is required.',
  },
});

const access = (
  module: 'patients' | 'admissions' | 'triage' | 'consultations' | 'pharmacy' | 'care' | 'exams' | null,
  roles: readonly DashboardGroup[] | 'any',
) => ({ access: { scope: 'hospital', module, roles } }) as const;

const zIdentifier = z.object({
  system: z.string().max(200).optional(),
  value: z.string().max(100).optional(),
});
const zContactPoint = z.object({
  system: z.string().max(20).optional(),
  value: z.string().max(200).optional(),
});

/**
 * The Patient a client sends (create, update): the elements the endpoint maps, and the ones it accepts and does
 * not keep (`meta`, `text`, `active`). Any other element is refused (400), never silently dropped.
 */
export const ZFhirPatientIn = z.strictObject({
  resourceType: z.literal('Patient'),
  ...zResourceInHeader,
  active: z.boolean().optional(),
  identifier: z.array(zIdentifier).max(10).optional(),
  name: z
    .array(
      z.object({
        use: z.string().max(20).optional(),
        family: z.string().max(100).optional(),
        given: z.array(z.string().max(100)).max(5).optional(),
        text: z.string().max(200).optional(),
      }),
    )
    .max(5)
    .optional(),
  gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
  birthDate: z.string().max(10).optional(),
  telecom: z.array(zContactPoint).max(10).optional(),
  address: z
    .array(
      z.object({
        text: z.string().max(300).optional(),
        line: z.array(z.string().max(200)).max(4).optional(),
        city: z.string().max(100).optional(),
      }),
    )
    .max(3)
    .optional(),
  contact: z
    .array(
      z.object({
        name: z
          .object({
            text: z.string().max(150).optional(),
            family: z.string().max(100).optional(),
            given: z.array(z.string().max(100)).max(5).optional(),
          })
          .optional(),
        telecom: z.array(zContactPoint).max(5).optional(),
      }),
    )
    .max(3)
    .optional(),
  communication: z
    .array(
      z.object({
        language: z.object({
          coding: z
            .array(z.object({ code: z.string().max(20).optional() }))
            .max(5)
            .optional(),
        }),
      }),
    )
    .max(3)
    .optional(),
});

/** The endpoint's base URL as the client reached it (Bundle links, fullUrl). */
const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}/fhir/R4`;

function searchRequest(request: FastifyRequest): SearchRequest {
  const q = request.query as Record<string, string | string[] | undefined> & {
    _count: number;
    _offset: number;
  };
  return {
    baseUrl: baseUrlOf(request),
    url: new URL(request.url, `${request.protocol}://${request.host}`),
    count: q._count,
    offset: q._offset,
    params: q,
  };
}

const fhir = (reply: FastifyReply, status = 200) => reply.status(status).type(FHIR_JSON);

/** The `If-None-Exist` header of a conditional create (`identifier=system|value`), bounded; null without one. */
function ifNoneExistOf(request: FastifyRequest): string | null {
  const header = request.headers['if-none-exist'];
  return typeof header === 'string' ? header.slice(0, 300) : null;
}

/** A create's answer: 201 with the new version's ETag and Location, or 200 with the one a retry found. */
function createdAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  type: string,
  result: { created: boolean; version: number; resource: { id?: string } },
) {
  return fhir(reply, result.created ? 201 : 200)
    .header('etag', etagOf(result.version))
    .header('location', `${baseUrlOf(request)}/${type}/${result.resource.id}/_history/${result.version}`)
    .send(result.resource);
}

/**
 * `/fhir/R4/` (issue 39; docs/fhir.md): routes built from the one table of resources (fhir.resources.ts), the
 * app's sign-in, hospital scope and access policy (access-matrix.ts), every error an OperationOutcome.
 */
export async function fhirRoutes(app: FastifyInstance) {
  const service = new FhirService(app);
  const observations = new FhirObservationsService(app);
  const lab = new FhirLabService(app);
  const medication = new FhirMedicationService(app);
  const directory = new FhirDirectoryService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['fhir'];

  // FHIR clients send `application/fhir+json`: JSON like the rest.
  app.addContentTypeParser(
    'application/fhir+json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        (err as FastifyError).statusCode = 400;
        done(err as FastifyError, undefined);
      }
    },
  );
  // Every error of the endpoint as an OperationOutcome: the API's own answer (status, translated messages).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = errorAnswer(error, request);
    return reply
      .status(status)
      .type(FHIR_JSON)
      .serializer((p) => JSON.stringify(p))
      .send(outcomeOfErrorBody(status, body));
  });
  app.setNotFoundHandler((request, reply) =>
    fhir(reply, 404).send(
      operationOutcome([
        { code: 'not-found', diagnostics: translate(requestLang(request), 'error.route_not_found') },
      ]),
    ),
  );

  r.get(
    '/metadata',
    { config: { access: { public: true } }, schema: { tags, summary: 'FHIR CapabilityStatement' } },
    async (request, reply) =>
      fhir(reply).send(
        capabilityStatement({
          version: app.config.version,
          baseUrl: baseUrlOf(request),
        }),
      ),
  );

  /** Read and search of a type, from its entry in the table. */
  const readAndSearch = (
    entry: ResourceEntry,
    config: ReturnType<typeof access>,
    read: (request: FastifyRequest, id: string) => Promise<object>,
    search?: (request: FastifyRequest, req: SearchRequest, include: boolean) => Promise<object>,
  ) => {
    if (entry.interactions.includes('read'))
      r.get(
        `/${entry.type}/:id`,
        { config, schema: { tags, summary: `Read ${entry.type}`, params: zFhirIdParams } },
        async (request, reply) => fhir(reply).send(await read(request, request.params.id)),
      );
    if (search && entry.interactions.includes('search-type'))
      r.get(
        `/${entry.type}`,
        { config, schema: { tags, summary: `Search ${entry.type}`, querystring: searchQuerySchema(entry) } },
        async (request, reply) => {
          const include = (request.query as { _include?: string })._include !== undefined;
          return fhir(reply).send(await search(request, searchRequest(request), include));
        },
      );
  };

  // —— Patient ——
  const patient = entryOf('Patient');
  r.get(
    '/Patient/:id',
    { config: access('patients', 'any'), schema: { tags, summary: 'Read Patient', params: zFhirIdParams } },
    async (request, reply) => {
      const { resource, version } = await service.readPatient(contextOf(request), request.params.id);
      return fhir(reply).header('etag', etagOf(version)).send(resource);
    },
  );
  r.get(
    '/Patient',
    {
      config: access('patients', 'any'),
      schema: { tags, summary: 'Search Patient', querystring: searchQuerySchema(patient) },
    },
    async (request, reply) =>
      fhir(reply).send(await service.searchPatients(contextOf(request), searchRequest(request))),
  );
  r.post(
    '/Patient',
    {
      config: access('patients', ACTION_GROUPS['patient.register']),
      schema: {
        tags,
        summary: 'Create Patient (conditional with If-None-Exist: identifier=system|value)',
        body: ZFhirPatientIn,
      },
    },
    async (request, reply) => {
      const result = await service.createPatient(
        contextOf(request),
        request.body as FhirPatientIn,
        ifNoneExistOf(request),
      );
      return createdAnswer(request, reply, 'Patient', result);
    },
  );
  r.put(
    '/Patient/:id',
    {
      config: access('patients', ACTION_GROUPS['patient.register']),
      schema: {
        tags,
        summary: 'Update Patient (If-Match required)',
        params: zFhirIdParams,
        body: ZFhirPatientIn,
      },
    },
    async (request, reply) => {
      const header = request.headers['if-match'];
      const expected = typeof header === 'string' ? versionOfIfMatch(header) : null;
      if (expected === null) throw new ApiError(428, 'fhir.if_match_required');
      const result = await service.updatePatient(
        contextOf(request),
        request.params.id,
        request.body as FhirPatientIn,
        expected,
      );
      return fhir(reply).header('etag', etagOf(result.version)).send(result.resource);
    },
  );
  r.get(
    '/Patient/:id/$everything',
    {
      config: access('patients', 'any'),
      schema: {
        tags,
        summary: 'Patient $everything (paged by visits)',
        params: zFhirIdParams,
        querystring: z.object({
          _count: z.coerce.number().int().min(1).max(100).default(20),
          _offset: z.coerce.number().int().min(0).max(100_000).default(0),
        }),
      },
    },
    async (request, reply) =>
      fhir(reply).send(
        await service.everything(contextOf(request), request.params.id, searchRequest(request)),
      ),
  );

  // —— The other resources ——
  readAndSearch(
    entryOf('Encounter'),
    access('admissions', 'any'),
    (request, id) => service.readEncounter(contextOf(request), id),
    (request, req, include) => service.searchEncounters(contextOf(request), req, include),
  );
  readAndSearch(
    entryOf('Observation'),
    access('triage', 'any'),
    (request, id) => observations.readObservation(contextOf(request), id),
    (request, req, include) => observations.searchObservations(contextOf(request), req, include),
  );
  r.post(
    '/Observation',
    {
      // Who records a ward set records an instrument's vital sign (the care module's writers); a laboratory value
      // also needs the exams module and the laboratory's entry rule (the service: 403 otherwise).
      config: access('care', ACTION_GROUPS['care.write']),
      schema: {
        tags,
        summary:
          'Create a vital-sign Observation, or a laboratory value into the patient’s open exam order (conditional with If-None-Exist: identifier=system|value)',
        body: ZFhirObservationIn,
      },
    },
    async (request, reply) => {
      const result = await observations.createObservation(
        contextOf(request),
        request.body as FhirObservationIn,
        ifNoneExistOf(request),
      );
      return createdAnswer(request, reply, 'Observation', result);
    },
  );
  readAndSearch(
    entryOf('Condition'),
    access('consultations', CONDITION_READERS),
    (request, id) => service.readCondition(contextOf(request), id),
    (request, req) => service.searchConditions(contextOf(request), req),
  );
  readAndSearch(
    entryOf('AllergyIntolerance'),
    access('patients', 'any'),
    (request, id) => service.readAllergy(contextOf(request), id),
    (request, req) => service.searchAllergies(contextOf(request), req),
  );
  readAndSearch(entryOf('Organization'), access(null, 'any'), (request, id) =>
    service.readOrganization(contextOf(request), id),
  );
  readAndSearch(
    entryOf('Practitioner'),
    access(null, 'any'),
    (request, id) => directory.readPractitioner(contextOf(request), id),
    (request, req) => directory.searchPractitioners(contextOf(request), req),
  );
  readAndSearch(
    entryOf('MedicationRequest'),
    access('pharmacy', ACTION_GROUPS['prescription.read']),
    (request, id) => medication.readMedicationRequest(contextOf(request), id),
    (request, req) => medication.searchMedicationRequests(contextOf(request), req),
  );
  readAndSearch(
    entryOf('Location'),
    access(null, 'any'),
    (request, id) => directory.readLocation(contextOf(request), id),
    (request, req) => directory.searchLocations(contextOf(request), req),
  );
  readAndSearch(
    entryOf('MedicationAdministration'),
    access('care', ADMINISTRATION_READERS),
    (request, id) => medication.readMedicationAdministration(contextOf(request), id),
    (request, req) => medication.searchMedicationAdministrations(contextOf(request), req),
  );
  readAndSearch(
    entryOf('DiagnosticReport'),
    access('exams', 'any'),
    (request, id) => lab.readDiagnosticReport(contextOf(request), id),
    (request, req) => lab.searchDiagnosticReports(contextOf(request), req),
  );
}
