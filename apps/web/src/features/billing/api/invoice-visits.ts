/**
 * A patient's visits for « Facturer une visite » (GET /api/invoices/visits/?patient=, server-paginated; issue 37,
 * decision 0088): the cash desk's own read — whoever may assemble an invoice, the pure cashier included, who may not
 * list the visits themselves.
 */
import type { TInvoiceVisit } from '@greensen/shared/contracts/billing';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useHospital } from './invoices';

export function useInvoiceVisits(filters: { patient: string; page: number; pageSize: number }) {
  const hospitalId = useHospital();
  const query = { patient: filters.patient, page: filters.page, page_size: filters.pageSize };
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'invoice-visits', query] as const,
    queryFn: ({ signal }) => api.get<Page<TInvoiceVisit>>('invoices/visits/', { query, signal }),
    enabled: filters.patient !== '',
  });
}
