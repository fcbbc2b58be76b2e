/**
 * The billing page as it opens on its invoices (issue 38): the queries the app starts for it by path — the
 * departments (who is billing staff), the hospital's currency and the invoice list's first page, unfiltered.
 */
import { hospitalCurrencyQueryOptions } from '../../../lib/billing/hospital-currency';
import { departmentsQueryOptions } from '../../../lib/clinical/api/list-departments';
import type { FirstQueries } from '../../../lib/first-data';
import { invoicesQueryOptions } from '../api/invoices';

export const INVOICES_PAGE_SIZE = 20;

export const billingFirstQueries: FirstQueries = ({ hospitalId }) => [
  departmentsQueryOptions(hospitalId),
  hospitalCurrencyQueryOptions(hospitalId),
  invoicesQueryOptions(hospitalId, {
    number: '',
    patient: null,
    status: null,
    from: '',
    to: '',
    page: 1,
    pageSize: INVOICES_PAGE_SIZE,
  }),
];
