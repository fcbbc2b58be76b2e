/**
 * GET /api/patients/{id}/diagnoses/: the patient's diagnoses from the consultations the user may read
 * (latest first), without the current consultation's — the "previous diagnoses" beside the form.
 */
import type { TPatientDiagnosisList } from '@greensen/shared/contracts/consultations';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';

export const PATIENT_DIAGNOSES_KEY = ['patient-diagnoses'] as const;

export function patientDiagnosesQueryOptions(
  hospitalId: string | null,
  patientId: string,
  excludeConsultation: string | undefined,
  pageSize: number,
) {
  return queryOptions({
    queryKey: [...PATIENT_DIAGNOSES_KEY, hospitalId, patientId, excludeConsultation, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<TPatientDiagnosisList>(`patients/${patientId}/diagnoses/`, {
        query: { exclude_consultation: excludeConsultation, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePatientDiagnoses(patientId: string, excludeConsultation?: string, pageSize = 10) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(patientDiagnosesQueryOptions(hospitalId, patientId, excludeConsultation, pageSize));
}
