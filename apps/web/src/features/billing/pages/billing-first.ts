/**
 * The billing page as it opens on its invoices (issue 38): the queries the app starts for it by path — the
 * departments (who is billing staff: the page asks for its invoices only for the billing staff and the management)
 * and the hospital's currency, which the page asks for before anything else. The invoice list's first page
 * (`INVOICES_PAGE_SIZE`, unfiltered) waits for the page's own rights check.
 */
import { hospitalCurrencyQueryOptions } from '../../../lib/billing/hospital-currency';
import { departmentsQueryOptions } from '../../../lib/clinical/api/list-departments';
import type { FirstQueries } from '../../../lib/first-data';

export const INVOICES_PAGE_SIZE = 20;

export const billingFirstQueries: FirstQueries = ({ hospitalId }) => [
  departmentsQueryOptions(hospitalId),
  hospitalCurrencyQueryOptions(hospitalId),
];
