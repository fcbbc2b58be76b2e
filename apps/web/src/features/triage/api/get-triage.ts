/** GET /api/triage/{id}/: a triage record (404 → the error page, by the API client). */
import type { TTriage } from '@greensen/shared/contracts/triage';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { TRIAGE_KEY } from '../../../lib/clinical/api/journey-keys';
import { useAuthStore } from '../../../stores/auth';

export function triageQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...TRIAGE_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TTriage>(`triage/${id}/`, { signal }),
  });
}

export function useTriage(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(triageQueryOptions(hospitalId, id));
}
