import { metaOf } from './fhir.bundle.js';

export interface HospitalRow {
  id: string;
  name: string;
  code: string;
  address: string | null;
  phones: string[];
  updated_at: Date | string;
}

/** The hospital as a FHIR R4 Organization (type `prov`, healthcare provider). */
export function toFhirOrganization(h: HospitalRow) {
  return {
    resourceType: 'Organization',
    id: h.id,
    meta: metaOf(new Date(h.updated_at).getTime(), h.updated_at),
    identifier: [{ system: 'urn:greensen:hospital-code', value: h.code }],
    active: true,
    type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'prov' }] }],
    name: h.name,
    ...(h.phones.length ? { telecom: h.phones.map((value) => ({ system: 'phone', value })) } : {}),
    ...(h.address ? { address: [{ text: h.address }] } : {}),
  };
}
