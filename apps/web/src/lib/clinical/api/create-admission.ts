/** POST /api/admissions/ {patient, department, admission_type, reason} → 201, status waiting. */
import type { TAdmission, TAdmissionCreate } from '@greensen/shared/contracts/admissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateJourney } from './journey-keys';

export function createAdmission(body: TAdmissionCreate): Promise<TAdmission> {
  return api.post<TAdmission>('admissions/', body);
}

export function useCreateAdmission() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAdmission, onSuccess: () => invalidateJourney(queryClient) });
}
