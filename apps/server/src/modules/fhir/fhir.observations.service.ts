import { createHash } from 'node:crypto';
import { ZCareVitals } from '@greensen/shared/contracts/care';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { vitalsByKeys } from '../care/care.repository.js';
import { CareService } from '../care/care.service.js';
import { ExecutionsService } from '../care/executions.service.js';
import { VitalsService } from '../care/vitals.service.js';
import { EXAM_CATALOGUE } from '../exams/exam-catalogue.data.js';
import { ExamsService } from '../exams/exams.service.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { findPatient } from '../patients/patients.repository.js';
import {
  conditionOf,
  FhirBase,
  isUuid,
  type Params,
  patientParam,
  ranges,
  type SearchRequest,
} from './fhir.base.js';
import { type FhirResource, referenceId, tokenOf, valuesOf } from './fhir.bundle.js';
import {
  insertLabPost,
  type LabValueFilters,
  labOrderByRef,
  labPostsByKeys,
  lockIdentifier,
  openCareTargetOf,
  openLabOrdersOf,
  type ReportFilters,
  searchLabValues,
  searchReports,
  searchVitals,
  type VitalFilters,
} from './fhir.repository.js';
import { EXAM_CATALOGUE_SYSTEM, LOINC, OBSERVATION_CATEGORY } from './fhir.systems.js';
import {
  type ExamReportRow,
  fieldNamed,
  isLabObservation,
  LabValueRefused,
  labCodesOf,
  labValueOf,
  orderRefOf,
  parseLabObservationId,
  REPORT_CATEGORY,
  toFhirDiagnosticReport,
  toFhirLabObservation,
  valuedFields,
  valueElementOf,
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
  'fhir.lab_no_open_order': {
    fr: 'Ce patient n’a pas de demande d’examen en cours pour cette analyse : le résultat n’a pas où être enregistré.',
    en: 'This patient has no open exam order for this analyte: the result has nowhere to be recorded.',
  },
  'fhir.lab_ambiguous_order': {
    fr: 'Ce patient a plusieurs demandes en cours pour cette analyse : précisez laquelle (basedOn).',
    en: 'This patient has several open orders for this analyte: say which one (basedOn).',
  },
  'fhir.lab_order_unknown': {
    fr: 'La demande nommée (basedOn) n’est pas une demande de laboratoire de ce patient.',
    en: 'The order named (basedOn) is not a laboratory order of this patient.',
  },
  'fhir.lab_order_closed': {
    fr: 'La demande nommée (basedOn) est validée ou annulée : elle n’accepte plus de résultat.',
    en: 'The order named (basedOn) is validated or cancelled: it accepts no more results.',
  },
  'fhir.lab_based_on_invalid': {
    fr: 'basedOn : ServiceRequest/{id de la demande} ou l’identifiant urn:greensen:exam-order-number de la demande.',
    en: 'basedOn: ServiceRequest/{order id} or the order’s urn:greensen:exam-order-number identifier.',
  },
  'fhir.lab_field_unknown': {
    fr: 'L’examen de cette demande n’a pas d’analyse de ce code.',
    en: 'The exam of this order has no analyte with this code.',
  },
  'fhir.lab_code_unknown': {
    fr: 'Code inconnu : un code LOINC d’analyse du catalogue ou un code urn:greensen:exam-catalogue est attendu.',
    en: 'Unknown code: a LOINC code of a catalogue analyte or a urn:greensen:exam-catalogue code is expected.',
  },
  'fhir.lab_value_type': {
    fr: 'Type de valeur inattendu pour cette analyse (valueQuantity, valueCodeableConcept ou valueString selon le catalogue).',
    en: 'Unexpected value type for this analyte (valueQuantity, valueCodeableConcept or valueString as the catalogue says).',
  },
  'fhir.lab_choice_system': {
    fr: 'La valeur doit être un code du système du catalogue pour cette analyse.',
    en: 'The value must be a code of the catalogue’s system for this analyte.',
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

/** The analytes' and exams' LOINC codes of the catalogue (a posted Observation with one is a laboratory value). */
const LAB_LOINC = new Set(
  EXAM_CATALOGUE.flatMap((e) => [e.loinc, ...e.fields.map((f) => f.loinc)]).filter(
    (c): c is string => typeof c === 'string',
  ),
);

/**
 * The care set's key (`care_vitals.idempotency_key`, unique in the hospital) of an Observation's identifier: a
 * name-based uuid, so that the same identifier always gives the same key.
 */
export function keyOfIdentifier(system: string, value: string) {
  const h = createHash('sha256').update(`fhir:Observation:${system}|${value}`).digest('hex');
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A clock a little ahead of the instrument's is tolerated (one minute, as for the ward's sets). */
const FUTURE_TOLERANCE_MS = 60_000;

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

const fieldOf = (row: ExamReportRow & { key: string }) =>
  valuedFields(row).find((v) => v.field.key === row.key);

/** Observation (vital signs from triage, values of validated laboratory exams) and DiagnosticReport (exams). */
export class FhirObservationsService extends FhirBase {
  private readonly care = new CareService(this.app);
  private readonly exams = new ExamsService(this.app);
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
    if (isLabObservation(body, LAB_LOINC)) return this.createLabObservation(ctx, body, condition);
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

  /**
   * Records a laboratory value an instrument or a reference laboratory posts (decision 0085): matched to one lab
   * order of the patient (the one `basedOn` names, else her only open order whose exam has that analyte), entered
   * through the laboratory's own result entry (`ExamsService.postValue`: its roles, states, flags, version and
   * audit), never validated. Keyed by its identifier, so that a retry answers the first post and writes nothing.
   */
  private async createLabObservation(
    ctx: ServiceContext,
    body: FhirObservationIn,
    condition: ReturnType<typeof conditionOf> | null,
  ) {
    // The exams module's audience, as for every laboratory value (a secretary, a midwife: 403).
    if (!this.mayReadExams(ctx)) throw forbidden();
    const hospital = scopedHospital(ctx);
    const ident = body.identifier[0]!;
    const codes = labCodesOf(body.code);
    if (!codes.catalogue.length && !codes.loinc.some((c) => LAB_LOINC.has(c)))
      throw badRequest({ 'Observation.code': ['fhir.lab_code_unknown'] });
    if (new Date(body.effectiveDateTime).getTime() > this.care.now().getTime() + FUTURE_TOLERANCE_MS)
      throw badRequest({ 'Observation.effectiveDateTime': ['fhir.effective_future'] });
    const patientId = referenceId(body.subject.reference, 'Patient');
    if (!isUuid(patientId)) throw new ApiError(404, 'fhir.subject_unknown');
    const named = body.basedOn?.[0] ? orderRefOf(body.basedOn[0]) : null;
    if (body.basedOn?.[0] && !named)
      throw badRequest({ 'Observation.basedOn[0]': ['fhir.lab_based_on_invalid'] });
    const postKey = keyOfIdentifier(ident.system!, ident.value!);
    const posted = await withNotifications(this.app, async (tx, notify) => {
      // As for vital signs: posts of one identifier run one at a time, the keys locked in one order.
      const wanted = condition ? keyOfIdentifier(condition.system ?? '', condition.code) : postKey;
      const keys = [...new Set([wanted, postKey])].sort();
      for (const k of keys) await lockIdentifier(tx, hospital.id, 'Observation', k);
      const kept = await labPostsByKeys(tx, hospital.id, keys);
      const found = kept.get(wanted) ?? kept.get(postKey);
      if (found) return { ...found, created: false };
      const patient = patientId.toLowerCase();
      if (!(await findPatient(tx, hospital.id, patient))) throw new ApiError(404, 'fhir.subject_unknown');
      const { order, field } = await this.labTarget(tx, hospital.id, patient, named, codes);
      let value: number | string;
      try {
        value = labValueOf(body, field, order.exam_code);
      } catch (err) {
        if (err instanceof LabValueRefused) throw badRequest({ [err.expression]: [err.key] });
        throw err;
      }
      try {
        await this.exams.postValue(tx, notify, ctx, order.id, field.key, value);
      } catch (err) {
        // The laboratory's own checks (bounds, decimals, choices) name `results.{key}`: here, the value element.
        if (err instanceof ApiError && err.statusCode === 400 && err.extra.fields) {
          const value = valueElementOf(field);
          const element = `Observation.${value}${value === 'valueQuantity' ? '.value' : ''}`;
          throw new ApiError(400, err.key, { fields: { [element]: Object.values(err.extra.fields).flat() } });
        }
        throw err;
      }
      await insertLabPost(tx, {
        hospitalId: hospital.id,
        key: postKey,
        orderId: order.id,
        fieldKey: field.key,
        postedBy: actingUser(ctx).id,
      });
      return { orderId: order.id, key: field.key, created: true };
    });
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchLabValues(
        tx,
        hospital.id,
        { orderId: posted.orderId, key: posted.key, date: [], lastUpdated: [], entered: true },
        1,
        0,
      );
      const row = rows[0];
      const valued = row ? fieldOf(row) : undefined;
      // Answered 404 when the value is gone since (the order was cancelled, the value corrected to empty).
      if (!row || !valued) throw notFound();
      const resource = toFhirLabObservation(row, valued.field, valued.entry, ctx.lang);
      if (!posted.created)
        await this.audit(ctx, tx, 'fhir.read', 'Observation', resource.id, row.patient_id, {
          conditional: true,
        });
      return { created: posted.created, resource, version: Number(row.version) };
    });
  }

  /**
   * The order and field a posted value goes into: the order `basedOn` names (this patient's laboratory order,
   * neither validated nor cancelled), else the patient's only open order whose exam has that analyte.
   */
  private async labTarget(
    tx: Queryable,
    hospitalId: string,
    patientId: string,
    named: { id: string } | { number: string } | null,
    codes: ReturnType<typeof labCodesOf>,
  ) {
    if (named) {
      const order = await labOrderByRef(tx, hospitalId, named);
      if (!order || order.patient_id !== patientId || order.kind !== 'lab')
        throw new ApiError(422, 'fhir.lab_order_unknown', {
          fields: { 'Observation.basedOn[0]': ['fhir.lab_order_unknown'] },
        });
      if (order.status === 'validated' || order.status === 'cancelled')
        throw new ApiError(422, 'fhir.lab_order_closed', {
          fields: { 'Observation.basedOn[0]': ['fhir.lab_order_closed'] },
        });
      const field = fieldNamed(order, codes);
      if (!field)
        throw new ApiError(422, 'fhir.lab_field_unknown', {
          fields: { 'Observation.code': ['fhir.lab_field_unknown'] },
        });
      return { order, field };
    }
    const matches = (await openLabOrdersOf(tx, hospitalId, patientId)).flatMap((order) => {
      const field = fieldNamed(order, codes);
      return field ? [{ order, field }] : [];
    });
    if (matches.length === 0)
      throw new ApiError(422, 'fhir.lab_no_open_order', {
        fields: { 'Observation.code': ['fhir.lab_no_open_order'] },
      });
    if (matches.length > 1)
      throw new ApiError(422, 'fhir.lab_ambiguous_order', {
        fields: { 'Observation.basedOn': ['fhir.lab_ambiguous_order'] },
      });
    return matches[0]!;
  }

  async readObservation(ctx: ServiceContext, id: string) {
    const lab = parseLabObservationId(id);
    if (lab) {
      if (!this.mayReadExams(ctx)) throw forbidden();
      return this.readLabObservation(ctx, lab);
    }
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

  private readLabObservation(ctx: ServiceContext, id: { orderId: string; key: string }) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchLabValues(
        tx,
        hospital.id,
        { orderId: id.orderId, key: id.key, date: [], lastUpdated: [], entered: true },
        1,
        0,
      );
      const row = rows[0];
      const valued = row ? fieldOf(row) : undefined;
      if (!row || !valued) throw notFound();
      const resource = toFhirLabObservation(row, valued.field, valued.entry, ctx.lang);
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

  // —— DiagnosticReport (validated exams) ——

  async readDiagnosticReport(ctx: ServiceContext, id: string) {
    return this.readById(
      ctx,
      'DiagnosticReport',
      id,
      (q, hospitalId, rowId) => searchReports(q, hospitalId, { id: rowId, date: [], lastUpdated: [] }, 1, 0),
      (row) => toFhirDiagnosticReport(row, ctx.lang),
    );
  }

  private reportFilters(params: Params): ReportFilters | null {
    const patient = patientParam(params);
    if (patient === false) return null;
    const categories = valuesOf(params.category).flatMap((v) => v.split(','));
    const codes = valuesOf(params.code)
      .flatMap((v) => v.split(','))
      .map(tokenOf);
    const kinds = (Object.keys(REPORT_CATEGORY) as (keyof typeof REPORT_CATEGORY)[]).filter((k) =>
      categories.some((c) => tokenOf(c).code === REPORT_CATEGORY[k]),
    );
    return {
      ...(patient ? { patientId: patient } : {}),
      ...(categories.length ? { kinds } : {}),
      ...(codes.length
        ? {
            loinc: codes.filter((c) => c.system === null || c.system === LOINC).map((c) => c.code),
            examCodes: codes
              .filter((c) => c.system === null || c.system === EXAM_CATALOGUE_SYSTEM)
              .map((c) => c.code.toUpperCase()),
          }
        : {}),
      date: ranges(params, 'date'),
      lastUpdated: ranges(params, '_lastUpdated'),
    };
  }

  async searchDiagnosticReports(ctx: ServiceContext, req: SearchRequest) {
    return this.searchWithPatients(ctx, req, false, 'DiagnosticReport', this.reportFilters(req.params), {
      search: searchReports,
      toResources: (rows) => rows.map((r) => toFhirDiagnosticReport(r, ctx.lang)),
    });
  }
}
