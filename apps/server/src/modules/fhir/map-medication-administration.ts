import { metaOf } from './fhir.bundle.js';
import { ATC, DOSE_NOT_GIVEN_SYSTEM, quantityOf } from './fhir.systems.js';
import { medicationRequestId } from './map-medication-request.js';

/** One dose of the MAR (`medication_administrations`) with its line's medicine and its stay or visit. */
export type AdministrationRow = {
  id: string;
  patient_id: string;
  /** The visit (admission) of the plan, or of the plan's stay. */
  admission_id: string | null;
  prescription_id: string;
  position: number;
  outcome: 'given' | 'not_given';
  scheduled_at: Date | string;
  given_at: Date | string | null;
  dose: number | string | null;
  dose_unit: string | null;
  route: string | null;
  site: string | null;
  reason: string | null;
  note: string | null;
  recorded_by: string;
  recorded_at: Date | string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  strength: string;
};

/** The FHIR status of a MAR outcome (MedicationAdministration.status), and back for searches. */
export const ADMINISTRATION_STATUS = { given: 'completed', not_given: 'not-done' } as const;

/**
 * A dose of the MAR as a FHIR R4 MedicationAdministration: given → completed (when it was given, the dose, the
 * route as text), not given → not-done with its reason; `request` the prescription line's MedicationRequest,
 * `context` the visit's Encounter, `performer` the nurse who recorded it. Never changed once recorded (version 1).
 */
export function toFhirMedicationAdministration(r: AdministrationRow, lang: 'fr' | 'en') {
  const inn = lang === 'fr' ? r.inn_fr : r.inn_en;
  const given = r.outcome === 'given';
  const dose = r.dose === null ? null : Number(r.dose);
  return {
    resourceType: 'MedicationAdministration',
    id: r.id,
    meta: metaOf(1, r.recorded_at),
    status: ADMINISTRATION_STATUS[r.outcome],
    ...(!given && r.reason
      ? { statusReason: [{ coding: [{ system: DOSE_NOT_GIVEN_SYSTEM, code: r.reason }], text: r.reason }] }
      : {}),
    medicationCodeableConcept: {
      ...(r.atc_code ? { coding: [{ system: ATC, code: r.atc_code, display: inn }] } : {}),
      text: `${inn} ${r.strength}`,
    },
    subject: { reference: `Patient/${r.patient_id}` },
    ...(r.admission_id ? { context: { reference: `Encounter/${r.admission_id}` } } : {}),
    effectiveDateTime: new Date(given && r.given_at ? r.given_at : r.scheduled_at).toISOString(),
    performer: [{ actor: { reference: `Practitioner/${r.recorded_by}` } }],
    request: { reference: `MedicationRequest/${medicationRequestId(r.prescription_id, r.position)}` },
    ...(r.note ? { note: [{ text: r.note }] } : {}),
    ...(given && dose !== null
      ? {
          dosage: {
            ...(r.site ? { site: { text: r.site } } : {}),
            ...(r.route ? { route: { text: r.route } } : {}),
            // The unit as written; its UCUM code when it is one (mg, mL), text only otherwise (comprimé).
            dose: quantityOf(dose, r.dose_unit),
          },
        }
      : {}),
  };
}
