/** GET /api/doctors/{id}/workload/: waiting, in progress, completed today, average minutes. */
import type { TWorkload } from '@greensen/shared/contracts/executions';
import { type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { DOCTORS_KEY } from './journey-keys';

export function doctorWorkloadQueryOptions(
  hospitalId: string | null,
  doctorId: string,
  scope: QueryKey = DOCTORS_KEY,
) {
  return queryOptions({
    queryKey: [...scope, hospitalId, doctorId, 'workload'] as const,
    queryFn: ({ signal }) => api.get<TWorkload>(`doctors/${doctorId}/workload/`, { signal }),
  });
}

export function useDoctorWorkload(doctorId: string | null, scope?: QueryKey) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...doctorWorkloadQueryOptions(hospitalId, doctorId ?? '', scope),
    enabled: Boolean(doctorId),
  });
}
