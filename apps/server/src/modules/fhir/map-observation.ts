import { RESULT_TEXT_MAX } from '@greensen/shared/domain/exams';
import { VITAL_BOUNDS } from '@greensen/shared/domain/triage';
import { z } from 'zod';
import { metaOf } from './fhir.bundle.js';
import { zResourceInHeader } from './fhir.resources.js';
import { BP_PROFILE, LOINC, OBSERVATION_CATEGORY, UCUM, VITAL_SIGNS_PROFILE } from './fhir.systems.js';

export type VitalsRow = {
  id: string;
  patient_id: string;
  recorded_at: Date | string;
  recorded_by: string;
  /** Null for a ward set whose plan's stay has no visit. */
  admission_id: string | null;
  temperature: number | string | null;
  heart_rate: number | null;
  respiratory_rate: number | null;
  systolic_bp: number | null;
  diastolic_bp: number | null;
  spo2: number | null;
  weight: number | string | null;
  height: number | string | null;
};

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

/** `{set id}-{key}` (a triage record's or a ward set's id) → its parts, or null. */
export function parseObservationId(id: string): { setId: string; key: VitalKey } | null {
  const m = /^([0-9a-f-]{36})-([a-z0-9]+)$/.exec(id);
  if (!m || !(m[2]! in VITALS)) return null;
  return { setId: m[1]!, key: m[2] as VitalKey };
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
    ...(t.admission_id ? { encounter: { reference: `Encounter/${t.admission_id}` } } : {}),
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

// —— Observation create (an instrument posts a vital sign; decision 0083) ——

const zCoding = z.object({
  system: z.string().max(200).optional(),
  code: z.string().max(50).optional(),
  display: z.string().max(200).optional(),
});
export const zConcept = z.object({
  coding: z.array(zCoding).max(10).optional(),
  text: z.string().max(200).optional(),
});
export const zQuantity = z.strictObject({
  value: z.number(),
  unit: z.string().max(50).optional(),
  system: z.string().max(200).optional(),
  code: z.string().max(50).optional(),
});
const zReference = z.object({ reference: z.string().max(200), display: z.string().max(200).optional() });

/**
 * The Observation a client sends: the elements the endpoint maps, and the ones it accepts and does not keep
 * (`meta`, `text`, `category`, `issued`, `performer`, `device`: the recorder is the signed-in account). Any other
 * element is refused (400), never silently dropped.
 */
export const ZFhirObservationIn = z.strictObject({
  resourceType: z.literal('Observation'),
  ...zResourceInHeader,
  identifier: z
    .array(z.object({ system: z.string().max(200).optional(), value: z.string().max(100).optional() }))
    .min(1)
    .max(5),
  status: z.enum(['final', 'amended', 'corrected']),
  category: z.array(zConcept).max(5).optional(),
  code: zConcept,
  subject: zReference,
  encounter: zReference.optional(),
  effectiveDateTime: z.iso.datetime({ offset: true }),
  issued: z.string().max(40).optional(),
  performer: z.array(zReference).max(5).optional(),
  device: zReference.optional(),
  valueQuantity: zQuantity.optional(),
  /** A laboratory choice (the catalogue's code system, as map-lab.ts publishes it). */
  valueCodeableConcept: zConcept.optional(),
  /** A laboratory free-text result. */
  valueString: z.string().max(RESULT_TEXT_MAX).optional(),
  /** A laboratory value's order: `ServiceRequest/{order id}`, or its number as identifier (decision 0085). */
  basedOn: z
    .array(
      z.strictObject({
        reference: z.string().max(200).optional(),
        identifier: z
          .object({ system: z.string().max(200).optional(), value: z.string().max(100).optional() })
          .optional(),
        display: z.string().max(200).optional(),
      }),
    )
    .max(1)
    .optional(),
  // Accepted and not kept: Greensen computes the flags and the reference range from the catalogue.
  interpretation: z.array(zConcept).max(5).optional(),
  referenceRange: z.array(z.looseObject({})).max(5).optional(),
  component: z
    .array(z.strictObject({ code: zConcept, valueQuantity: zQuantity }))
    .max(2)
    .optional(),
  note: z
    .array(z.object({ text: z.string().trim().max(500) }))
    .max(1)
    .optional(),
});
export type FhirObservationIn = z.infer<typeof ZFhirObservationIn>;

/** The columns of a ward set a vital sign fills (bounds: `VITAL_BOUNDS` of packages/shared). */
const COLUMNS = {
  hr: ['heart_rate'],
  temp: ['temperature'],
  rr: ['respiratory_rate'],
  spo2: ['spo2'],
  weight: ['weight'],
  height: ['height'],
  bp: ['systolic_bp', 'diastolic_bp'],
} as const satisfies Record<VitalKey, readonly (keyof typeof VITAL_BOUNDS)[]>;

export type VitalValues = Partial<Record<keyof typeof VITAL_BOUNDS, number>>;

/** Why an Observation cannot be recorded: the element and the message key (a 400 on that element). */
export class ObservationRefused extends Error {
  constructor(
    readonly expression: string,
    readonly key: string,
    readonly status: 400 | 422 = 400,
  ) {
    super(key);
  }
}

const loincOf = (concept: z.infer<typeof zConcept>) =>
  (concept.coding ?? []).filter((c) => c.system === LOINC && c.code).map((c) => c.code!);

function checkedValue(
  q: z.infer<typeof zQuantity> | undefined,
  key: VitalKey,
  column: keyof typeof VITAL_BOUNDS,
  at: string,
) {
  if (!q) throw new ObservationRefused(at, 'fhir.value_required');
  if (q.system !== UCUM || q.code !== VITALS[key].ucum)
    throw new ObservationRefused(`${at}.code`, 'fhir.unit_unexpected');
  const b = VITAL_BOUNDS[column];
  if (
    !Number.isFinite(q.value) ||
    q.value < b.min ||
    q.value > b.max ||
    (b.integer && !Number.isInteger(q.value))
  )
    throw new ObservationRefused(`${at}.value`, 'fhir.value_out_of_bounds');
  return q.value;
}

/**
 * The vital sign an Observation carries: its key and values, checked against the LOINC codes the module maps,
 * the UCUM unit it publishes and the app's plausibility bounds (a laboratory value goes elsewhere: map-lab.ts).
 */
export function vitalOfObservation(body: FhirObservationIn): { key: VitalKey; values: VitalValues } {
  const codes = loincOf(body.code);
  const key = codes.map(vitalKeyOfLoinc).find((k) => k !== null) ?? null;
  if (!key) {
    throw new ObservationRefused('Observation.code', 'fhir.code_unknown');
  }
  // The elements of a laboratory value have no place in a vital sign.
  for (const element of [
    'valueCodeableConcept',
    'valueString',
    'basedOn',
    'interpretation',
    'referenceRange',
  ] as const)
    if (body[element] !== undefined)
      throw new ObservationRefused(`Observation.${element}`, 'fhir.element_unexpected');
  if (key === 'bp') {
    if (body.valueQuantity) throw new ObservationRefused('Observation.valueQuantity', 'fhir.bp_components');
    const part = (loinc: string, column: 'systolic_bp' | 'diastolic_bp') => {
      const i = (body.component ?? []).findIndex((c) => loincOf(c.code).includes(loinc));
      if (i < 0) throw new ObservationRefused('Observation.component', 'fhir.bp_components');
      return checkedValue(
        body.component![i]!.valueQuantity,
        'bp',
        column,
        `Observation.component[${i}].valueQuantity`,
      );
    };
    const values = {
      systolic_bp: part('8480-6', 'systolic_bp'),
      diastolic_bp: part('8462-4', 'diastolic_bp'),
    };
    if (values.diastolic_bp >= values.systolic_bp)
      throw new ObservationRefused('Observation.component', 'fhir.bp_components');
    return { key, values };
  }
  if (body.component?.length)
    throw new ObservationRefused('Observation.component', 'fhir.component_unexpected');
  const [column] = COLUMNS[key];
  return {
    key,
    values: { [column]: checkedValue(body.valueQuantity, key, column, 'Observation.valueQuantity') },
  };
}
