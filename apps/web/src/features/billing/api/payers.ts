/** The payers (GET /api/payers/) and what to claim from one over a period (GET /api/payers/{id}/statement/). */
import type { TPayer, TPayerStatement } from '@greensen/shared/contracts/billing';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useHospital } from './invoices';

export function usePayers() {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'payers'] as const,
    queryFn: ({ signal }) => api.get<Page<TPayer>>('payers/', { query: { page_size: 100 }, signal }),
    staleTime: 5 * 60_000,
  });
}

export function usePayerStatement(payer: string | null, from: string, to: string) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'statement', payer, from, to] as const,
    queryFn: ({ signal }) =>
      api.get<TPayerStatement>(`payers/${payer}/statement/`, { query: { from, to }, signal }),
    enabled: payer !== null && from !== '' && to !== '' && to >= from,
  });
}
