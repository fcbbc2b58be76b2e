/**
 * POST /api/prescriptions/{id}/refuse/: the pharmacist refuses to dispense lines (`null`: every line left) with a
 * written reason (issue 34); the server stores who, when and why and tells the prescriber.
 */
import type { TPrescriptionWithSafety } from '@greensen/shared/contracts/medication-safety';
import type { TPrescriptionRefuse } from '@greensen/shared/contracts/pharmacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidatePrescriptions } from '../../../lib/clinical/api/prescriptions';

export function useRefuseDispense(prescriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TPrescriptionRefuse) =>
      api.post<TPrescriptionWithSafety>(`prescriptions/${prescriptionId}/refuse/`, body),
    onSettled: () => invalidatePrescriptions(queryClient),
  });
}
