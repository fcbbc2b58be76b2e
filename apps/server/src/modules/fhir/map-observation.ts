import { metaOf } from './fhir.bundle.js';
import { BP_PROFILE, LOINC, OBSERVATION_CATEGORY, UCUM, VITAL_SIGNS_PROFILE } from './fhir.systems.js';

export interface VitalsRow {
  [column: string]: unknown;
  id: string;
  patient_id: string;
  admission_id: string;
  recorded_at: Date | string;
  recorded_by: string;
  temperature: number | string | null;
  heart_rate: number | null;
  respiratory_rate: number | null;
  systolic_bp: number | null;
  diastolic_bp: number | null;
  spo2: number | null;
  weight: number | string | null;
  height: number | string | null;
}

/**
 * The vital signs of a triage record, each one Observation of the vital-signs profile (LOINC code, UCUM unit).
 * Its id is the triage record's id and the key, so that one recording gives stable ids.
 */
export const VITALS = {
  hr: { loinc: '8867-4', display: 'Heart rate', unit: '/min', ucum: '/min', column: 'heart_rate' },
  temp: { loinc: '8310-5', display: 'Body temperature', unit: '°C', ucum: 'Cel', column: 'temperature' },
  rr: {
    loinc: '9279-1',
    display: 'Respiratory rate',
    unit: '/min',
    ucum: '/min',
    column: 'respiratory_rate',
  },
  spo2: {
    loinc: '59408-5',
    display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
    unit: '%',
    ucum: '%',
    column: 'spo2',
  },
  weight: { loinc: '29463-7', display: 'Body weight', unit: 'kg', ucum: 'kg', column: 'weight' },
  height: { loinc: '8302-2', display: 'Body height', unit: 'cm', ucum: 'cm', column: 'height' },
  bp: {
    loinc: '85354-9',
    display: 'Blood pressure panel',
    unit: 'mm[Hg]',
    ucum: 'mm[Hg]',
    column: 'systolic_bp',
  },
} as const satisfies Record<
  string,
  { loinc: string; display: string; unit: string; ucum: string; column: string }
>;

export type VitalKey = keyof typeof VITALS;
export const VITAL_KEYS = Object.keys(VITALS) as VitalKey[];
const BY_LOINC = new Map(VITAL_KEYS.map((k) => [VITALS[k].loinc as string, k]));
/** The key of a LOINC code we publish (the panel's components are found through the panel). */
export const vitalKeyOfLoinc = (code: string): VitalKey | null => BY_LOINC.get(code) ?? null;

/** `{triage id}-{key}` → its parts, or null. */
export function parseObservationId(id: string): { triageId: string; key: VitalKey } | null {
  const m = /^([0-9a-f-]{36})-([a-z0-9]+)$/.exec(id);
  if (!m || !(m[2]! in VITALS)) return null;
  return { triageId: m[1]!, key: m[2] as VitalKey };
}

const quantity = (value: number, key: VitalKey) => ({
  value,
  unit: VITALS[key].unit,
  system: UCUM,
  code: VITALS[key].ucum,
});
const codeOf = (loinc: string, display: string) => ({
  coding: [{ system: LOINC, code: loinc, display }],
  text: display,
});

/** The observation `key` of a triage record, or null when that sign was not measured. */
export function toFhirVital(t: VitalsRow, key: VitalKey) {
  const v = VITALS[key];
  const at = new Date(t.recorded_at).toISOString();
  const base = {
    resourceType: 'Observation',
    id: `${t.id}-${key}`,
    meta: { ...metaOf(1, t.recorded_at), profile: [key === 'bp' ? BP_PROFILE : VITAL_SIGNS_PROFILE] },
    status: 'final',
    category: [
      {
        coding: [{ system: OBSERVATION_CATEGORY, code: 'vital-signs', display: 'Vital Signs' }],
        text: 'Vital Signs',
      },
    ],
    code: codeOf(v.loinc, v.display),
    subject: { reference: `Patient/${t.patient_id}` },
    encounter: { reference: `Encounter/${t.admission_id}` },
    effectiveDateTime: at,
    performer: [{ reference: `Practitioner/${t.recorded_by}` }],
  };
  if (key === 'bp') {
    if (t.systolic_bp === null || t.diastolic_bp === null) return null;
    return {
      ...base,
      component: [
        { code: codeOf('8480-6', 'Systolic blood pressure'), valueQuantity: quantity(t.systolic_bp, 'bp') },
        { code: codeOf('8462-4', 'Diastolic blood pressure'), valueQuantity: quantity(t.diastolic_bp, 'bp') },
      ],
    };
  }
  const raw = t[v.column as keyof VitalsRow];
  if (raw === null || raw === undefined) return null;
  return { ...base, valueQuantity: quantity(Number(raw), key) };
}
