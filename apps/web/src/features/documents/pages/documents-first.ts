/** The documents page as it opens (issue 38): the issued list's filters, and the query the app starts by path. */
import { type DocumentFilters, documentsQueryOptions } from '../../../lib/documents/api';
import type { FirstQueries } from '../../../lib/first-data';

export const DOCUMENTS_PAGE_SIZE = 20;

/** The issued documents' list as the page opens: every status, no filter, the first page. */
export const ISSUED_FIRST_FILTERS = {
  search: null,
  kind: null,
  status: 'all',
  dateFrom: null,
  dateTo: null,
  page: 1,
  pageSize: DOCUMENTS_PAGE_SIZE,
} as const satisfies DocumentFilters;

export const documentsFirstQueries: FirstQueries = ({ hospitalId }) => [
  documentsQueryOptions(hospitalId, ISSUED_FIRST_FILTERS),
];
