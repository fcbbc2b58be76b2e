/** GET /api/patients/{id}/: a record with its latest visits (404 → the error page, by the API client). */
import type { TPatientDetail } from '@greensen/shared/contracts/patients';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PATIENTS_KEY } from '../../../lib/clinical/api/list-patients';
import { useAuthStore } from '../../../stores/auth';

export function patientQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...PATIENTS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TPatientDetail>(`patients/${id}/`, { signal }),
  });
}

export function usePatient(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(patientQueryOptions(hospitalId, id));
}
