import { z } from 'zod';

/**
 * The one table of what the FHIR endpoint implements (issue 39): the router builds its routes and their query
 * schemas from it, and `GET /fhir/R4/metadata` states it, so that the CapabilityStatement cannot drift from the
 * code. Adding a resource or a search parameter here without its code makes the route tests fail.
 */
export type SearchParamType = 'token' | 'string' | 'date' | 'reference';

export interface SearchParam {
  name: string;
  type: SearchParamType;
  documentation: string;
}

export interface ResourceEntry {
  type:
    | 'Patient'
    | 'Encounter'
    | 'Observation'
    | 'Condition'
    | 'AllergyIntolerance'
    | 'Organization'
    | 'Practitioner'
    | 'Location'
    | 'MedicationRequest'
    | 'MedicationAdministration'
    | 'DiagnosticReport';
  interactions: readonly ('read' | 'search-type' | 'create' | 'update')[];
  search: readonly SearchParam[];
  /** `_include` values accepted on this type's search. */
  includes: readonly string[];
  conditionalCreate?: true;
  /** Update requires `If-Match` with the current version (412 otherwise). */
  versionedUpdate?: true;
  operations?: readonly { name: string; definition: string }[];
}

const LAST_UPDATED: SearchParam = {
  name: '_lastUpdated',
  type: 'date',
  documentation: 'meta.lastUpdated, with the prefixes eq, ge, gt, le, lt',
};
const PATIENT_REF: SearchParam = {
  name: 'patient',
  type: 'reference',
  documentation: 'Patient/{id} or {id}',
};

export const FHIR_RESOURCES: readonly ResourceEntry[] = [
  {
    type: 'Patient',
    interactions: ['read', 'search-type', 'create', 'update'],
    search: [
      {
        name: 'identifier',
        type: 'token',
        documentation: 'record number (system per hospital) or national id: system|value or value',
      },
      {
        name: 'name',
        type: 'string',
        documentation: 'accent- and typo-tolerant, as the app’s patient search',
      },
      { name: 'family', type: 'string', documentation: 'searched with the app’s name search' },
      { name: 'given', type: 'string', documentation: 'searched with the app’s name search' },
      { name: 'birthdate', type: 'date', documentation: 'eq, ge, gt, le, lt' },
      { name: 'gender', type: 'token', documentation: 'male | female' },
      LAST_UPDATED,
    ],
    includes: [],
    conditionalCreate: true,
    versionedUpdate: true,
    operations: [
      { name: 'everything', definition: 'http://hl7.org/fhir/OperationDefinition/Patient-everything' },
    ],
  },
  {
    type: 'Encounter',
    interactions: ['read', 'search-type'],
    search: [
      PATIENT_REF,
      { name: 'date', type: 'date', documentation: 'the admission time: eq, ge, gt, le, lt' },
      {
        name: 'status',
        type: 'token',
        documentation: 'arrived | triaged | in-progress | finished | cancelled',
      },
      { name: 'class', type: 'token', documentation: 'AMB | EMER | IMP (v3 ActCode)' },
      LAST_UPDATED,
    ],
    includes: ['Encounter:patient'],
  },
  {
    type: 'Observation',
    interactions: ['read', 'search-type', 'create'],
    search: [
      PATIENT_REF,
      { name: 'category', type: 'token', documentation: 'vital-signs | laboratory' },
      {
        name: 'code',
        type: 'token',
        documentation:
          'LOINC code of a vital sign or of a catalogue analyte: http://loinc.org|718-7 or 718-7',
      },
      { name: 'date', type: 'date', documentation: 'effectiveDateTime: eq, ge, gt, le, lt' },
      LAST_UPDATED,
    ],
    includes: ['Observation:patient'],
    conditionalCreate: true,
  },
  {
    type: 'Condition',
    interactions: ['read', 'search-type'],
    search: [PATIENT_REF, LAST_UPDATED],
    includes: [],
  },
  {
    type: 'AllergyIntolerance',
    interactions: ['read', 'search-type'],
    search: [PATIENT_REF],
    includes: [],
  },
  { type: 'Organization', interactions: ['read'], search: [], includes: [] },
  {
    type: 'Practitioner',
    interactions: ['read', 'search-type'],
    search: [{ name: 'name', type: 'string', documentation: 'part of the name, accents and case ignored' }],
    includes: [],
  },
  {
    type: 'Location',
    interactions: ['read', 'search-type'],
    search: [
      { name: 'name', type: 'string', documentation: 'part of the name, accents and case ignored' },
      { name: 'type', type: 'token', documentation: 'physical type: wa (ward) | ro (room) | bd (bed)' },
      {
        name: 'partof',
        type: 'reference',
        documentation: 'Location/{id}: the rooms of a ward, the beds of a room',
      },
    ],
    includes: [],
  },
  {
    type: 'MedicationRequest',
    interactions: ['read', 'search-type'],
    search: [
      PATIENT_REF,
      { name: 'status', type: 'token', documentation: 'draft | active | completed | cancelled' },
    ],
    includes: [],
  },
  {
    type: 'MedicationAdministration',
    interactions: ['read', 'search-type'],
    search: [
      PATIENT_REF,
      { name: 'date', type: 'date', documentation: 'effective time (given, else due): eq, ge, gt, le, lt' },
      { name: 'status', type: 'token', documentation: 'completed | not-done' },
      LAST_UPDATED,
    ],
    includes: [],
  },
  {
    type: 'DiagnosticReport',
    interactions: ['read', 'search-type'],
    search: [
      PATIENT_REF,
      { name: 'category', type: 'token', documentation: 'LAB | RAD (v2-0074)' },
      {
        name: 'code',
        type: 'token',
        documentation: 'LOINC code of the exam, or its catalogue code (urn:greensen:exam-catalogue|NFS)',
      },
      { name: 'date', type: 'date', documentation: 'effectiveDateTime: eq, ge, gt, le, lt' },
      LAST_UPDATED,
    ],
    includes: [],
  },
];

export const entryOf = (type: ResourceEntry['type']) => FHIR_RESOURCES.find((r) => r.type === type)!;

/** `_count`: 20 by default, never more than this. */
export const MAX_COUNT = 100;
export const DEFAULT_COUNT = 20;

/** A search parameter's value: once, or repeated (`date=ge…&date=le…`: both apply). */
const zValue = z.union([z.string().max(200), z.array(z.string().max(200)).max(4)]);

/** The query schema of a type's search, built from the table (unknown parameters are ignored, as FHIR allows). */
export function searchQuerySchema(entry: ResourceEntry) {
  const shape: Record<string, z.ZodType> = {
    _count: z.coerce.number().int().min(0).max(MAX_COUNT).default(DEFAULT_COUNT),
    _offset: z.coerce.number().int().min(0).max(100_000).default(0),
  };
  for (const p of entry.search) shape[p.name] = zValue.optional();
  if (entry.includes.length) shape._include = z.enum(entry.includes as [string, ...string[]]).optional();
  return z.object(shape);
}

/** A FHIR logical id (R4 `id` datatype). */
export const zFhirId = z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/);
export const zFhirIdParams = z.object({ id: zFhirId });

/**
 * The elements every resource a client sends may carry and the endpoint does not keep: its id (the server's own
 * once stored), `meta` and the narrative `text`.
 */
export const zResourceInHeader = {
  id: zFhirId.optional(),
  meta: z.looseObject({}).optional(),
  text: z.looseObject({}).optional(),
};
