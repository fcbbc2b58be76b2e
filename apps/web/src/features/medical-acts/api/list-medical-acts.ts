/** GET /api/medical-acts/: the hospital's catalogue of acts with today's tariffs (search, category, active). */
import type { ActCategory, TMedicalAct } from '@greensen/shared/contracts/medical-acts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';

/** Every catalogue query sits under this key: a write refreshes them all. */
export const MEDICAL_ACTS_KEY = ['medical-acts'] as const;

export interface ActFilters {
  search?: string;
  category?: ActCategory | null;
  /** 'true' | 'false', or null for all. */
  active?: 'true' | 'false' | null;
  page: number;
  pageSize: number;
}

export function useMedicalActs(filters: ActFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const query = {
    search: filters.search?.trim() || undefined,
    category: filters.category ?? undefined,
    active: filters.active ?? undefined,
    page: filters.page,
    page_size: filters.pageSize,
  };
  return useQuery({
    queryKey: [...MEDICAL_ACTS_KEY, hospitalId, 'list', query] as const,
    queryFn: ({ signal }) => api.get<Page<TMedicalAct>>('medical-acts/', { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
