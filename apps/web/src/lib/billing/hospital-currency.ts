/**
 * The current hospital's currency (GET /api/hospitals/{id}/, read by every member): the currency of its tariffs,
 * invoices and the cash desk's first float. XOF until known.
 */
import type { THospital } from '@greensen/shared/contracts/structure';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../stores/auth';
import { api } from '../api-client';
import { BILLING_KEY } from './patient-balance';

/** The hospital read for its currency (the billing page's first screen starts it: issue 38). */
export function hospitalCurrencyQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: [...BILLING_KEY, hospitalId, 'currency'] as const,
    queryFn: ({ signal }) => api.get<THospital>(`hospitals/${hospitalId}/`, { signal }),
    enabled: hospitalId !== null,
    staleTime: 30 * 60_000,
  });
}

export function useHospitalCurrency(): string {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const query = useQuery({
    ...hospitalCurrencyQueryOptions(hospitalId),
    select: (hospital) => hospital.currency,
  });
  return query.data ?? 'XOF';
}
