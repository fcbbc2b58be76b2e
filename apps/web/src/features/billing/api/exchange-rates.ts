/**
 * The hospital's exchange rates (decision 0040): the rate in force today per currency (GET /api/exchange-rates/current/),
 * the history (GET /api/exchange-rates/) and a new rate from a day (POST /api/exchange-rates/, the management).
 */
import type {
  TExchangeRate,
  TExchangeRateCreate,
  TExchangeRatesCurrent,
} from '@greensen/shared/contracts/billing';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { BILLING_KEY } from '../../../lib/billing/patient-balance';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useBillingWrite, useHospital } from './invoices';

export function useCurrentRates() {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'rates', 'current'] as const,
    queryFn: ({ signal }) => api.get<TExchangeRatesCurrent>('exchange-rates/current/', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function useRateHistory() {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'rates', 'history'] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TExchangeRate>>('exchange-rates/', { query: { page_size: 50 }, signal }),
  });
}

export const useSetRate = () =>
  useBillingWrite((body: TExchangeRateCreate) => api.post<TExchangeRate>('exchange-rates/', body));
