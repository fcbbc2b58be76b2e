/**
 * The medication reference (issue 18): the search (GET /api/medications/ — INN in French or English, brand or
 * ATC code; accents and small typos are the server's business) and one medication with its stock per pharmacy
 * and recent movements (GET /api/medications/{id}/).
 */
import type { TMedication, TMedicationDetail } from '@greensen/shared/contracts/pharmacy';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import type { Page } from './list-admissions';

export const MEDICATIONS_KEY = ['medications'] as const;

export interface MedicationFilters {
  search?: string;
  atc?: string;
  /** Only medicines with stock in this pharmacy. */
  inStockAt?: string | null;
  page: number;
  pageSize: number;
}

/** The list's query options (the page's first screen is started from them as the app starts: issue 38). */
export function medicationsQueryOptions(hospitalId: string | null, filters: MedicationFilters) {
  return queryOptions({
    queryKey: [...MEDICATIONS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TMedication>>('medications/', {
        query: {
          search: filters.search?.trim() || undefined,
          atc: filters.atc?.trim() || undefined,
          in_stock_at: filters.inStockAt,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    staleTime: 60_000,
  });
}

export function useMedications(filters: MedicationFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...medicationsQueryOptions(hospitalId, filters),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useMedication(id: string | null | undefined, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...MEDICATIONS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TMedicationDetail>(`medications/${id}/`, { signal }),
    enabled: enabled && Boolean(id),
    staleTime: 30_000,
  });
}
