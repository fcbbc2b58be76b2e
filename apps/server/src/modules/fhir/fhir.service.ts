import { ZPatientCreate, ZPatientUpdate } from '@greensen/shared/contracts/patients';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, type FieldErrors, notFound } from '../../lib/errors.js';
import {
  findPatient,
  type PatientRow,
  SEARCH_COUNT_CAP,
  searchPatients,
} from '../patients/patients.repository.js';
import { PatientsService } from '../patients/patients.service.js';
import { findPrescription, linesOf, listPrescriptions } from '../pharmacy/pharmacy.repository.js';
import { dateRange, type FhirResource, referenceId, searchset, tokenOf, valuesOf } from './fhir.bundle.js';
import {
  findHospital,
  lockIdentifier,
  type PatientFilters,
  patientsByIds,
  type Range,
  searchDiagnoses,
  searchEncounters,
  searchLocations,
  searchPatientRecords,
  searchPractitioners,
  searchVitals,
} from './fhir.repository.js';
import { LOINC, NATIONAL_ID_SYSTEM, OBSERVATION_CATEGORY, recordNumberSystem } from './fhir.systems.js';
import { patientOfAllergyId, toFhirAllergies } from './map-allergy.js';
import { toFhirCondition } from './map-condition.js';
import { ENCOUNTER_CLASS, ENCOUNTER_STATUS, toFhirEncounter } from './map-encounter.js';
import { type LocationKind, PHYSICAL_TYPE, toFhirLocation } from './map-location.js';
import {
  parseMedicationRequestId,
  REQUEST_STATUS,
  toFhirMedicationRequest,
} from './map-medication-request.js';
import { parseObservationId, toFhirVital, type VitalKey, vitalKeyOfLoinc } from './map-observation.js';
import { toFhirOrganization } from './map-organization.js';
import { type FhirPatientIn, fromFhirPatient, toFhirPatient } from './map-patient.js';
import { toFhirPractitioner } from './map-practitioner.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (v: string | null | undefined): v is string => typeof v === 'string' && UUID.test(v);

/** Where the request came from: the endpoint's base URL and the request's own URL (for the Bundle links). */
export interface SearchRequest {
  baseUrl: string;
  url: URL;
  count: number;
  offset: number;
  params: Record<string, string | string[] | undefined>;
}

type Params = SearchRequest['params'];

/** The date ranges of a date parameter; an unreadable value is a 400 on that parameter. */
function ranges(params: Params, name: string): Range[] {
  return valuesOf(params[name]).map((v) => {
    const r = dateRange(v);
    if (!r) throw badRequest({ [name]: ['fhir.date_invalid'] });
    return r;
  });
}

/** The patient a `patient` parameter names (Patient/{id} or {id}); `false` when it names nothing of ours. */
function patientParam(params: Params): string | undefined | false {
  const v = valuesOf(params.patient)[0];
  if (v === undefined) return undefined;
  const id = referenceId(v, 'Patient');
  return isUuid(id) ? id.toLowerCase() : false;
}

/** The app's field of a Patient input → the FHIR element it came from. */
const PATIENT_ELEMENT: Record<string, string> = {
  first_name: 'Patient.name[0].given',
  last_name: 'Patient.name[0].family',
  sex: 'Patient.gender',
  birth_date: 'Patient.birthDate',
  phone: 'Patient.telecom',
  email: 'Patient.telecom',
  address: 'Patient.address',
  national_id: 'Patient.identifier',
  emergency_contact_name: 'Patient.contact[0].name',
  emergency_contact_phone: 'Patient.contact[0].telecom',
  preferred_language: 'Patient.communication',
};

/** Who reads diagnoses through FHIR: the head doctor, who reads every consultation of the hospital (decision 0062). */
export const CONDITION_READERS = ['head_doctor'] as const;
const mayReadConditions = (ctx: ServiceContext) =>
  (ctx.hospital?.groups ?? []).some((g) => (CONDITION_READERS as readonly string[]).includes(g));

/**
 * The FHIR R4 endpoint's work (issue 39): the app's own records as FHIR resources, through the patients service
 * for registrations and changes (same rules, same duplicate detection, same audit), every read of patient data
 * audited like the app's.
 */
export class FhirService {
  private readonly patients: PatientsService;

  constructor(private readonly app: FastifyInstance) {
    this.patients = new PatientsService(app);
  }

  private audit(
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

  // —— Patient ——

  async readPatient(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const row = await findPatient(tx, hospital.id, id.toLowerCase());
      if (!row) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'Patient', row.id, row.id);
      return { resource: toFhirPatient(row, hospital.code), version: row.version };
    });
  }

  /** The structured filters of a Patient search; `null` when a filter names nothing that can match. */
  private patientFilters(hospitalCode: string, params: Params): Omit<PatientFilters, 'ids'> | null {
    const f: Omit<PatientFilters, 'ids'> = {
      birthDate: ranges(params, 'birthdate'),
      lastUpdated: ranges(params, '_lastUpdated'),
    };
    for (const v of valuesOf(params.identifier)) {
      const { system, code } = tokenOf(v);
      if (system === null) f.identifier = code.toUpperCase();
      else if (system === recordNumberSystem(hospitalCode)) f.recordNumber = code.toUpperCase();
      else if (system === NATIONAL_ID_SYSTEM) f.nationalId = code.toUpperCase();
      else return null;
    }
    const gender = valuesOf(params.gender)[0];
    if (gender !== undefined) {
      if (gender !== 'male' && gender !== 'female') return null;
      f.gender = gender === 'female' ? 'F' : 'M';
    }
    return f;
  }

  private async findPatients(
    tx: Queryable,
    hospital: { id: string; code: string },
    params: Params,
    count: number,
    offset: number,
  ) {
    const f = this.patientFilters(hospital.code, params);
    if (!f) return { rows: [] as PatientRow[], total: 0 };
    const term = ['name', 'given', 'family']
      .flatMap((k) => valuesOf(params[k]))
      .join(' ')
      .trim();
    let ids: string[] | undefined;
    if (term) {
      // The app's own name search (accent- and typo-tolerant), its matches in its order.
      const found = await searchPatients(tx, hospital.id, {
        search: term,
        archived: false,
        limit: SEARCH_COUNT_CAP,
        offset: 0,
      });
      ids = found.rows.map((r) => r.id);
    }
    return searchPatientRecords(tx, hospital.id, { ...f, ...(ids ? { ids } : {}) }, count, offset);
  }

  async searchPatients(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const { rows, total } = await this.findPatients(tx, hospital, req.params, req.count, req.offset);
      await this.audit(ctx, tx, 'fhir.search', 'Patient', null, null, { results: rows.length });
      return searchset({
        url: req.url,
        baseUrl: req.baseUrl,
        total,
        page: req,
        matches: rows.map((r) => toFhirPatient(r, hospital.code)),
      });
    });
  }

  /** A FHIR Patient as the app's registration input, checked by the app's own registration schema. */
  private patientInput(body: FhirPatientIn) {
    const mapped = fromFhirPatient(body);
    if ('problems' in mapped) {
      const fields: FieldErrors = {};
      for (const p of mapped.problems) fields[p.expression] = [p.key];
      throw badRequest(fields);
    }
    const parsed = ZPatientCreate.safeParse({ ...mapped.input, confirm_duplicate: false });
    if (!parsed.success) {
      const fields: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const element = PATIENT_ELEMENT[String(issue.path[0])] ?? 'Patient';
        const list = fields[element] ?? [];
        list.push(issue.message.includes('.') ? issue.message : 'validation.invalid');
        fields[element] = list;
      }
      throw badRequest(fields);
    }
    return parsed.data;
  }

  /**
   * Registers a patient; with `ifNoneExist` (`identifier=system|value`), only when no record of the hospital has
   * that identifier (the existing one is answered instead; two or more: 412). Conditional creates of one
   * identifier run one at a time (a transaction lock), so that two retries never register twice. Probable
   * duplicates by the app's rules are a 409 listing them.
   */
  async createPatient(ctx: ServiceContext, body: FhirPatientIn, ifNoneExist: string | null) {
    const hospital = scopedHospital(ctx);
    const input = this.patientInput(body);
    const condition = ifNoneExist === null ? null : this.conditionOf(ifNoneExist);
    return this.app.db.transaction(async (tx) => {
      if (condition) {
        await lockIdentifier(tx, hospital.id, condition.system ?? '', condition.code);
        const { rows, total } = await this.findPatients(
          tx,
          hospital,
          { identifier: condition.system ? `${condition.system}|${condition.code}` : condition.code },
          2,
          0,
        );
        if (total > 1) throw new ApiError(412, 'fhir.condition_ambiguous');
        const existing = rows[0];
        if (existing) {
          await this.audit(ctx, tx, 'fhir.read', 'Patient', existing.id, existing.id, { conditional: true });
          return {
            created: false,
            resource: toFhirPatient(existing, hospital.code),
            version: existing.version,
          };
        }
      }
      const result = await this.patients.createIn(tx, ctx, input);
      if ('duplicates' in result) {
        throw new ApiError(409, 'fhir.duplicates_found', {
          params: { ids: result.duplicates.map((d) => `Patient/${d.id}`).join(', ') },
        });
      }
      const row = (await findPatient(tx, hospital.id, result.patient.id))!;
      return { created: true, resource: toFhirPatient(row, hospital.code), version: row.version };
    });
  }

  /** `identifier=system|value` of an `If-None-Exist` header (the only condition supported). */
  private conditionOf(header: string) {
    const params = new URLSearchParams(header);
    const keys = [...params.keys()];
    const value = params.get('identifier');
    if (keys.length !== 1 || !value) throw badRequest({ 'If-None-Exist': ['fhir.condition_unsupported'] });
    return tokenOf(value);
  }

  /** Replaces a patient's demographics (PUT), at the version `If-Match` names. */
  async updatePatient(ctx: ServiceContext, id: string, body: FhirPatientIn, expectedVersion: number) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    if (body.id !== undefined && body.id !== id) throw badRequest({ 'Patient.id': ['fhir.id_mismatch'] });
    const input = this.patientInput(body);
    const update = ZPatientUpdate.parse({
      first_name: input.first_name,
      last_name: input.last_name,
      sex: input.sex,
      birth_date: input.birth_date,
      phone: input.phone,
      email: input.email,
      address: input.address,
      national_id: input.national_id,
      emergency_contact_name: input.emergency_contact_name,
      emergency_contact_phone: input.emergency_contact_phone,
      preferred_language: input.preferred_language ?? null,
    });
    await this.patients.update(ctx, id.toLowerCase(), update, expectedVersion);
    const row = (await findPatient(this.app.db, hospital.id, id.toLowerCase()))!;
    return { resource: toFhirPatient(row, hospital.code), version: row.version };
  }

  // —— Encounter ——

  private encounterFilters(params: Params) {
    const patient = patientParam(params);
    if (patient === false) return null;
    const statuses = valuesOf(params.status).flatMap((s) => s.split(','));
    const classes = valuesOf(params.class).flatMap((c) => c.split(','));
    return {
      ...(patient ? { patientId: patient } : {}),
      ...(statuses.length
        ? { statuses: Object.keys(ENCOUNTER_STATUS).filter((k) => statuses.includes(ENCOUNTER_STATUS[k]!)) }
        : {}),
      ...(classes.length
        ? {
            types: Object.entries(ENCOUNTER_CLASS)
              .filter(([, c]) => classes.some((v) => tokenOf(v).code === c.code))
              .map(([k]) => k),
          }
        : {}),
      date: ranges(params, 'date'),
      lastUpdated: ranges(params, '_lastUpdated'),
    };
  }

  async readEncounter(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchEncounters(
        tx,
        hospital.id,
        { id: id.toLowerCase(), date: [], lastUpdated: [] },
        1,
        0,
      );
      const row = rows[0];
      if (!row) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'Encounter', row.id, row.patient_id);
      return toFhirEncounter(row);
    });
  }

  async searchEncounters(ctx: ServiceContext, req: SearchRequest, include: boolean) {
    return this.searchWithPatients(ctx, req, include, 'Encounter', this.encounterFilters(req.params), {
      search: searchEncounters,
      toResources: (rows) => rows.map(toFhirEncounter),
    });
  }

  private frame(req: SearchRequest) {
    return { url: req.url, baseUrl: req.baseUrl, page: req };
  }

  /**
   * A search of rows that each belong to a patient (no match when the filters cannot match), with `_include` of
   * their Patient resources, audited as one search, answered as a searchset.
   */
  private searchWithPatients<F, R extends { patient_id: string }>(
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

  private async includedPatients(tx: Queryable, hospital: { id: string; code: string }, ids: string[]) {
    const rows = await patientsByIds(tx, hospital.id, [...new Set(ids)]);
    return rows.map((r) => toFhirPatient(r, hospital.code));
  }

  // —— Observation (vital signs) ——

  async readObservation(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const parsed = parseObservationId(id.toLowerCase());
    if (!parsed) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchVitals(
        tx,
        hospital.id,
        { triageId: parsed.triageId, keys: [parsed.key], date: [] },
        1,
        0,
      );
      const row = rows[0];
      const resource = row ? toFhirVital(row, row.key) : null;
      if (!row || !resource) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'Observation', resource.id, row.patient_id);
      return resource;
    });
  }

  private vitalFilters(params: Params) {
    const patient = patientParam(params);
    if (patient === false) return null;
    for (const c of valuesOf(params.category).flatMap((v) => v.split(','))) {
      const t = tokenOf(c);
      if (t.code !== 'vital-signs' || (t.system !== null && t.system !== OBSERVATION_CATEGORY)) return null;
    }
    const codes = valuesOf(params.code).flatMap((v) => v.split(','));
    let keys: VitalKey[] | undefined;
    if (codes.length) {
      keys = codes.flatMap((c) => {
        const t = tokenOf(c);
        const key = t.system === null || t.system === LOINC ? vitalKeyOfLoinc(t.code) : null;
        return key ? [key] : [];
      });
    }
    return {
      ...(patient ? { patientId: patient } : {}),
      ...(keys ? { keys } : {}),
      date: ranges(params, 'date'),
      // The vital signs of a triage record never change: their last update is their recording.
      ...(valuesOf(params._lastUpdated).length
        ? { date: [...ranges(params, 'date'), ...ranges(params, '_lastUpdated')] }
        : {}),
    };
  }

  async searchObservations(ctx: ServiceContext, req: SearchRequest, include: boolean) {
    return this.searchWithPatients(ctx, req, include, 'Observation', this.vitalFilters(req.params), {
      search: searchVitals,
      toResources: (rows) => rows.flatMap((r) => toFhirVital(r, r.key) ?? []),
    });
  }

  // —— Condition ——

  async readCondition(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchDiagnoses(
        tx,
        hospital.id,
        { id: id.toLowerCase(), lastUpdated: [] },
        1,
        0,
      );
      const row = rows[0];
      if (!row) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'Condition', row.id, row.patient_id);
      return toFhirCondition(row);
    });
  }

  async searchConditions(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const patient = patientParam(req.params);
      const { rows, total } =
        patient === false
          ? { rows: [], total: 0 }
          : await searchDiagnoses(
              tx,
              hospital.id,
              { ...(patient ? { patientId: patient } : {}), lastUpdated: ranges(req.params, '_lastUpdated') },
              req.count,
              req.offset,
            );
      await this.audit(ctx, tx, 'fhir.search', 'Condition', null, null, { results: rows.length });
      return searchset({ ...this.frame(req), total, matches: rows.map(toFhirCondition) });
    });
  }

  // —— AllergyIntolerance ——

  async readAllergy(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const patientId = patientOfAllergyId(id.toLowerCase());
    if (!patientId) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const row = await findPatient(tx, hospital.id, patientId);
      const resource = row ? toFhirAllergies(row).find((a) => a.id === id.toLowerCase()) : undefined;
      if (!row || !resource) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'AllergyIntolerance', resource.id, row.id);
      return resource;
    });
  }

  /** A patient's allergies (the `patient` parameter is required: allergies are held on the patient record). */
  async searchAllergies(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const patient = patientParam(req.params);
    if (patient === undefined) throw badRequest({ patient: ['fhir.patient_required'] });
    return this.app.db.transaction(async (tx) => {
      const row = patient ? await findPatient(tx, hospital.id, patient) : null;
      const all = row ? toFhirAllergies(row) : [];
      await this.audit(ctx, tx, 'fhir.search', 'AllergyIntolerance', null, null, { results: all.length });
      return searchset({
        ...this.frame(req),
        total: all.length,
        matches: all.slice(req.offset, req.offset + req.count),
      });
    });
  }

  // —— Organization ——

  async readOrganization(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    // Only the hospital the request works in: another one is not found, like any other hospital's row.
    if (!isUuid(id) || id.toLowerCase() !== hospital.id) throw notFound();
    const row = await findHospital(this.app.db, hospital.id);
    if (!row) throw notFound();
    return toFhirOrganization(row);
  }

  // —— Practitioner (the hospital's staff) and Location (its wards, rooms and beds): no patient data ——

  async readPractitioner(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    const { rows } = await searchPractitioners(this.app.db, hospital.id, { id: id.toLowerCase() }, 1, 0);
    if (!rows[0]) throw notFound();
    return toFhirPractitioner(rows[0]);
  }

  async searchPractitioners(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const name = valuesOf(req.params.name).join(' ').trim();
    const { rows, total } = await searchPractitioners(
      this.app.db,
      hospital.id,
      name ? { name } : {},
      req.count,
      req.offset,
    );
    return searchset({ ...this.frame(req), total, matches: rows.map(toFhirPractitioner) });
  }

  async readLocation(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    const { rows } = await searchLocations(this.app.db, hospital.id, { id: id.toLowerCase() }, 1, 0);
    if (!rows[0]) throw notFound();
    return toFhirLocation(rows[0], hospital.id);
  }

  async searchLocations(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const name = valuesOf(req.params.name).join(' ').trim();
    const types = valuesOf(req.params.type).flatMap((v) => v.split(','));
    const kinds = types.length
      ? (Object.keys(PHYSICAL_TYPE) as LocationKind[]).filter((k) =>
          types.some((t) => tokenOf(t).code === PHYSICAL_TYPE[k].code),
        )
      : undefined;
    const partOfValue = valuesOf(req.params.partof)[0];
    const partOf = partOfValue === undefined ? undefined : referenceId(partOfValue, 'Location');
    const { rows, total } =
      partOf !== undefined && !isUuid(partOf)
        ? { rows: [], total: 0 }
        : await searchLocations(
            this.app.db,
            hospital.id,
            {
              ...(name ? { name } : {}),
              ...(kinds ? { kinds } : {}),
              ...(partOf ? { partOf: partOf.toLowerCase() } : {}),
            },
            req.count,
            req.offset,
          );
    return searchset({ ...this.frame(req), total, matches: rows.map((r) => toFhirLocation(r, hospital.id)) });
  }

  // —— MedicationRequest (a prescription's lines) ——

  async readMedicationRequest(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const parsed = parseMedicationRequestId(id);
    if (!parsed) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const rx = await findPrescription(tx, hospital.id, parsed.prescriptionId);
      const line = rx ? (await linesOf(tx, [rx.id])).find((l) => l.position === parsed.position) : undefined;
      if (!rx || !line) throw notFound();
      const resource = toFhirMedicationRequest(rx, line, ctx.lang);
      await this.audit(ctx, tx, 'fhir.read', 'MedicationRequest', resource.id, rx.p_id);
      return resource;
    });
  }

  /**
   * The lines of the hospital's prescriptions, through the pharmacy's own list: paged by prescriptions (`_count`
   * of them, the latest first, each with all its lines); `total` counts the prescriptions.
   */
  async searchMedicationRequests(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const patient = patientParam(req.params);
    const wanted = valuesOf(req.params.status).flatMap((v) => v.split(','));
    const statuses = wanted.length ? wanted.flatMap((s) => REQUEST_STATUS[tokenOf(s).code] ?? []) : undefined;
    return this.app.db.transaction(async (tx) => {
      const { rows, count } =
        patient === false
          ? { rows: [], count: 0 }
          : await listPrescriptions(
              tx,
              hospital.id,
              actingUser(ctx).id,
              { ...(patient ? { patient } : {}), status: 'all', statuses },
              req.count,
              req.offset,
            );
      const lines = await linesOf(
        tx,
        rows.map((r) => r.id),
      );
      const matches = rows.flatMap((rx) =>
        lines.filter((l) => l.prescription_id === rx.id).map((l) => toFhirMedicationRequest(rx, l, ctx.lang)),
      );
      await this.audit(ctx, tx, 'fhir.search', 'MedicationRequest', null, null, { results: matches.length });
      return searchset({ ...this.frame(req), total: count, matches });
    });
  }

  // —— Patient/{id}/$everything ——

  /**
   * The patient's record as one searchset Bundle, paged by visits (`_count` of them, the latest first): the
   * Patient, its allergies and the hospital on the first page, and on each page the page's encounters with their
   * vital signs and (for those who read diagnoses) their conditions. `total` counts the visits.
   */
  async everything(ctx: ServiceContext, id: string, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const patient = await findPatient(tx, hospital.id, id.toLowerCase());
      if (!patient) throw notFound();
      const visits = await searchEncounters(
        tx,
        hospital.id,
        { patientId: patient.id, date: [], lastUpdated: [] },
        req.count,
        req.offset,
      );
      const admissionIds = visits.rows.map((v) => v.id);
      const vitals = await searchVitals(
        tx,
        hospital.id,
        { patientId: patient.id, admissionIds, date: [] },
        7 * 50 * Math.max(1, admissionIds.length),
        0,
      );
      const conditions = mayReadConditions(ctx)
        ? await searchDiagnoses(
            tx,
            hospital.id,
            { patientId: patient.id, admissionIds, lastUpdated: [] },
            50 * Math.max(1, admissionIds.length),
            0,
          )
        : { rows: [] };
      const first = req.offset === 0;
      const organization = first ? await findHospital(tx, hospital.id) : null;
      const resources: FhirResource[] = [
        ...(first ? [toFhirPatient(patient, hospital.code), ...toFhirAllergies(patient)] : []),
        ...(organization ? [toFhirOrganization(organization)] : []),
        ...visits.rows.map(toFhirEncounter),
        ...vitals.rows.flatMap((r) => toFhirVital(r, r.key) ?? []),
        ...conditions.rows.map(toFhirCondition),
      ];
      await this.audit(ctx, tx, 'fhir.read', 'Patient', patient.id, patient.id, {
        operation: 'everything',
        offset: req.offset,
      });
      return searchset({ ...this.frame(req), total: visits.total, matches: resources });
    });
  }
}
