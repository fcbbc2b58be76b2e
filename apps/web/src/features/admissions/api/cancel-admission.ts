/** POST /api/admissions/{id}/cancel/ {reason}. */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateJourney } from '../../../lib/clinical/api/journey-keys';

export function cancelAdmission(id: string, reason: string): Promise<TAdmission> {
  return api.post<TAdmission>(`admissions/${id}/cancel/`, { reason });
}

export function useCancelAdmission(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => cancelAdmission(id, reason),
    onSuccess: () => invalidateJourney(queryClient),
  });
}
