import { metaOf } from './fhir.bundle.js';
import { PARTICIPATION_TYPE, V3_ACT_CODE } from './fhir.systems.js';

export type EncounterRow = {
  id: string;
  patient_id: string;
  hospital_id: string;
  admission_type: 'outpatient' | 'emergency' | 'maternity' | 'inpatient';
  status: string;
  reason: string;
  admitted_at: Date | string;
  closed_at: Date | string | null;
  cancelled_at: Date | string | null;
  updated_at: Date | string;
  /** The doctor of the visit's consultation, when one is assigned. */
  doctor_id: string | null;
};

/** Admission status → Encounter.status (R4). A visit that led to a stay goes on as the stay: in progress. */
export const ENCOUNTER_STATUS: Record<string, string> = {
  waiting: 'arrived',
  assigned: 'triaged',
  in_consultation: 'in-progress',
  hospitalized: 'in-progress',
  completed: 'finished',
  transferred: 'finished',
  cancelled: 'cancelled',
};

/** Admission type → Encounter.class (v3 ActCode). Maternity visits are stays of the maternity ward. */
export const ENCOUNTER_CLASS: Record<EncounterRow['admission_type'], { code: string; display: string }> = {
  outpatient: { code: 'AMB', display: 'ambulatory' },
  emergency: { code: 'EMER', display: 'emergency' },
  maternity: { code: 'IMP', display: 'inpatient encounter' },
  inpatient: { code: 'IMP', display: 'inpatient encounter' },
};

const iso = (d: Date | string) => new Date(d).toISOString();

/** A visit (admission) as a FHIR R4 Encounter. */
export function toFhirEncounter(a: EncounterRow) {
  const end = a.closed_at ?? a.cancelled_at;
  return {
    resourceType: 'Encounter',
    id: a.id,
    meta: metaOf(new Date(a.updated_at).getTime(), a.updated_at),
    status: ENCOUNTER_STATUS[a.status] ?? 'unknown',
    class: { system: V3_ACT_CODE, ...ENCOUNTER_CLASS[a.admission_type] },
    subject: { reference: `Patient/${a.patient_id}` },
    ...(a.doctor_id
      ? {
          participant: [
            {
              type: [{ coding: [{ system: PARTICIPATION_TYPE, code: 'ATND', display: 'attender' }] }],
              individual: { reference: `Practitioner/${a.doctor_id}` },
            },
          ],
        }
      : {}),
    period: { start: iso(a.admitted_at), ...(end ? { end: iso(end) } : {}) },
    reasonCode: [{ text: a.reason }],
    serviceProvider: { reference: `Organization/${a.hospital_id}` },
  };
}
