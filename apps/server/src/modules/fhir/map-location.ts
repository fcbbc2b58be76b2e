import { metaOf } from './fhir.bundle.js';
import { LOCATION_PHYSICAL_TYPE, V2_BED_STATUS } from './fhir.systems.js';

export type LocationKind = 'ward' | 'room' | 'bed';

export type LocationRow = {
  id: string;
  kind: LocationKind;
  name: string;
  /** The room of a bed, the ward of a room; null for a ward (part of the hospital). */
  parent_id: string | null;
  /** A bed's status (free, occupied, cleaning, out_of_service); null otherwise. */
  bed_status: string | null;
  is_active: boolean;
  updated_at: Date | string;
};

/** The physical type of each level (http://terminology.hl7.org/CodeSystem/location-physical-type). */
export const PHYSICAL_TYPE: Record<LocationKind, { code: string; display: string }> = {
  ward: { code: 'wa', display: 'Ward' },
  room: { code: 'ro', display: 'Room' },
  bed: { code: 'bd', display: 'Bed' },
};

/** A bed's status as HL7 v2 table 0116 (bed status). */
const BED_STATUS: Record<string, { code: string; display: string }> = {
  free: { code: 'U', display: 'Unoccupied' },
  occupied: { code: 'O', display: 'Occupied' },
  cleaning: { code: 'H', display: 'Housekeeping' },
  out_of_service: { code: 'C', display: 'Closed' },
};

/** A ward, room or bed as a FHIR R4 Location, part of its room, ward or hospital. */
export function toFhirLocation(l: LocationRow, hospitalId: string) {
  const type = PHYSICAL_TYPE[l.kind];
  const bed = l.bed_status ? BED_STATUS[l.bed_status] : undefined;
  return {
    resourceType: 'Location',
    id: l.id,
    meta: metaOf(new Date(l.updated_at).getTime(), l.updated_at),
    status: l.is_active ? 'active' : 'inactive',
    ...(bed ? { operationalStatus: { system: V2_BED_STATUS, ...bed } } : {}),
    name: l.name,
    mode: 'instance',
    physicalType: { coding: [{ system: LOCATION_PHYSICAL_TYPE, ...type }] },
    managingOrganization: { reference: `Organization/${hospitalId}` },
    ...(l.parent_id ? { partOf: { reference: `Location/${l.parent_id}` } } : {}),
  };
}
