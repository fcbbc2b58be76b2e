import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { EXAM_CATALOGUE } from '../exams/exam-catalogue.data.js';
import { ExamsService } from '../exams/exams.service.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { findPatient } from '../patients/patients.repository.js';
import {
  type conditionOf,
  FhirBase,
  FUTURE_TOLERANCE_MS,
  isUuid,
  keyOfIdentifier,
  type Params,
  patientParam,
  ranges,
  type SearchRequest,
} from './fhir.base.js';
import { referenceId, tokenOf, valuesOf } from './fhir.bundle.js';
import {
  insertLabPost,
  labOrderByRef,
  labPostsByKeys,
  openLabOrdersOf,
  type ReportFilters,
  searchLabValues,
  searchReports,
} from './fhir.lab.repository.js';
import { lockIdentifier } from './fhir.repository.js';
import { EXAM_CATALOGUE_SYSTEM, LOINC } from './fhir.systems.js';
import {
  type ExamReportRow,
  fieldNamed,
  LabValueRefused,
  labCodesOf,
  labValueOf,
  orderRefOf,
  REPORT_CATEGORY,
  toFhirDiagnosticReport,
  toFhirLabObservation,
  valuedFields,
  valueElementOf,
} from './map-lab.js';
import type { FhirObservationIn } from './map-observation.js';

defineMessages({
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
});

/** The analytes' and exams' LOINC codes of the catalogue (a posted Observation with one is a laboratory value). */
export const LAB_LOINC = new Set(
  EXAM_CATALOGUE.flatMap((e) => [e.loinc, ...e.fields.map((f) => f.loinc)]).filter(
    (c): c is string => typeof c === 'string',
  ),
);

/** The analyte of a laboratory value's row, with its entry (none when the value is empty). */
export const fieldOf = (row: ExamReportRow & { key: string }) =>
  valuedFields(row).find((v) => v.field.key === row.key);

/**
 * The laboratory's side of FHIR (decision 0085): the values of lab orders as Observations (posted by an instrument
 * or a reference laboratory, read by id) and the validated exams as DiagnosticReports. The Observation search that
 * mixes vital signs and laboratory values is `fhir.observations.service.ts`.
 */
export class FhirLabService extends FhirBase {
  private readonly exams = new ExamsService(this.app);

  /**
   * Records a laboratory value an instrument or a reference laboratory posts (decision 0085): matched to one lab
   * order of the patient (the one `basedOn` names, else her only open order whose exam has that analyte), entered
   * through the laboratory's own result entry (`ExamsService.postValue`: its roles, states, flags, version and
   * audit), never validated. Keyed by its identifier, so that a retry answers the first post and writes nothing.
   */
  async createLabObservation(
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
    if (new Date(body.effectiveDateTime).getTime() > this.app.jobs.now().getTime() + FUTURE_TOLERANCE_MS)
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
      // Answered 404 when the value is gone since (the order was cancelled, the value corrected to empty).
      const { row, resource } = await this.labValue(tx, ctx, hospital.id, posted);
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

  /** An entered laboratory value (its order's row) and its Observation; 404 when it is not (or no longer) valued. */
  private async labValue(
    tx: Queryable,
    ctx: ServiceContext,
    hospitalId: string,
    id: { orderId: string; key: string },
  ) {
    const { rows } = await searchLabValues(
      tx,
      hospitalId,
      { orderId: id.orderId, key: id.key, date: [], lastUpdated: [], entered: true },
      1,
      0,
    );
    const row = rows[0];
    const valued = row ? fieldOf(row) : undefined;
    if (!row || !valued) throw notFound();
    return { row, resource: toFhirLabObservation(row, valued.field, valued.entry, ctx.lang) };
  }

  /** A laboratory value by its id (`lab-{order}-{analyte}`): the exams module's audience, as for every laboratory value. */
  async readLabObservation(ctx: ServiceContext, id: { orderId: string; key: string }) {
    if (!this.mayReadExams(ctx)) throw forbidden();
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const { row, resource } = await this.labValue(tx, ctx, hospital.id, id);
      await this.audit(ctx, tx, 'fhir.read', 'Observation', resource.id, row.patient_id);
      return resource;
    });
  }

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
