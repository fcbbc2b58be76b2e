/** POST /api/admissions/{id}/start-consultation/ → 201 the consultation (in_progress). */
import type { TConsultation } from '@greensen/shared/contracts/executions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateJourney } from './journey-keys';

export function startConsultation(admissionId: string): Promise<TConsultation> {
  return api.post<TConsultation>(`admissions/${admissionId}/start-consultation/`);
}

export function useStartConsultation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startConsultation, onSuccess: () => invalidateJourney(queryClient) });
}
