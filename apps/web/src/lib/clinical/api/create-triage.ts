/** POST /api/triage/: records a triage (vitals, complaint, level; override reason when it differs). */
import type { TTriage, TTriageCreate } from '@greensen/shared/contracts/triage';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateJourney } from './journey-keys';

export function createTriage(body: TTriageCreate): Promise<TTriage> {
  return api.post<TTriage>('triage/', body);
}

export function useCreateTriage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTriage, onSuccess: () => invalidateJourney(queryClient) });
}
