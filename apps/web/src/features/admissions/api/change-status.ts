/** POST /api/admissions/{id}/status/ {status, reason?}: a move of the status machine (illegal → 409). */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import type { AdmissionStatus } from '@greensen/shared/domain/admissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateJourney } from '../../../lib/clinical/api/journey-keys';

export function changeAdmissionStatus(id: string, status: AdmissionStatus, reason?: string | null) {
  return api.post<TAdmission>(`admissions/${id}/status/`, { status, reason: reason || null });
}

export function useChangeAdmissionStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ status, reason }: { status: AdmissionStatus; reason?: string | null }) =>
      changeAdmissionStatus(id, status, reason),
    onSuccess: () => invalidateJourney(queryClient),
  });
}
