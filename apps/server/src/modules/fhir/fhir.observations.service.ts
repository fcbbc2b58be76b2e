import { ZCareVitals } from '@greensen/shared/contracts/care';
import type { Queryable } from '../../db/client.js';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { vitalsByKeys } from '../care/care.repository.js';
import { CareService } from '../care/care.service.js';
import { ExecutionsService } from '../care/executions.service.js';
import { VitalsService } from '../care/vitals.service.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { findPatient } from '../patients/patients.repository.js';
import {
  conditionOf,
  FhirBase,
  FUTURE_TOLERANCE_MS,
  isUuid,
  keyOfIdentifier,
  type Params,
  patientParam,
  ranges,
  type SearchRequest,
} from './fhir.base.js';
import { type FhirResource, referenceId, tokenOf, valuesOf } from './fhir.bundle.js';
import { type LabValueFilters, searchLabValues } from './fhir.lab.repository.js';
import { FhirLabService, fieldOf, LAB_LOINC } from './fhir.lab.service.js';
import { lockIdentifier, openCareTargetOf, searchVitals, type VitalFilters } from './fhir.repository.js';
import { LOINC, OBSERVATION_CATEGORY } from './fhir.systems.js';
import {
  type ExamReportRow,
  isLabObservation,
  parseLabObservationId,
  toFhirLabObservation,
} from './map-lab.js';
import {
  type FhirObservationIn,
  ObservationRefused,
  parseObservationId,
  toFhirVital,
  type VitalKey,
  type VitalsRow,
  vitalKeyOfLoinc,
  vitalOfObservation,
} from './map-observation.js';

defineMessages({
  'fhir.identifier_required': {
    fr: 'Un identifiant (system et value) est obligatoire : il évite qu’un nouvel envoi crée un doublon.',
    en: 'An identifier (system and value) is required: it keeps a retry from creating a duplicate.',
  },
  'fhir.value_required': {
    fr: 'La valeur (valueQuantity) est obligatoire.',
    en: 'The value (valueQuantity) is required.',
  },
  'fhir.unit_unexpected': {
    fr: 'Unité inattendue : l’unité UCUM publiée pour ce code est attendue.',
    en: 'Unexpected unit: the UCUM unit published for this code is expected.',
  },
  'fhir.value_out_of_bounds': {
    fr: 'Valeur hors des limites cliniquement plausibles.',
    en: 'Value outside the clinically plausible bounds.',
  },
  'fhir.code_unknown': {
    fr: 'Code inconnu : un code LOINC de signe vital publié par Greensen est attendu.',
    en: 'Unknown code: a LOINC vital-sign code that Greensen publishes is expected.',
  },
  'fhir.element_unexpected': {
    fr: 'Élément inattendu pour un signe vital.',
    en: 'Unexpected element for a vital sign.',
  },
  'fhir.bp_components': {
    fr: 'La tension s’envoie en panel 85354-9 avec ses composantes systolique (8480-6) et diastolique (8462-4), la diastolique sous la systolique.',
    en: 'Blood pressure is sent as the 85354-9 panel with its systolic (8480-6) and diastolic (8462-4) components, the diastolic below the systolic.',
  },
  'fhir.component_unexpected': {
    fr: 'Seule la tension (85354-9) a des composantes.',
    en: 'Only blood pressure (85354-9) has components.',
  },
  'fhir.subject_unknown': {
    fr: 'Le sujet doit être un patient de cet hôpital (Patient/{id}).',
    en: 'The subject must be a patient of this hospital (Patient/{id}).',
  },
  'fhir.effective_future': {
    fr: 'La date de mesure ne peut pas être dans le futur.',
    en: 'The time of measurement cannot be in the future.',
  },
  'fhir.no_open_stay': {
    fr: 'Ce patient n’a ni hospitalisation ni passage aux urgences en cours : le signe vital n’a pas où être enregistré.',
    en: 'This patient has no current stay or emergency visit: the vital sign has nowhere to be recorded.',
  },
});

type ObservationRow =
  | { patient_id: string; vital: VitalsRow & { key: VitalKey } }
  | { patient_id: string; lab: ExamReportRow & { key: string } };

interface ObservationFilters {
  vitals: VitalFilters | null;
  labs: LabValueFilters | null;
}

/**
 * The vital signs then the laboratory values, as one list paged across both: a page takes what is left of the
 * vital signs at its offset, then the laboratory values from where the vital signs end.
 */
async function searchObservationRows(
  q: Queryable,
  hospitalId: string,
  f: ObservationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: ObservationRow[]; total: number }> {
  const vitals = f.vitals
    ? await searchVitals(q, hospitalId, f.vitals, limit, offset)
    : { rows: [], total: 0 };
  const labs = f.labs
    ? await searchLabValues(
        q,
        hospitalId,
        f.labs,
        limit - vitals.rows.length,
        Math.max(0, offset - vitals.total),
      )
    : { rows: [], total: 0 };
  return {
    rows: [
      ...vitals.rows.map((r) => ({ patient_id: r.patient_id, vital: r })),
      ...labs.rows.map((r) => ({ patient_id: r.patient_id, lab: r })),
    ],
    total: vitals.total + labs.total,
  };
}

/**
 * Observation: the vital signs (posted by an instrument, read by id) and the search across vital signs and
 * laboratory values; a laboratory value posted or read by id is the laboratory's (`fhir.lab.service.ts`).
 */
export class FhirObservationsService extends FhirBase {
  private readonly care = new CareService(this.app);
  private readonly labs = new FhirLabService(this.app);
  private readonly vitals = new VitalsService(
    this.app,
    this.care,
    new ExecutionsService(this.app, this.care),
  );

  /**
   * Records a vital sign an instrument posts (decision 0083): checked like a ward set (LOINC code, UCUM unit,
   * the app's bounds), stored as a set of the patient's open stay or emergency visit (with its NEWS2 and
   * escalation), keyed by its identifier so that a retry never records twice. With `If-None-Exist`, the
   * Observation of that identifier is answered (200) when it exists.
   */
  async createObservation(ctx: ServiceContext, body: FhirObservationIn, ifNoneExist: string | null) {
    const hospital = scopedHospital(ctx);
    const ident = body.identifier[0]!;
    if (!ident.system || !ident.value)
      throw badRequest({ 'Observation.identifier': ['fhir.identifier_required'] });
    const condition = ifNoneExist === null ? null : conditionOf(ifNoneExist);
    if (isLabObservation(body, LAB_LOINC)) return this.labs.createLabObservation(ctx, body, condition);
    const { values } = this.checked(body);
    const recordedAt = new Date(body.effectiveDateTime);
    if (recordedAt.getTime() > this.care.now().getTime() + FUTURE_TOLERANCE_MS)
      throw badRequest({ 'Observation.effectiveDateTime': ['fhir.effective_future'] });
    const patientId = referenceId(body.subject.reference, 'Patient');
    if (!isUuid(patientId)) throw new ApiError(404, 'fhir.subject_unknown');
    const encounter = body.encounter ? referenceId(body.encounter.reference, 'Encounter') : null;
    if (body.encounter && !isUuid(encounter))
      throw badRequest({ 'Observation.encounter': ['error.not_found'] });
    const setKey = keyOfIdentifier(ident.system, ident.value);
    const setId = await withNotifications(this.app, async (tx, notify) => {
      // Posts of one identifier (the condition's, the resource's) run one at a time, so that two parallel posts
      // store one set; the keys are locked in one order, so that two posts naming both never wait on each other.
      const wanted = condition ? keyOfIdentifier(condition.system ?? '', condition.code) : setKey;
      const keys = [...new Set([wanted, setKey])].sort();
      for (const k of keys) await lockIdentifier(tx, hospital.id, 'Observation', k);
      // The condition's match, else the set the identifier sent already names (a retry): answered, not recorded.
      const kept = await vitalsByKeys(tx, hospital.id, keys);
      const found = kept.get(wanted) ?? kept.get(setKey);
      if (found) return { id: found.id, created: false };
      if (!(await findPatient(tx, hospital.id, patientId.toLowerCase())))
        throw new ApiError(404, 'fhir.subject_unknown');
      const target = await openCareTargetOf(
        tx,
        hospital.id,
        patientId.toLowerCase(),
        encounter?.toLowerCase() ?? null,
      );
      if (!target) throw new ApiError(422, 'fhir.no_open_stay');
      const plan = await this.care.ensurePlanIn(tx, ctx, target);
      const row = await this.care.plan(ctx, plan.id, tx);
      const note = body.note?.[0]?.text || null;
      const id = await this.vitals.insertSet(
        tx,
        ctx,
        notify,
        row,
        ZCareVitals.parse({ ...values, note }),
        recordedAt,
        { executionId: null, key: setKey },
      );
      return { id, created: true };
    });
    const { rows } = await searchVitals(
      this.app.db,
      hospital.id,
      { setId: setId.id, date: [], wardReader: this.wardReader(ctx) },
      1,
      0,
    );
    const resource = rows[0] ? toFhirVital(rows[0], rows[0].key) : null;
    if (!resource) throw notFound();
    if (!setId.created)
      await this.audit(ctx, this.app.db, 'fhir.read', 'Observation', resource.id, rows[0]!.patient_id, {
        conditional: true,
      });
    return { created: setId.created, resource, version: 1 };
  }

  /** The vital sign of a posted Observation, or the reason it is refused. */
  private checked(body: FhirObservationIn) {
    try {
      return vitalOfObservation(body);
    } catch (err) {
      if (!(err instanceof ObservationRefused)) throw err;
      if (err.status === 422) throw new ApiError(422, err.key, { fields: { [err.expression]: [err.key] } });
      throw badRequest({ [err.expression]: [err.key] });
    }
  }

  async readObservation(ctx: ServiceContext, id: string) {
    const lab = parseLabObservationId(id);
    if (lab) return this.labs.readLabObservation(ctx, lab);
    const hospital = scopedHospital(ctx);
    const parsed = parseObservationId(id.toLowerCase());
    if (!parsed) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchVitals(
        tx,
        hospital.id,
        { setId: parsed.setId, keys: [parsed.key], date: [], wardReader: this.wardReader(ctx) },
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

  /** Which categories a search asks for (none: both); an unknown category matches nothing. */
  private categories(params: Params) {
    const asked = valuesOf(params.category).flatMap((v) => v.split(','));
    if (!asked.length) return { vitals: true, labs: true };
    const codes = asked.flatMap((c) => {
      const t = tokenOf(c);
      return t.system === null || t.system === OBSERVATION_CATEGORY ? [t.code] : [];
    });
    return { vitals: codes.includes('vital-signs'), labs: codes.includes('laboratory') };
  }

  private vitalFilters(ctx: ServiceContext, params: Params): VitalFilters | null {
    const patient = patientParam(params);
    if (patient === false) return null;
    if (!this.categories(params).vitals) return null;
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
      wardReader: this.wardReader(ctx),
      date: ranges(params, 'date'),
      // The vital signs of a triage record never change: their last update is their recording.
      ...(valuesOf(params._lastUpdated).length
        ? { date: [...ranges(params, 'date'), ...ranges(params, '_lastUpdated')] }
        : {}),
    };
  }

  /** The laboratory values a search asks for: by patient, the analytes' LOINC codes, date, last update. */
  private labFilters(ctx: ServiceContext, params: Params): LabValueFilters | null {
    const patient = patientParam(params);
    if (patient === false || !this.categories(params).labs || !this.mayReadExams(ctx)) return null;
    const codes = valuesOf(params.code).flatMap((v) => v.split(','));
    const loinc = codes.flatMap((c) => {
      const t = tokenOf(c);
      return (t.system === null || t.system === LOINC) && !vitalKeyOfLoinc(t.code) ? [t.code] : [];
    });
    if (codes.length && !loinc.length) return null;
    return {
      ...(patient ? { patientId: patient } : {}),
      ...(loinc.length ? { loinc } : {}),
      date: ranges(params, 'date'),
      lastUpdated: ranges(params, '_lastUpdated'),
    };
  }

  async searchObservations(ctx: ServiceContext, req: SearchRequest, include: boolean) {
    const vitals = this.vitalFilters(ctx, req.params);
    const labs = this.labFilters(ctx, req.params);
    return this.searchWithPatients(
      ctx,
      req,
      include,
      'Observation',
      vitals || labs ? { vitals, labs } : null,
      {
        search: searchObservationRows,
        toResources: (rows) =>
          rows.flatMap((r): FhirResource[] => {
            if ('vital' in r) {
              const vital = toFhirVital(r.vital, r.vital.key);
              return vital ? [vital] : [];
            }
            const valued = fieldOf(r.lab);
            return valued ? [toFhirLabObservation(r.lab, valued.field, valued.entry, ctx.lang)] : [];
          }),
      },
    );
  }
}
