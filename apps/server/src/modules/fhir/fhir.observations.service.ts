import type { Queryable } from '../../db/client.js';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { FhirBase, isUuid, type Params, patientParam, ranges, type SearchRequest } from './fhir.base.js';
import { type FhirResource, tokenOf, valuesOf } from './fhir.bundle.js';
import {
  type LabValueFilters,
  type ReportFilters,
  searchLabValues,
  searchReports,
  searchVitals,
  type VitalFilters,
} from './fhir.repository.js';
import { EXAM_CATALOGUE_SYSTEM, LOINC, OBSERVATION_CATEGORY } from './fhir.systems.js';
import {
  type ExamReportRow,
  parseLabObservationId,
  REPORT_CATEGORY,
  toFhirDiagnosticReport,
  toFhirLabObservation,
  valuedFields,
} from './map-lab.js';
import {
  parseObservationId,
  toFhirVital,
  type VitalKey,
  type VitalsRow,
  vitalKeyOfLoinc,
} from './map-observation.js';

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

  private readLabObservation(ctx: ServiceContext, id: { orderId: string; key: string }) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchLabValues(
        tx,
        hospital.id,
        { orderId: id.orderId, key: id.key, date: [], lastUpdated: [] },
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

  private vitalFilters(params: Params): VitalFilters | null {
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
    const vitals = this.vitalFilters(req.params);
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
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    return this.app.db.transaction(async (tx) => {
      const { rows } = await searchReports(
        tx,
        hospital.id,
        { id: id.toLowerCase(), date: [], lastUpdated: [] },
        1,
        0,
      );
      const row = rows[0];
      if (!row) throw notFound();
      await this.audit(ctx, tx, 'fhir.read', 'DiagnosticReport', row.id, row.patient_id);
      return toFhirDiagnosticReport(row, ctx.lang);
    });
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
