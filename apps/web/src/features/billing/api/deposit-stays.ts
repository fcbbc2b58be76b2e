/**
 * The open stays the cash desk takes a deposit on (GET /api/deposits/stays/: `search` on the patient's name or record
 * number, server-paginated; issue 37, decision 0088). The deposits themselves are the stay panel's
 * (`lib/billing/coverage-deposits.ts`), so a deposit taken here refreshes this list with every billing query.
 */
import type { TDepositStay } from '@greensen/shared/contracts/billing';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useHospital } from './invoices';

export function useDepositStays(filters: { search: string; page: number; pageSize: number }) {
  const hospitalId = useHospital();
  const query = {
    search: filters.search.trim() || undefined,
    page: filters.page,
    page_size: filters.pageSize,
  };
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'deposit-stays', query] as const,
    queryFn: ({ signal }) => api.get<Page<TDepositStay>>('deposits/stays/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}
