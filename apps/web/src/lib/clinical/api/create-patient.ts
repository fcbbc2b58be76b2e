/** POST /api/patients/: registers a patient (409 with the duplicates unless confirm_duplicate). */
import type { TPatient, TPatientCreate } from '@greensen/shared/contracts/patients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { PATIENTS_KEY } from './list-patients';

export function createPatient(body: TPatientCreate): Promise<TPatient> {
  return api.post<TPatient>('patients/', body);
}

export function useCreatePatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPatient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PATIENTS_KEY }),
  });
}
