/**
 * Transfers (GET /api/transfers/ with status and direction filters; a stay's with `hospitalization`), asking
 * one (POST), the decisions and steps (accept, reject with a reason, complete — into a bed for an internal
 * transfer —, cancel) and the other hospitals of the installation an external referral may go to.
 */
import type {
  TFacilityList,
  TransferStatus,
  TTransfer,
  TTransferCreate,
} from '@greensen/shared/contracts/hospitalizations';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';
import { invalidateInpatients, TRANSFERS_KEY } from './keys';

export type TransferStatusFilter = 'open' | 'all' | TransferStatus;
export type TransferDirection = 'incoming' | 'outgoing' | 'all';

export interface TransferFilters {
  status: TransferStatusFilter;
  direction: TransferDirection;
  hospitalization?: string | null;
  page: number;
  pageSize: number;
}

export function transfersQueryOptions(hospitalId: string | null, filters: TransferFilters) {
  return queryOptions({
    queryKey: [...TRANSFERS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TTransfer>>('transfers/', {
        query: {
          status: filters.status,
          direction: filters.direction,
          hospitalization: filters.hospitalization,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useTransfers(filters: TransferFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(transfersQueryOptions(hospitalId, filters));
}

export function useFacilities(enabled: boolean) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...TRANSFERS_KEY, hospitalId, 'facilities'] as const,
    queryFn: ({ signal }) =>
      api.get<TFacilityList>('transfers/facilities/', { notFoundRedirect: false, signal }),
    staleTime: 5 * 60_000,
    enabled,
  });
}

export function useRequestTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TTransferCreate) => api.post<TTransfer>('transfers/', body),
    onSuccess: () => invalidateInpatients(queryClient),
  });
}

export type TransferStep =
  | { action: 'accept' }
  | { action: 'reject'; reason: string }
  | { action: 'complete'; bed?: string | null }
  | { action: 'cancel' };

/** One step of a transfer; refetched after a refusal too (someone else may have decided first). */
export function useTransferStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step }: { id: string; step: TransferStep }) => {
      const { action, ...body } = step;
      return api.post<TTransfer>(`transfers/${id}/${action}/`, body);
    },
    onSettled: () => invalidateInpatients(queryClient),
  });
}
