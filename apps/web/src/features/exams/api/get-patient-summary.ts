/** GET /api/patients/{id}/: the patient an order is prepared for (/exams/create?patient=…). */
import type { TPatientDetail } from '@greensen/shared/contracts/patients';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PATIENTS_KEY } from '../../../lib/clinical/api/list-patients';
import { useAuthStore } from '../../../stores/auth';

export function patientSummaryQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...PATIENTS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TPatientDetail>(`patients/${id}/`, { signal }),
  });
}

export function usePatientSummary(id: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...patientSummaryQueryOptions(hospitalId, id ?? ''), enabled: Boolean(id) });
}
