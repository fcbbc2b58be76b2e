/** GET /api/departments/: the current hospital's departments, with their kind. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { DEPARTMENTS_KEY } from './journey-keys';
import type { Page } from './list-admissions';

export interface Department {
  id: string;
  code: string;
  name: string;
  kind: string;
  is_active: boolean;
  /** The head of department, if named. */
  head?: { id: string; full_name: string } | null;
}

export function departmentsQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: [...DEPARTMENTS_KEY, hospitalId, 'list'] as const,
    queryFn: ({ signal }) => api.get<Page<Department>>('departments/', { query: { page_size: 100 }, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useDepartments() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(departmentsQueryOptions(hospitalId));
}
