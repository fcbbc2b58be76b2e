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
import {
  conditionOf,
  FhirBase,
  isUuid,
  type Params,
  patientParam,
  ranges,
  type SearchRequest,
} from './fhir.base.js';
import { type FhirResource, searchset, tokenOf, valuesOf } from './fhir.bundle.js';
import { searchReports } from './fhir.lab.repository.js';
import { mayReadAdministrations } from './fhir.medication.service.js';
import {
  findHospital,
  lockIdentifier,
  type PatientFilters,
  searchAdministrations,
  searchDiagnoses,
  searchEncounters,
  searchPatientRecords,
  searchVitals,
} from './fhir.repository.js';
import { NATIONAL_ID_SYSTEM, recordNumberSystem } from './fhir.systems.js';
import { patientOfAllergyId, toFhirAllergies } from './map-allergy.js';
import { toFhirCondition } from './map-condition.js';
import { ENCOUNTER_CLASS, ENCOUNTER_STATUS, toFhirEncounter } from './map-encounter.js';
import { toFhirDiagnosticReport, toFhirLabObservations } from './map-lab.js';
import { toFhirMedicationAdministration } from './map-medication-administration.js';
import { toFhirVital } from './map-observation.js';
import { toFhirOrganization } from './map-organization.js';
import { type FhirPatientIn, fromFhirPatient, toFhirPatient } from './map-patient.js';

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
export class FhirService extends FhirBase {
  private readonly patients: PatientsService;

  constructor(app: FastifyInstance) {
    super(app);
    this.patients = new PatientsService(app);
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
    const condition = ifNoneExist === null ? null : conditionOf(ifNoneExist);
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
    return this.readById(
      ctx,
      'Encounter',
      id,
      (q, hospitalId, rowId) =>
        searchEncounters(q, hospitalId, { id: rowId, date: [], lastUpdated: [] }, 1, 0),
      toFhirEncounter,
    );
  }

  async searchEncounters(ctx: ServiceContext, req: SearchRequest, include: boolean) {
    return this.searchWithPatients(ctx, req, include, 'Encounter', this.encounterFilters(req.params), {
      search: searchEncounters,
      toResources: (rows) => rows.map(toFhirEncounter),
    });
  }

  // —— Condition ——

  async readCondition(ctx: ServiceContext, id: string) {
    return this.readById(
      ctx,
      'Condition',
      id,
      (q, hospitalId, rowId) => searchDiagnoses(q, hospitalId, { id: rowId, lastUpdated: [] }, 1, 0),
      toFhirCondition,
    );
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

  // —— Patient/{id}/$everything ——

  /**
   * The patient's record as one searchset Bundle, paged by visits (`_count` of them, the latest first): the
   * Patient, its allergies and the hospital on the first page, and on each page the page's encounters with their
   * vital signs, validated exams (DiagnosticReports with their laboratory Observations), MAR doses (for the care
   * readers, of their departments) and (for those who read diagnoses) their conditions. `total` counts the visits.
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
        { patientId: patient.id, admissionIds, date: [], wardReader: this.wardReader(ctx) },
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
      // The page's validated exams (for the exams module's audience) and MAR doses (for the care readers).
      const reports = this.mayReadExams(ctx)
        ? await searchReports(
            tx,
            hospital.id,
            { patientId: patient.id, admissionIds, date: [], lastUpdated: [] },
            50 * Math.max(1, admissionIds.length),
            0,
          )
        : { rows: [] };
      const doses = mayReadAdministrations(ctx)
        ? await searchAdministrations(
            tx,
            hospital.id,
            { patientId: patient.id, admissionIds, date: [], lastUpdated: [], userId: actingUser(ctx).id },
            500 * Math.max(1, admissionIds.length),
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
        ...reports.rows.flatMap((r) => [
          toFhirDiagnosticReport(r, ctx.lang),
          ...toFhirLabObservations(r, ctx.lang),
        ]),
        ...doses.rows.map((r) => toFhirMedicationAdministration(r, ctx.lang)),
      ];
      await this.audit(ctx, tx, 'fhir.read', 'Patient', patient.id, patient.id, {
        operation: 'everything',
        offset: req.offset,
      });
      return searchset({ ...this.frame(req), total: visits.total, matches: resources });
    });
  }
}
