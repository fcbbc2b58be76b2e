import type { PatientRow } from '../patients/patients.repository.js';
import { metaOf } from './fhir.bundle.js';
import { ALLERGY_CLINICAL, ALLERGY_VERIFICATION, SNOMED } from './fhir.systems.js';

/** SNOMED CT "No known allergy" (the coded form of an asked and empty allergy list). */
export const NO_KNOWN_ALLERGY = { system: SNOMED, code: '716186003', display: 'No known allergy' };

/**
 * The allergies of a patient record as FHIR R4 AllergyIntolerances: one per allergy written (free text, ids
 * `{patient}-a{n}`), or the coded "no known allergy" (`{patient}-nka`) when someone asked and there is none;
 * nothing when nobody asked.
 */
export function toFhirAllergies(
  p: Pick<PatientRow, 'id' | 'allergies' | 'allergiesRecorded' | 'version' | 'updatedAt'>,
) {
  const common = (id: string) => ({
    resourceType: 'AllergyIntolerance',
    id,
    meta: metaOf(p.version, p.updatedAt),
    clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: 'active' }] },
    patient: { reference: `Patient/${p.id}` },
  });
  if (p.allergies.length === 0) {
    if (!p.allergiesRecorded) return [];
    return [
      {
        ...common(`${p.id}-nka`),
        verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'confirmed' }] },
        code: { coding: [NO_KNOWN_ALLERGY], text: NO_KNOWN_ALLERGY.display },
      },
    ];
  }
  return p.allergies.map((text, n) => ({
    ...common(`${p.id}-a${n}`),
    verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'unconfirmed' }] },
    code: { text },
  }));
}

/** `{patient}-nka` or `{patient}-a{n}` → the patient's id, or null. */
export function patientOfAllergyId(id: string): string | null {
  const m = /^([0-9a-f-]{36})-(nka|a\d{1,4})$/.exec(id);
  return m ? m[1]! : null;
}
