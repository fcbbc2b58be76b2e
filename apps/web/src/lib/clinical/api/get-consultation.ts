/**
 * GET /api/consultations/{id}/: the record with the caller's `access` (edit | read), `may_add_addendum`,
 * addenda and active diagnoses. 403 and 404 take the API client's global paths (refusal notice then /,
 * error page of type consultation); the consultation-access route guard loads it first.
 */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';

export const CONSULTATIONS_KEY = ['consultations'] as const;

export function consultationQueryKey(hospitalId: string | null, id: string) {
  return [...CONSULTATIONS_KEY, hospitalId, 'detail', id] as const;
}

export function consultationQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: consultationQueryKey(hospitalId, id),
    queryFn: ({ signal }) => api.get<TConsultationDetail>(`consultations/${id}/`, { signal }),
  });
}

export function useConsultation(id: string, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...consultationQueryOptions(hospitalId, id), enabled });
}

/** After a change: the record takes the server's answer, every consultation list and the queues refresh. */
export function storeConsultation(
  queryClient: QueryClient,
  hospitalId: string | null,
  record: TConsultationDetail,
): void {
  queryClient.setQueryData(consultationQueryKey(hospitalId, record.id), record);
  void queryClient.invalidateQueries({
    queryKey: CONSULTATIONS_KEY,
    predicate: (query) => query.queryKey[2] !== 'detail' || query.queryKey[3] !== record.id,
  });
}
