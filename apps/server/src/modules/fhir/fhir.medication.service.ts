import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { findPrescription, linesOf, listPrescriptions } from '../pharmacy/pharmacy.repository.js';
import { FhirBase, isUuid, type Params, patientParam, ranges, type SearchRequest } from './fhir.base.js';
import { searchset, tokenOf, valuesOf } from './fhir.bundle.js';
import { type AdministrationFilters, searchAdministrations } from './fhir.repository.js';
import { ADMINISTRATION_STATUS, toFhirMedicationAdministration } from './map-medication-administration.js';
import {
  parseMedicationRequestId,
  REQUEST_STATUS,
  toFhirMedicationRequest,
} from './map-medication-request.js';

/** Who reads the MAR through FHIR: the app's care readers, each the doses of her departments (care.repository). */
export const ADMINISTRATION_READERS = ACTION_GROUPS['care.read'];
export const mayReadAdministrations = (ctx: ServiceContext) =>
  (ctx.hospital?.groups ?? []).some((g) => (ADMINISTRATION_READERS as readonly string[]).includes(g));

/** The app's MAR outcomes a `status` parameter names (completed, not-done). */
function outcomesOf(params: Params): AdministrationFilters['outcomes'] {
  const wanted = valuesOf(params.status).flatMap((v) => v.split(','));
  if (!wanted.length) return undefined;
  return (Object.keys(ADMINISTRATION_STATUS) as (keyof typeof ADMINISTRATION_STATUS)[]).filter((k) =>
    wanted.some((w) => tokenOf(w).code === ADMINISTRATION_STATUS[k]),
  );
}

/** MedicationRequest (a prescription's lines) and MedicationAdministration (the MAR's doses). */
export class FhirMedicationService extends FhirBase {
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

  // —— MedicationAdministration (the MAR) ——

  async readMedicationAdministration(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchAdministrations(
        tx,
        hospital.id,
        { id: id.toLowerCase(), date: [], lastUpdated: [], userId: actingUser(ctx).id },
        1,
        0,
      );
      const row = rows[0];
      if (!row) {
        // A dose of a department the caller does not work in: 403, as the care module answers (404 elsewhere).
        const { total } = await searchAdministrations(
          tx,
          hospital.id,
          { id: id.toLowerCase(), date: [], lastUpdated: [], userId: null },
          0,
          0,
        );
        throw total ? forbidden('care.other_department') : notFound();
      }
      await this.audit(ctx, tx, 'fhir.read', 'MedicationAdministration', row.id, row.patient_id);
      return toFhirMedicationAdministration(row, ctx.lang);
    });
  }

  /** The MAR's doses of the caller's departments, the latest first. */
  async searchMedicationAdministrations(ctx: ServiceContext, req: SearchRequest) {
    const patient = patientParam(req.params);
    const filters =
      patient === false
        ? null
        : {
            ...(patient ? { patientId: patient } : {}),
            outcomes: outcomesOf(req.params),
            date: ranges(req.params, 'date'),
            lastUpdated: ranges(req.params, '_lastUpdated'),
            userId: actingUser(ctx).id,
          };
    return this.searchWithPatients(ctx, req, false, 'MedicationAdministration', filters, {
      search: searchAdministrations,
      toResources: (rows) => rows.map((r) => toFhirMedicationAdministration(r, ctx.lang)),
    });
  }
}
