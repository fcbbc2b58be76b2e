import { metaOf } from './fhir.bundle.js';

export type PractitionerRow = {
  id: string;
  first_name: string;
  last_name: string;
  /** Whether the person holds an active membership of the hospital. */
  active: boolean;
  updated_at: Date | string;
};

/**
 * A member of the hospital's staff as a FHIR R4 Practitioner: the name and whether they still work there. No
 * e-mail, user name or role: the directory of the app's accounts stays the app's.
 */
export function toFhirPractitioner(u: PractitionerRow) {
  const given = u.first_name.trim();
  const family = u.last_name.trim();
  return {
    resourceType: 'Practitioner',
    id: u.id,
    meta: metaOf(new Date(u.updated_at).getTime(), u.updated_at),
    active: u.active,
    ...(given || family
      ? {
          name: [
            {
              use: 'official',
              text: [given, family].filter(Boolean).join(' '),
              ...(family ? { family } : {}),
              ...(given ? { given: [given] } : {}),
            },
          ],
        }
      : {}),
  };
}
