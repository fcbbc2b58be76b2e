/**
 * GET /api/nurses/{nurse_id}/patients/ (spec §7): the inpatients of the wards the nurse is assigned to, with bed,
 * days, latest vitals and flags — the nurse dashboard's `my-patients` tab (the signed-in nurse's own id). The key
 * sits under ['dashboard', 'nurse'] so that the dashboard's refresh timer and refresh flag refetch it.
 */
import type { TNursePatient } from '@greensen/shared/contracts/hospitalizations';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import type { Page } from './list-admissions';

export function nursePatientsQueryOptions(
  hospitalId: string | null,
  nurseId: string,
  page: number,
  pageSize: number,
) {
  return queryOptions({
    queryKey: ['dashboard', 'nurse', hospitalId, 'patients', nurseId, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TNursePatient>>(`nurses/${nurseId}/patients/`, {
        query: { page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useNursePatients(nurseId: string | null, page: number, pageSize: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...nursePatientsQueryOptions(hospitalId, nurseId ?? '', page, pageSize),
    enabled: nurseId !== null,
  });
}
