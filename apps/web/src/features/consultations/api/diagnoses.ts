/**
 * Diagnoses of a consultation: POST …/diagnoses/ (ICD-10 code or free text), PATCH and DELETE
 * …/diagnoses/{diagnosis_id}/ (DELETE = removal, kept on the server). Each refreshes the record (its
 * diagnoses and primary), the lists and the patient's previous diagnoses.
 */
import type {
  TDiagnosis,
  TDiagnosisCreate,
  TDiagnosisUpdate,
} from '@greensen/shared/contracts/consultations';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { CONSULTATIONS_KEY } from '../../../lib/clinical/api/get-consultation';
import { PATIENT_DIAGNOSES_KEY } from './patient-diagnoses';

function refresh(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CONSULTATIONS_KEY }),
    queryClient.invalidateQueries({ queryKey: PATIENT_DIAGNOSES_KEY }),
  ]);
}

export function useAddDiagnosis(consultationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TDiagnosisCreate) =>
      api.post<TDiagnosis>(`consultations/${consultationId}/diagnoses/`, body),
    onSuccess: () => refresh(queryClient),
  });
}

export function useUpdateDiagnosis(consultationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: TDiagnosisUpdate & { id: string }) =>
      api.patch<TDiagnosis>(`consultations/${consultationId}/diagnoses/${id}/`, body),
    onSuccess: () => refresh(queryClient),
  });
}

export function useRemoveDiagnosis(consultationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`consultations/${consultationId}/diagnoses/${id}/`),
    onSuccess: () => refresh(queryClient),
  });
}
