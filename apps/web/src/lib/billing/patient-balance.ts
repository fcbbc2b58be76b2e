/**
 * GET /api/patients/{id}/balance/ (issue 21): what a patient still owes on issued invoices. Read by clinicians,
 * billing staff and the management (`billing.balance`); shown on the patient record.
 */
import type { TPatientBalance } from '@greensen/shared/contracts/billing';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../stores/auth';
import { api } from '../api-client';

/** Every billing query sits under this key: a billing write refreshes them all (balances included). */
export const BILLING_KEY = ['billing'] as const;

export function patientBalanceQueryOptions(hospitalId: string | null, patientId: string) {
  return queryOptions({
    queryKey: [...BILLING_KEY, hospitalId, 'balance', patientId] as const,
    queryFn: ({ signal }) => api.get<TPatientBalance>(`patients/${patientId}/balance/`, { signal }),
  });
}

export function usePatientBalance(patientId: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(patientBalanceQueryOptions(hospitalId, patientId));
}
