/** GET /api/admissions/{id}/ (404 → the error page, by the API client). */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ADMISSIONS_KEY } from '../../../lib/clinical/api/journey-keys';
import { useAuthStore } from '../../../stores/auth';

export function admissionQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...ADMISSIONS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TAdmission>(`admissions/${id}/`, { signal }),
  });
}

export function useAdmission(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(admissionQueryOptions(hospitalId, id));
}
