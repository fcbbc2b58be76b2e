/**
 * A patient's coverage (GET/POST /api/patients/{id}/coverages/, POST …/{coverage_id}/end/) and a stay's deposits
 * (GET/POST /api/hospitalizations/{id}/deposits/; decision 0036), shown on the patient record and on the stay.
 * Every billing write refreshes the billing queries (balances, invoices).
 */
import type {
  TCoverage,
  TCoverageCreate,
  TDepositCreate,
  TPayer,
  TReceipt,
  TStayDeposits,
} from '@greensen/shared/contracts/billing';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthStore } from '../../stores/auth';
import { api } from '../api-client';
import { BILLING_KEY } from './patient-balance';

const useHospitalId = () => useAuthStore((state) => state.currentHospitalId);

function useBillingMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: BILLING_KEY }),
  });
}

export function useCoverages(patientId: string, enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'coverages', patientId] as const,
    queryFn: ({ signal }) =>
      api.get<{ results: TCoverage[] }>(`patients/${patientId}/coverages/`, { signal }),
    enabled,
  });
}

/** The active payers to choose a coverage from (a hospital has a few dozen at most). */
export function useActivePayers(enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'payers'] as const,
    queryFn: ({ signal }) =>
      api.get<{ results: TPayer[]; count: number }>('payers/', { query: { page_size: 100 }, signal }),
    select: (page) => page.results.filter((p) => p.is_active),
    enabled,
  });
}

export const useAddCoverage = (patientId: string) =>
  useBillingMutation((body: TCoverageCreate) =>
    api.post<TCoverage>(`patients/${patientId}/coverages/`, body),
  );

export const useEndCoverage = (patientId: string) =>
  useBillingMutation(({ coverage, valid_to }: { coverage: string; valid_to: string }) =>
    api.post<TCoverage>(`patients/${patientId}/coverages/${coverage}/end/`, { valid_to }),
  );

export function useStayDeposits(stayId: string, enabled = true) {
  const hospitalId = useHospitalId();
  return useQuery({
    queryKey: [...BILLING_KEY, hospitalId, 'deposits', stayId] as const,
    queryFn: ({ signal }) => api.get<TStayDeposits>(`hospitalizations/${stayId}/deposits/`, { signal }),
    enabled,
  });
}

export const useRecordDeposit = (stayId: string) =>
  useBillingMutation((body: TDepositCreate) =>
    api.post<TReceipt>(`hospitalizations/${stayId}/deposits/`, body),
  );
