import type { ServiceContext } from '../../lib/context.js';
import { scopedHospital } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { FhirBase, isUuid, type SearchRequest } from './fhir.base.js';
import { referenceId, searchset, tokenOf, valuesOf } from './fhir.bundle.js';
import { searchLocations, searchPractitioners } from './fhir.repository.js';
import { type LocationKind, PHYSICAL_TYPE, toFhirLocation } from './map-location.js';
import { toFhirPractitioner } from './map-practitioner.js';

/** Practitioner (the hospital's staff) and Location (its wards, rooms and beds): no patient data, not audited. */
export class FhirDirectoryService extends FhirBase {
  async readPractitioner(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    const { rows } = await searchPractitioners(this.app.db, hospital.id, { id: id.toLowerCase() }, 1, 0);
    if (!rows[0]) throw notFound();
    return toFhirPractitioner(rows[0]);
  }

  async searchPractitioners(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const name = valuesOf(req.params.name).join(' ').trim();
    const { rows, total } = await searchPractitioners(
      this.app.db,
      hospital.id,
      name ? { name } : {},
      req.count,
      req.offset,
    );
    return searchset({ ...this.frame(req), total, matches: rows.map(toFhirPractitioner) });
  }

  async readLocation(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    if (!isUuid(id)) throw notFound();
    const { rows } = await searchLocations(this.app.db, hospital.id, { id: id.toLowerCase() }, 1, 0);
    if (!rows[0]) throw notFound();
    return toFhirLocation(rows[0], hospital.id);
  }

  async searchLocations(ctx: ServiceContext, req: SearchRequest) {
    const hospital = scopedHospital(ctx);
    const name = valuesOf(req.params.name).join(' ').trim();
    const types = valuesOf(req.params.type).flatMap((v) => v.split(','));
    const kinds = types.length
      ? (Object.keys(PHYSICAL_TYPE) as LocationKind[]).filter((k) =>
          types.some((t) => tokenOf(t).code === PHYSICAL_TYPE[k].code),
        )
      : undefined;
    const partOfValue = valuesOf(req.params.partof)[0];
    const partOf = partOfValue === undefined ? undefined : referenceId(partOfValue, 'Location');
    const { rows, total } =
      partOf !== undefined && !isUuid(partOf)
        ? { rows: [], total: 0 }
        : await searchLocations(
            this.app.db,
            hospital.id,
            {
              ...(name ? { name } : {}),
              ...(kinds ? { kinds } : {}),
              ...(partOf ? { partOf: partOf.toLowerCase() } : {}),
            },
            req.count,
            req.offset,
          );
    return searchset({ ...this.frame(req), total, matches: rows.map((r) => toFhirLocation(r, hospital.id)) });
  }
}
