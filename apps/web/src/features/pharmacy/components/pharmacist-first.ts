/**
 * The pharmacist's home as it opens (issue 38): its first tab, the prescriptions to dispense (the hospital's
 * worklist: it does not depend on the pharmacy chosen), shown once the user's pharmacies are known (who may
 * dispense). The queries the app starts for it as it starts, from the same query options the tab uses.
 */
import { type PrescriptionFilters, prescriptionsQueryOptions } from '../../../lib/clinical/api/prescriptions';
import type { FirstQueries } from '../../../lib/first-data';
import { pharmaciesQueryOptions } from '../api/pharmacies';

export const TO_DISPENSE_PAGE_SIZE = 15;

/** The worklist's page `page` (À délivrer). */
export function toDispenseFilters(page: number): PrescriptionFilters {
  return { status: 'to_dispense', page, pageSize: TO_DISPENSE_PAGE_SIZE };
}

export const pharmacistHomeFirstQueries: FirstQueries = ({ hospitalId }) => [
  pharmaciesQueryOptions(hospitalId),
  prescriptionsQueryOptions(hospitalId, toDispenseFilters(1)),
];
