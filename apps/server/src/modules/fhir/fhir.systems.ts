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
