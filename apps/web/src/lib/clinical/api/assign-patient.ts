/** POST /api/assign-patient/ {admission, doctor}: assigns (or re-assigns) a visit to a practitioner. */
import type { TExecution } from '@greensen/shared/contracts/executions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateJourney } from './journey-keys';

export interface AssignResult {
  execution: TExecution;
  reassigned_from: { id: string; full_name: string } | null;
}

export function assignPatient(body: { admission: string; doctor: string }): Promise<AssignResult> {
  return api.post<AssignResult>('assign-patient/', body);
}

export function useAssignPatient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: assignPatient, onSuccess: () => invalidateJourney(queryClient) });
}
