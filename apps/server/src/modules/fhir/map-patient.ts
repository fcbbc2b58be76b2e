import type { PatientRow } from '../patients/patients.repository.js';
import type { PatientInput } from '../patients/patients.service.js';
import { metaOf } from './fhir.bundle.js';
import {
  BCP47,
  NATIONAL_ID_SYSTEM,
  recordNumberSystem,
  V2_CONTACT_ROLE,
  V2_IDENTIFIER_TYPE,
} from './fhir.systems.js';

/** A Greensen patient record as a FHIR R4 Patient. */
export function toFhirPatient(p: PatientRow, hospitalCode: string) {
  const telecom = [
    ...(p.phone ? [{ system: 'phone', value: p.phone, use: 'mobile' }] : []),
    ...(p.email ? [{ system: 'email', value: p.email }] : []),
  ];
  const contactTelecom = p.emergencyContactPhone ? [{ system: 'phone', value: p.emergencyContactPhone }] : [];
  return {
    resourceType: 'Patient',
    id: p.id,
    meta: metaOf(p.version, p.updatedAt),
    identifier: [
      {
        use: 'usual',
        type: { coding: [{ system: V2_IDENTIFIER_TYPE, code: 'MR' }] },
        system: recordNumberSystem(hospitalCode),
        value: p.recordNumber,
      },
      ...(p.nationalId
        ? [
            {
              use: 'official',
              type: { coding: [{ system: V2_IDENTIFIER_TYPE, code: 'NI' }] },
              system: NATIONAL_ID_SYSTEM,
              value: p.nationalId,
            },
          ]
        : []),
    ],
    active: p.archivedAt === null,
    name: [{ use: 'official', family: p.lastName, given: [p.firstName] }],
    ...(telecom.length ? { telecom } : {}),
    gender: p.sex === 'F' ? 'female' : 'male',
    ...(p.birthDate ? { birthDate: p.birthDate } : {}),
    ...(p.deceasedAt ? { deceasedDateTime: new Date(p.deceasedAt).toISOString() } : {}),
    ...(p.address ? { address: [{ text: p.address }] } : {}),
    ...(p.emergencyContactName || contactTelecom.length
      ? {
          contact: [
            {
              relationship: [{ coding: [{ system: V2_CONTACT_ROLE, code: 'C' }] }],
              ...(p.emergencyContactName ? { name: { text: p.emergencyContactName } } : {}),
              ...(contactTelecom.length ? { telecom: contactTelecom } : {}),
            },
          ],
        }
      : {}),
    ...(p.preferredLanguage
      ? {
          communication: [
            { language: { coding: [{ system: BCP47, code: p.preferredLanguage }] }, preferred: true },
          ],
        }
      : {}),
  };
}

/** What a FHIR Patient sent to the endpoint may carry (validated by the route's zod schema). */
export interface FhirPatientIn {
  resourceType: 'Patient';
  id?: string | undefined;
  identifier?: { system?: string | undefined; value?: string | undefined }[] | undefined;
  name?:
    | { family?: string | undefined; given?: string[] | undefined; text?: string | undefined }[]
    | undefined;
  gender?: 'male' | 'female' | 'other' | 'unknown' | undefined;
  birthDate?: string | undefined;
  telecom?: { system?: string | undefined; value?: string | undefined }[] | undefined;
  address?:
    | { text?: string | undefined; line?: string[] | undefined; city?: string | undefined }[]
    | undefined;
  contact?:
    | {
        name?:
          | { text?: string | undefined; family?: string | undefined; given?: string[] | undefined }
          | undefined;
        telecom?: { system?: string | undefined; value?: string | undefined }[] | undefined;
      }[]
    | undefined;
  communication?: { language: { coding?: { code?: string | undefined }[] | undefined } }[] | undefined;
}

/** Where a FHIR Patient cannot become a Greensen record: the element and the message key. */
export type PatientInProblem = { expression: string; key: string };

const phoneOf = (t: FhirPatientIn['telecom']) =>
  t?.find((x) => x.system === 'phone' && x.value)?.value ?? null;

/**
 * A FHIR Patient as the input of the app's patient service (the same rules as a registration in the app), or
 * the problems that keep it from being one.
 */
export function fromFhirPatient(
  r: FhirPatientIn,
): { input: PatientInput } | { problems: PatientInProblem[] } {
  const problems: PatientInProblem[] = [];
  const name = r.name?.[0];
  const family = name?.family?.trim();
  const given = name?.given?.join(' ').trim();
  if (!family) problems.push({ expression: 'Patient.name[0].family', key: 'fhir.family_required' });
  if (!given) problems.push({ expression: 'Patient.name[0].given', key: 'fhir.given_required' });
  if (r.gender !== 'male' && r.gender !== 'female')
    problems.push({ expression: 'Patient.gender', key: 'fhir.gender_required' });
  if (problems.length) return { problems };
  const address = r.address?.[0];
  const addressText =
    address?.text ?? ([...(address?.line ?? []), address?.city].filter(Boolean).join(', ') || null);
  const contact = r.contact?.[0];
  const contactName =
    contact?.name?.text ??
    ([...(contact?.name?.given ?? []), contact?.name?.family].filter(Boolean).join(' ') || null);
  const language = r.communication?.[0]?.language.coding?.[0]?.code;
  return {
    input: {
      first_name: given!,
      last_name: family!,
      sex: r.gender === 'female' ? 'F' : 'M',
      birth_date: r.birthDate ?? null,
      phone: phoneOf(r.telecom),
      email: r.telecom?.find((x) => x.system === 'email' && x.value)?.value ?? null,
      address: addressText,
      national_id: r.identifier?.find((i) => i.system === NATIONAL_ID_SYSTEM)?.value ?? null,
      emergency_contact_name: contactName,
      emergency_contact_phone: phoneOf(contact?.telecom),
      preferred_language: language === 'fr' || language === 'en' ? language : null,
    },
  };
}
