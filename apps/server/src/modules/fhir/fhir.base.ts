import { createHash } from 'node:crypto';
import { canAccessModule } from '@greensen/shared/domain/access';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { dateRange, type FhirResource, referenceId, searchset, tokenOf, valuesOf } from './fhir.bundle.js';
import { patientsByIds, type Range } from './fhir.repository.js';
import { toFhirPatient } from './map-patient.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string | null | undefined): v is string => typeof v === 'string' && UUID.test(v);

/** Where the request came from: the endpoint's base URL and the request's own URL (for the Bundle links). */
export interface SearchRequest {
  baseUrl: string;
  url: URL;
  count: number;
  offset: number;
  params: Record<string, string | string[] | undefined>;
}

export type Params = SearchRequest['params'];

/** The date ranges of a date parameter; an unreadable value is a 400 on that parameter. */
export function ranges(params: Params, name: string): Range[] {
  return valuesOf(params[name]).map((v) => {
    const r = dateRange(v);
    if (!r) throw badRequest({ [name]: ['fhir.date_invalid'] });
    return r;
  });
}

/** `identifier=system|value` of an `If-None-Exist` header (the only condition supported). */
export function conditionOf(header: string) {
  const params = new URLSearchParams(header);
  const keys = [...params.keys()];
  const value = params.get('identifier');
  if (keys.length !== 1 || !value) throw badRequest({ 'If-None-Exist': ['fhir.condition_unsupported'] });
  return tokenOf(value);
}

/**
 * The key of a posted Observation's identifier (a care set's `care_vitals.idempotency_key`, a laboratory post's
 * key; unique in the hospital): a name-based uuid, so that the same identifier always gives the same key.
 */
export function keyOfIdentifier(system: string, value: string) {
  const h = createHash('sha256').update(`fhir:Observation:${system}|${value}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A posted Observation's clock a little ahead of the instrument's is tolerated (one minute, as for the ward's sets). */
export const FUTURE_TOLERANCE_MS = 60_000;

/** The patient a `patient` parameter names (Patient/{id} or {id}); `false` when it names nothing of ours. */
export function patientParam(params: Params): string | undefined | false {
  const v = valuesOf(params.patient)[0];
  if (v === undefined) return undefined;
  const id = referenceId(v, 'Patient');
  return isUuid(id) ? id.toLowerCase() : false;
}

/**
 * What every FHIR service shares (issue 39): the audit of reads and searches, the Bundle frame of a request, and
 * the search of rows that each belong to a patient with `_include` of their patients.
 */
export class FhirBase {
  constructor(protected readonly app: FastifyInstance) {}

  /**
   * Whether the caller may use the exams module (its audience, as the access plugin decides it for a route):
   * laboratory values reached through another route (Observation, $everything) keep the exams module's rule.
   */
  /**
   * Whose ward sets of vital signs the caller reads besides the triage records: the app shows them to the care
   * readers (`care.read`), each those of her departments; to anyone else, none (null).
   */
  protected wardReader(ctx: ServiceContext): string | null {
    const groups = ctx.hospital?.groups ?? [];
    return groups.some((g) => (ACTION_GROUPS['care.read'] as readonly string[]).includes(g))
      ? actingUser(ctx).id
      : null;
  }

  protected mayReadExams(ctx: ServiceContext) {
    return canAccessModule({
      moduleName: 'exams',
      environment: this.app.config.appEnv,
      extraModules: this.app.config.extraModules,
      user: { active_roles: (ctx.hospital?.roleCodes ?? []).map((role_code) => ({ role_code })) },
    }).allowed;
  }

  /**
   * A resource read by its id: the one row the search of its type finds in the caller's hospital (a malformed or
   * unknown id is a 404), audited as a read of the row's patient, then mapped.
   */
  protected readById<R extends { id: string; patient_id: string }>(
    ctx: ServiceContext,
    type: string,
    id: string,
    find: (q: Queryable, hospitalId: string, id: string) => Promise<{ rows: R[] }>,
    map: (row: R) => FhirResource,
  ) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const row = (await find(tx, hospital.id, id.toLowerCase())).rows[0];
      if (!row) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', type, row.id, row.patient_id);
      return map(row);
    });
  }

  protected audit(
    ctx: ServiceContext,
    tx: Queryable,
    action: 'fhir.read' | 'fhir.search',
    type: string,
    id: string | null,
    patientId: string | null,
    details: Record<string, unknown> = {},
  ) {
    return this.app.audit.record(
      ctx,
      { action, resourceType: type, resourceId: id, patientId, details: { fhir: true, ...details } },
      tx,
    );
  }

  protected frame(req: SearchRequest) {
    return { url: req.url, baseUrl: req.baseUrl, page: req };
  }

  /**
   * A search of rows that each belong to a patient (no match when the filters cannot match), with `_include` of
   * their Patient resources, audited as one search, answered as a searchset.
   */
  protected searchWithPatients<F, R extends { patient_id: string }>(
    ctx: ServiceContext,
    req: SearchRequest,
    include: boolean,
    type: string,
    filters: F | null,
    how: {
      search: (
        tx: Queryable,
        hospitalId: string,
        f: F,
        count: number,
        offset: number,
      ) => Promise<{ rows: R[]; total: number }>;
      toResources: (rows: R[]) => FhirResource[];
    },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const { rows, total } = filters
        ? await how.search(tx, hospital.id, filters, req.count, req.offset)
        : { rows: [] as R[], total: 0 };
      const included = include
        ? await this.includedPatients(
            tx,
            hospital,
            rows.map((r) => r.patient_id),
          )
        : [];
      await this.audit(ctx, tx, 'fhir.search', type, null, null, { results: rows.length });
      return searchset({ ...this.frame(req), total, matches: how.toResources(rows), included });
    });
  }

  protected async includedPatients(tx: Queryable, hospital: { id: string; code: string }, ids: string[]) {
    const rows = await patientsByIds(tx, hospital.id, [...new Set(ids)]);
    return rows.map((r) => toFhirPatient(r, hospital.code));
  }
}
