/** GET /api/doctors/{id}/execution-queue/?status=open|completed|all: ordered by triage level then arrival. */
import type { TExecution } from '@greensen/shared/contracts/executions';
import { keepPreviousData, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { DOCTORS_KEY } from './journey-keys';
import type { Page } from './list-admissions';

export type QueueStatus = 'open' | 'completed' | 'all';

export interface DoctorQueueParams {
  status: QueueStatus;
  page: number;
  pageSize: number;
}

export function fetchDoctorQueue(doctorId: string, params: DoctorQueueParams, signal?: AbortSignal) {
  return api.get<Page<TExecution>>(`doctors/${doctorId}/execution-queue/`, {
    query: { status: params.status, page: params.page, page_size: params.pageSize },
    signal,
  });
}

/** `scope` lets the dashboard file its copy under ['dashboard', …] so its refresh timer reaches it. */
export function doctorQueueQueryOptions(
  hospitalId: string | null,
  doctorId: string,
  params: DoctorQueueParams,
  scope: QueryKey = DOCTORS_KEY,
) {
  return queryOptions({
    queryKey: [...scope, hospitalId, doctorId, 'queue', params] as const,
    queryFn: ({ signal }) => fetchDoctorQueue(doctorId, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDoctorQueue(doctorId: string | null, params: DoctorQueueParams, scope?: QueryKey) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...doctorQueueQueryOptions(hospitalId, doctorId ?? '', params, scope),
    enabled: Boolean(doctorId),
  });
}
