/** GET /api/patients/{id}/access-log/: who opened the record (administrators and head doctors; decision 0020). */
import type { TPatientAccessList } from '@greensen/shared/contracts/audit';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PATIENTS_KEY } from '../../../lib/clinical/api/list-patients';
import { useAuthStore } from '../../../stores/auth';

export function accessLogQueryOptions(hospitalId: string | null, id: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...PATIENTS_KEY, hospitalId, 'access-log', id, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<TPatientAccessList>(`patients/${id}/access-log/`, {
        query: { page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePatientAccessLog(id: string, page: number, pageSize: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(accessLogQueryOptions(hospitalId, id, page, pageSize));
}
