/** POST /api/patients/check-duplicates/: probable duplicates of a patient about to be registered. */
import type { TDuplicateCandidate, TDuplicateCheck } from '@greensen/shared/contracts/patients';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../api-client';

export async function checkDuplicates(body: TDuplicateCheck): Promise<TDuplicateCandidate[]> {
  const result = await api.post<{ duplicates: TDuplicateCandidate[] }>('patients/check-duplicates/', body);
  return result.duplicates;
}

export function useCheckDuplicates() {
  return useMutation({ mutationFn: checkDuplicates });
}
