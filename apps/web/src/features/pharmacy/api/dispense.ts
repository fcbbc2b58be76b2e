/**
 * POST /api/prescriptions/{id}/dispense/: delivers lines of a signed prescription from a pharmacy's lots, with the
 * pharmacist's overrides of blocking safety alerts (issue 34).
 */
import type { ZDispenseCreateSafe } from '@greensen/shared/contracts/medication-safety';
import type { ZDispenseResult } from '@greensen/shared/contracts/pharmacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { MEDICATIONS_KEY } from '../../../lib/clinical/api/medications';
import { invalidatePrescriptions } from '../../../lib/clinical/api/prescriptions';

/** Refetched after a refusal too: a 409 means the stock changed meanwhile (or a blocking alert wants a reason). */
export function useDispense(prescriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof ZDispenseCreateSafe>) =>
      api.post<z.infer<typeof ZDispenseResult>>(`prescriptions/${prescriptionId}/dispense/`, body),
    onSettled: () =>
      Promise.all([
        invalidatePrescriptions(queryClient),
        queryClient.invalidateQueries({ queryKey: MEDICATIONS_KEY }),
      ]),
  });
}
