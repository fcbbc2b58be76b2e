/** POST /api/prescriptions/{id}/dispense/: delivers lines of a signed prescription from a pharmacy's lots. */
import type { TDispenseCreate, ZDispenseResult } from '@greensen/shared/contracts/pharmacy';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { MEDICATIONS_KEY } from '../../../lib/clinical/api/medications';
import { invalidatePrescriptions } from '../../../lib/clinical/api/prescriptions';

/** Refetched after a refusal too: a 409 means the stock changed meanwhile. */
export function useDispense(prescriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TDispenseCreate) =>
      api.post<z.infer<typeof ZDispenseResult>>(`prescriptions/${prescriptionId}/dispense/`, body),
    onSettled: () =>
      Promise.all([
        invalidatePrescriptions(queryClient),
        queryClient.invalidateQueries({ queryKey: MEDICATIONS_KEY }),
      ]),
  });
}
