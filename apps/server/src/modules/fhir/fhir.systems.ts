/** Code systems and identifier systems of the FHIR endpoint (docs/fhir.md). */
export const LOINC = 'http://loinc.org';
export const UCUM = 'http://unitsofmeasure.org';
export const SNOMED = 'http://snomed.info/sct';
export const ICD10 = 'http://hl7.org/fhir/sid/icd-10';
export const V3_ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
export const CONDITION_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
export const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
export const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
export const ALLERGY_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
export const V2_IDENTIFIER_TYPE = 'http://terminology.hl7.org/CodeSystem/v2-0203';
export const V2_CONTACT_ROLE = 'http://terminology.hl7.org/CodeSystem/v2-0131';
export const PARTICIPATION_TYPE = 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType';
export const BCP47 = 'urn:ietf:bcp:47';
export const VITAL_SIGNS_PROFILE = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';
export const BP_PROFILE = 'http://hl7.org/fhir/StructureDefinition/bp';

/** The record numbers of one hospital: a system per hospital, named by its code. */
export const recordNumberSystem = (hospitalCode: string) =>
  `urn:greensen:hospital:${hospitalCode.toLowerCase()}:record-number`;
/** The national identity number (one system for the installation: the country's). */
export const NATIONAL_ID_SYSTEM = 'urn:greensen:national-id';
export const LOCATION_PHYSICAL_TYPE = 'http://terminology.hl7.org/CodeSystem/location-physical-type';
export const V2_BED_STATUS = 'http://terminology.hl7.org/CodeSystem/v2-0116';
/** WHO ATC classification (medicines). */
export const ATC = 'http://www.whocc.no/atc';
/** HL7 v2 table 0074, diagnostic service section (DiagnosticReport.category: LAB, RAD). */
export const V2_DIAGNOSTIC_SECTION = 'http://terminology.hl7.org/CodeSystem/v2-0074';
/** v3 ObservationInterpretation (H, L, N, A…). */
export const OBSERVATION_INTERPRETATION =
  'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
/** The exam catalogue's own codes (an exam or analyte without a certain LOINC code). */
export const EXAM_CATALOGUE_SYSTEM = 'urn:greensen:exam-catalogue';
/** The MAR's reasons for a dose not given (care contracts, DOSE_NOT_GIVEN_REASONS). */
export const DOSE_NOT_GIVEN_SYSTEM = 'urn:greensen:dose-not-given-reason';

/**
 * The UCUM code of a unit as the app writes it (the exam catalogue's units, a dose's unit), or null when it is
 * not a UCUM unit (comprimé, goutte): then the quantity carries the unit as text only.
 */
const UCUM_OF: Record<string, string> = {
  'g/dL': 'g/dL',
  '%': '%',
  '10⁶/µL': '10*6/uL',
  '10³/µL': '10*3/uL',
  fL: 'fL',
  pg: 'pg',
  'mmol/L': 'mmol/L',
  'µmol/L': 'umol/L',
  'mg/L': 'mg/L',
  'U/L': 'U/L',
  mg: 'mg',
  g: 'g',
  µg: 'ug',
  mcg: 'ug',
  mL: 'mL',
  ml: 'mL',
  L: 'L',
  UI: '[iU]',
  IU: '[iU]',
};
export const ucumOf = (unit: string | null | undefined): string | null =>
  unit ? (UCUM_OF[unit] ?? null) : null;

/** A FHIR Quantity of a value in an app unit: with its UCUM code when the unit is one. */
export function quantityOf(value: number, unit: string | null | undefined) {
  const code = ucumOf(unit);
  return { value, ...(unit ? { unit } : {}), ...(code ? { system: UCUM, code } : {}) };
}
