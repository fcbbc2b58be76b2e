/** POST /api/patients/{id}/archive/ {reason}: archives a record (never deleted). */
import type { TPatient } from '@greensen/shared/contracts/patients';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PATIENTS_KEY } from '../../../lib/clinical/api/list-patients';

export function archivePatient(id: string, reason: string): Promise<TPatient> {
  return api.post<TPatient>(`patients/${id}/archive/`, { reason });
}

export function useArchivePatient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => archivePatient(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PATIENTS_KEY }),
  });
}
