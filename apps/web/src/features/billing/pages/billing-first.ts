/**
 * The billing page as it opens on its invoices (issue 38): the queries the app starts for it by path — the
 * departments (who is billing staff: the page shows its tabs only to the billing staff and the management) and the
 * hospital's currency, which the page asks for before anything else; then, once the departments are in, the
 * invoice list's first page (`INVOICES_PAGE_SIZE`, filtered on the address's patient only) when the page's own
 * rule (`billingRightsOf`, with the user as the start-up refresh answers it) lets the user read invoices — never for
 * a user the page would refuse, whose request the API would refuse (its notice leaves the page).
 */
import { hospitalCurrencyQueryOptions } from '../../../lib/billing/hospital-currency';
import { billingRightsOf } from '../../../lib/billing/rights';
import { departmentsQueryOptions } from '../../../lib/clinical/api/list-departments';
import type { FirstQueries } from '../../../lib/first-data';
import { permissionsFor } from '../../../lib/permissions';
import { type InvoiceFilters, invoicesQueryOptions } from '../api/invoices';

export const INVOICES_PAGE_SIZE = 20;

export const BILLING_TABS = ['invoices', 'cash', 'deposits', 'statements', 'payers', 'rates'] as const;
export type BillingTab = (typeof BILLING_TABS)[number];

/** The tab the address asks for (`?tab=`), the invoices otherwise. */
export function billingTab(params: URLSearchParams): BillingTab {
  const asked = params.get('tab') as BillingTab;
  return BILLING_TABS.includes(asked) ? asked : 'invoices';
}

/** The invoice list as the Factures tab opens: its first page, filtered on `patient` (the address's) only. */
export function firstInvoicesFilters(patient: string | null): InvoiceFilters {
  return { patient, page: 1, pageSize: INVOICES_PAGE_SIZE };
}

export const billingFirstQueries: FirstQueries = ({ hospitalId, scope, search, answer, refreshedUser }) => {
  const departments = departmentsQueryOptions(hospitalId);
  const invoices = async () => {
    // The roles as the page will see them (the start-up refresh), with the departments' kinds.
    const [answered, user] = await Promise.all([answer(departments), refreshedUser()]);
    const permissions = permissionsFor(user, hospitalId, scope.environment, scope.extraModules);
    const rights = billingRightsOf(user, hospitalId, permissions, answered.results);
    return rights.read && billingTab(search) === 'invoices'
      ? [invoicesQueryOptions(hospitalId, firstInvoicesFilters(search.get('patient')))]
      : [];
  };
  return [departments, hospitalCurrencyQueryOptions(hospitalId), { later: invoices() }];
};
