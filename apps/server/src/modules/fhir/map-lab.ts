import {
  ageInYears,
  type ExamField,
  type ExamResultEntry,
  referenceRange,
  referenceText,
} from '@greensen/shared/domain/exams';
import { metaOf } from './fhir.bundle.js';
import {
  EXAM_CATALOGUE_SYSTEM,
  LOINC,
  OBSERVATION_CATEGORY,
  OBSERVATION_INTERPRETATION,
  quantityOf,
  UCUM,
  V2_DIAGNOSTIC_SECTION,
} from './fhir.systems.js';

/** A validated exam order with its catalogue entry and what the reference ranges need of the patient. */
export type ExamReportRow = {
  id: string;
  order_number: string;
  patient_id: string;
  admission_id: string | null;
  kind: 'lab' | 'imaging';
  exam_code: string;
  name_fr: string;
  name_en: string;
  exam_loinc: string | null;
  fields: ExamField[] | string;
  results: Record<string, ExamResultEntry> | string | null;
  report: string | null;
  effective_at: Date | string;
  /** `validated` for everything published; a read by id also answers entered values (preliminary). */
  status: string;
  validated_at: Date | string | null;
  validated_by: string | null;
  resulted_by: string | null;
  updated_at: Date | string;
  version: number;
  sex: 'F' | 'M';
  birth_date: string | null;
};

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** The system of an exam order's number (DiagnosticReport.identifier; a posted value's `basedOn.identifier`). */
export const EXAM_ORDER_NUMBER = 'urn:greensen:exam-order-number';

/** A lab Observation's id: `lab-{order}-{field key}` (the vital signs' ids are `{triage}-{key}`). */
export const labObservationId = (orderId: string, key: string) => `lab-${orderId}-${key}`;
export function parseLabObservationId(id: string): { orderId: string; key: string } | null {
  const m = /^lab-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([a-z0-9]{1,20})$/.exec(
    id.toLowerCase(),
  );
  return m ? { orderId: m[1]!, key: m[2]! } : null;
}

/** The category of a report: laboratory LAB, imaging RAD (v2-0074), and back for searches. */
export const REPORT_CATEGORY = { lab: 'LAB', imaging: 'RAD' } as const;

/** v3 interpretation of the flag the app stored with the value (against the patient's reference range). */
const INTERPRETATION = {
  high: { code: 'H', display: 'High' },
  low: { code: 'L', display: 'Low' },
  abnormal: { code: 'A', display: 'Abnormal' },
  normal: { code: 'N', display: 'Normal' },
} as const;

const labelOf = (f: { label_fr: string; label_en: string }, lang: 'fr' | 'en') =>
  lang === 'fr' ? f.label_fr : f.label_en;

/** The code of an analyte: its LOINC code when the catalogue has one, always the catalogue's own code and label. */
function fieldCode(row: ExamReportRow, field: ExamField, lang: 'fr' | 'en') {
  const text = labelOf(field, lang);
  return {
    coding: [
      ...(field.loinc ? [{ system: LOINC, code: field.loinc, display: text }] : []),
      { system: EXAM_CATALOGUE_SYSTEM, code: `${row.exam_code}.${field.key}`, display: text },
    ],
    text,
  };
}

/** The fields of a report that hold a value, in the catalogue's order. */
export function valuedFields(row: ExamReportRow): { field: ExamField; entry: ExamResultEntry }[] {
  const results = row.results ? json(row.results) : {};
  return json(row.fields).flatMap((field) => {
    const entry = results[field.key];
    return entry && entry.value !== null && entry.value !== '' ? [{ field, entry }] : [];
  });
}

/** One validated laboratory value as a FHIR R4 Observation (category laboratory). */
export function toFhirLabObservation(
  row: ExamReportRow,
  field: ExamField,
  entry: ExamResultEntry,
  lang: 'fr' | 'en',
) {
  const patient = { sex: row.sex, age: ageInYears(row.birth_date, row.effective_at) };
  const range = field.type === 'number' ? referenceRange(field, patient) : null;
  const interpretation =
    entry.flag !== null
      ? INTERPRETATION[entry.flag]
      : field.type === 'choice' || range
        ? INTERPRETATION.normal
        : null;
  let value: Record<string, unknown>;
  if (field.type === 'number' && typeof entry.value === 'number')
    value = { valueQuantity: quantityOf(entry.value, field.unit) };
  else if (field.type === 'choice') {
    const choice = field.choices?.find((c) => c.value === entry.value);
    const text = choice ? labelOf(choice, lang) : String(entry.value);
    value = {
      valueCodeableConcept: {
        coding: [
          { system: `${EXAM_CATALOGUE_SYSTEM}:${row.exam_code}.${field.key}`, code: String(entry.value) },
        ],
        text,
      },
    };
  } else value = { valueString: String(entry.value) };
  const text = referenceText(range);
  return {
    resourceType: 'Observation',
    id: labObservationId(row.id, field.key),
    meta: metaOf(row.version, row.updated_at),
    identifier: [{ system: EXAM_ORDER_NUMBER, value: `${row.order_number}.${field.key}` }],
    // Entered but not validated by the biologist yet (a posted value read back): preliminary, not issued.
    status: row.status === 'validated' ? 'final' : 'preliminary',
    category: [
      {
        coding: [{ system: OBSERVATION_CATEGORY, code: 'laboratory', display: 'Laboratory' }],
        text: 'Laboratory',
      },
    ],
    code: fieldCode(row, field, lang),
    subject: { reference: `Patient/${row.patient_id}` },
    ...(row.admission_id ? { encounter: { reference: `Encounter/${row.admission_id}` } } : {}),
    effectiveDateTime: new Date(row.effective_at).toISOString(),
    ...(row.validated_at ? { issued: new Date(row.validated_at).toISOString() } : {}),
    ...(row.resulted_by ? { performer: [{ reference: `Practitioner/${row.resulted_by}` }] } : {}),
    ...value,
    ...(interpretation
      ? {
          interpretation: [
            {
              coding: [{ system: OBSERVATION_INTERPRETATION, ...interpretation }],
              text: interpretation.display,
            },
          ],
        }
      : {}),
    ...(range && (typeof range.low === 'number' || typeof range.high === 'number')
      ? {
          referenceRange: [
            {
              ...(typeof range.low === 'number' ? { low: quantityOf(range.low, field.unit) } : {}),
              ...(typeof range.high === 'number' ? { high: quantityOf(range.high, field.unit) } : {}),
              ...(text ? { text } : {}),
            },
          ],
        }
      : {}),
  };
}

/** The laboratory Observations of a validated lab report (imaging reports have none: their report is text). */
export function toFhirLabObservations(row: ExamReportRow, lang: 'fr' | 'en') {
  if (row.kind !== 'lab') return [];
  return valuedFields(row).map(({ field, entry }) => toFhirLabObservation(row, field, entry, lang));
}

/**
 * A validated exam as a FHIR R4 DiagnosticReport: category LAB or RAD, the exam's LOINC code when the catalogue
 * has one (always its own code and name), `result` its laboratory Observations, `conclusion` the report.
 */
export function toFhirDiagnosticReport(row: ExamReportRow, lang: 'fr' | 'en') {
  const name = lang === 'fr' ? row.name_fr : row.name_en;
  const category = REPORT_CATEGORY[row.kind];
  const results =
    row.kind === 'lab'
      ? valuedFields(row).map(({ field }) => ({
          reference: `Observation/${labObservationId(row.id, field.key)}`,
        }))
      : [];
  return {
    resourceType: 'DiagnosticReport',
    id: row.id,
    meta: metaOf(row.version, row.updated_at),
    identifier: [{ system: EXAM_ORDER_NUMBER, value: row.order_number }],
    status: 'final',
    category: [{ coding: [{ system: V2_DIAGNOSTIC_SECTION, code: category }] }],
    code: {
      coding: [
        ...(row.exam_loinc ? [{ system: LOINC, code: row.exam_loinc, display: name }] : []),
        { system: EXAM_CATALOGUE_SYSTEM, code: row.exam_code, display: name },
      ],
      text: name,
    },
    subject: { reference: `Patient/${row.patient_id}` },
    ...(row.admission_id ? { encounter: { reference: `Encounter/${row.admission_id}` } } : {}),
    effectiveDateTime: new Date(row.effective_at).toISOString(),
    ...(row.validated_at ? { issued: new Date(row.validated_at).toISOString() } : {}),
    ...(row.resulted_by ? { performer: [{ reference: `Practitioner/${row.resulted_by}` }] } : {}),
    ...(row.validated_by ? { resultsInterpreter: [{ reference: `Practitioner/${row.validated_by}` }] } : {}),
    ...(results.length ? { result: results } : {}),
    ...(row.report ? { conclusion: row.report } : {}),
  };
}

// —— Laboratory Observation create (an instrument or a reference laboratory posts a value; decision 0085) ——

type Concept = { coding?: { system?: string | undefined; code?: string | undefined }[] | undefined };

/** The codes a posted Observation names: LOINC codes and the catalogue's `{EXAM}.{field}` codes. */
export function labCodesOf(code: Concept) {
  const codings = code.coding ?? [];
  return {
    loinc: codings.filter((c) => c.system === LOINC && c.code).map((c) => c.code!),
    catalogue: codings
      .filter((c) => c.system === EXAM_CATALOGUE_SYSTEM && c.code)
      .map((c) => c.code!.toUpperCase()),
  };
}

/**
 * Whether a posted Observation is a laboratory value: category `laboratory`, a LOINC code of the catalogue (an
 * analyte's or an exam's, `labLoinc`), or a code of the catalogue's own system.
 */
export function isLabObservation(
  body: { code: Concept; category?: Concept[] | undefined },
  labLoinc: ReadonlySet<string>,
) {
  const codes = labCodesOf(body.code);
  const laboratory = (body.category ?? []).some((c) =>
    (c.coding ?? []).some((x) => x.system === OBSERVATION_CATEGORY && x.code === 'laboratory'),
  );
  return laboratory || codes.catalogue.length > 0 || codes.loinc.some((c) => labLoinc.has(c));
}

/** The field of an order's exam that a posted code names (the analyte's LOINC code, or `{exam}.{field}`). */
export function fieldNamed(
  order: { exam_code: string; fields: ExamField[] | string },
  codes: { loinc: string[]; catalogue: string[] },
): ExamField | null {
  return (
    json(order.fields).find(
      (f) =>
        (f.loinc !== undefined && codes.loinc.includes(f.loinc)) ||
        codes.catalogue.includes(`${order.exam_code}.${f.key}`.toUpperCase()),
    ) ?? null
  );
}

/** Why a posted laboratory value is refused: the element and the message key (400 on that element). */
export class LabValueRefused extends Error {
  constructor(
    readonly expression: string,
    readonly key: string,
  ) {
    super(key);
  }
}

/** The Observation's value element that carries a catalogue field's value (number, choice, text). */
export function valueElementOf(field: ExamField): 'valueQuantity' | 'valueCodeableConcept' | 'valueString' {
  return field.type === 'number'
    ? 'valueQuantity'
    : field.type === 'choice'
      ? 'valueCodeableConcept'
      : 'valueString';
}

/**
 * The value a posted laboratory Observation gives `field`, read by the field's type: a number in the field's UCUM
 * unit (`valueQuantity`, no conversion), a choice of the catalogue's code system (`valueCodeableConcept`), a text
 * (`valueString`). Its bounds, decimals and choices are checked by the laboratory's own result entry.
 */
export function labValueOf(
  body: {
    valueQuantity?: {
      value: number;
      unit?: string | undefined;
      system?: string | undefined;
      code?: string | undefined;
    };
    valueCodeableConcept?: Concept;
    valueString?: string;
  },
  field: ExamField,
  examCode: string,
): number | string {
  const given = (['valueQuantity', 'valueCodeableConcept', 'valueString'] as const).filter(
    (k) => body[k] !== undefined,
  );
  const wanted = valueElementOf(field);
  if (given.length !== 1 || given[0] !== wanted)
    throw new LabValueRefused(`Observation.${wanted}`, 'fhir.lab_value_type');
  if (field.type === 'number') {
    const q = body.valueQuantity!;
    const expected = quantityOf(0, field.unit);
    const sameUnit = expected.code
      ? q.system === UCUM && q.code === expected.code
      : q.system === undefined && q.code === undefined && q.unit === (field.unit ?? undefined);
    if (!sameUnit) throw new LabValueRefused('Observation.valueQuantity.code', 'fhir.unit_unexpected');
    return q.value;
  }
  if (field.type === 'choice') {
    const system = `${EXAM_CATALOGUE_SYSTEM}:${examCode}.${field.key}`;
    const coding = (body.valueCodeableConcept!.coding ?? []).find((c) => c.system === system && c.code);
    if (!coding) throw new LabValueRefused('Observation.valueCodeableConcept', 'fhir.lab_choice_system');
    return coding.code!;
  }
  return body.valueString!;
}

/**
 * The order a posted value's `basedOn` names: `ServiceRequest/{order id}`, or the order's number with the system
 * DiagnosticReport.identifier has; null when it names neither.
 */
export function orderRefOf(ref: {
  reference?: string | undefined;
  identifier?: { system?: string | undefined; value?: string | undefined } | undefined;
}): { id: string } | { number: string } | null {
  if (ref.reference) {
    const m = /^ServiceRequest\/([0-9a-fA-F-]{36})$/.exec(ref.reference);
    return m && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(m[1]!)
      ? { id: m[1]!.toLowerCase() }
      : null;
  }
  if (ref.identifier?.system === EXAM_ORDER_NUMBER && ref.identifier.value)
    return { number: ref.identifier.value };
  return null;
}
