import { metaOf } from './fhir.bundle.js';
import { CONDITION_CATEGORY, CONDITION_CLINICAL, CONDITION_VERIFICATION, ICD10 } from './fhir.systems.js';

export type DiagnosisRow = {
  id: string;
  patient_id: string;
  admission_id: string | null;
  icd_code: string | null;
  label: string;
  coded: boolean;
  rank: 'primary' | 'secondary';
  certainty: 'confirmed' | 'suspected';
  notes: string | null;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** A diagnosis of a consultation as a FHIR R4 Condition (encounter diagnosis, ICD-10 code or free text). */
export function toFhirCondition(d: DiagnosisRow) {
  return {
    resourceType: 'Condition',
    id: d.id,
    meta: metaOf(new Date(d.updated_at).getTime(), d.updated_at),
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'active' }] },
    verificationStatus: {
      coding: [
        { system: CONDITION_VERIFICATION, code: d.certainty === 'confirmed' ? 'confirmed' : 'provisional' },
      ],
    },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'encounter-diagnosis' }] }],
    code: {
      ...(d.coded && d.icd_code ? { coding: [{ system: ICD10, code: d.icd_code, display: d.label }] } : {}),
      text: d.label,
    },
    subject: { reference: `Patient/${d.patient_id}` },
    ...(d.admission_id ? { encounter: { reference: `Encounter/${d.admission_id}` } } : {}),
    recordedDate: new Date(d.created_at).toISOString(),
    recorder: { reference: `Practitioner/${d.created_by}` },
    ...(d.notes ? { note: [{ text: d.notes }] } : {}),
  };
}
