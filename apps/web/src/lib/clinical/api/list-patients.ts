/** GET /api/patients/?search=&page=&page_size=: the hospital's patients (server-side search). */
import type { TPatientList } from '@greensen/shared/contracts/patients';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';

export interface PatientListParams {
  search?: string;
  page: number;
  pageSize: number;
  archived?: boolean;
}

export const PATIENTS_KEY = ['patients'] as const;

export function patientsQueryOptions(hospitalId: string | null, params: PatientListParams) {
  return queryOptions({
    queryKey: [...PATIENTS_KEY, hospitalId, 'list', params] as const,
    queryFn: ({ signal }) =>
      api.get<TPatientList>('patients/', {
        query: {
          search: params.search?.trim() || undefined,
          page: params.page,
          page_size: params.pageSize,
          archived: params.archived ? 'true' : undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePatients(params: PatientListParams, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...patientsQueryOptions(hospitalId, params), enabled });
}
