/**
 * The pharmacy departments of the hospital (GET /api/pharmacy/pharmacies/), the user's own first: `member` says
 * the user works there and may manage its stock and dispense from it.
 */
import type { TPharmacyList } from '@greensen/shared/contracts/pharmacy';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PHARMACY_STOCK_KEY } from '../../../lib/clinical/api/prescriptions';
import { useAuthStore } from '../../../stores/auth';

export type TPharmacy = TPharmacyList['results'][number];

/** The user's pharmacies first, then the others, each group by name. */
export function sortPharmacies(pharmacies: readonly TPharmacy[]): TPharmacy[] {
  return [...pharmacies].sort((a, b) => Number(b.member) - Number(a.member) || a.name.localeCompare(b.name));
}

export function pharmaciesQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: [...PHARMACY_STOCK_KEY, hospitalId, 'pharmacies'] as const,
    queryFn: ({ signal }) => api.get<TPharmacyList>('pharmacy/pharmacies/', { signal }),
    staleTime: 5 * 60_000,
  });
}

export function usePharmacies() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...pharmaciesQueryOptions(hospitalId),
    select: (data) => sortPharmacies(data.results),
  });
}
