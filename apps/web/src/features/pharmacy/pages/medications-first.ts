/** The medications page as it opens (issue 38): its filters, and the query the app starts for it by path. */
import { medicationsQueryOptions } from '../../../lib/clinical/api/medications';
import type { FirstQueries } from '../../../lib/first-data';

export const MEDICATIONS_PAGE_SIZE = 25;

/** The search and ATC inputs (empty as the page opens), debounced before they reach the query. */
export const MEDICATIONS_FIRST_INPUTS = { search: '', atc: '' };

export const medicationsFirstQueries: FirstQueries = ({ hospitalId }) => [
  medicationsQueryOptions(hospitalId, {
    ...MEDICATIONS_FIRST_INPUTS,
    page: 1,
    pageSize: MEDICATIONS_PAGE_SIZE,
  }),
];
