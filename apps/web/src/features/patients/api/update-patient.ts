/** PATCH /api/patients/{id}/: edits a record. */
import type { TPatient, TPatientUpdate } from '@greensen/shared/contracts/patients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PATIENTS_KEY } from '../../../lib/clinical/api/list-patients';

export function updatePatient(id: string, body: TPatientUpdate): Promise<TPatient> {
  return api.patch<TPatient>(`patients/${id}/`, body);
}

export function useUpdatePatient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TPatientUpdate) => updatePatient(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PATIENTS_KEY }),
  });
}
