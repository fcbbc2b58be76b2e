/**
 * Prescriptions (issue 18), shared by the consultation page (prescribing), the patient's record (their
 * prescriptions) and the pharmacy (worklist, detail, dispensing): the list (GET /api/prescriptions/), one
 * prescription (GET /api/prescriptions/{id}/), the safety check as the prescriber types (POST check/), and the
 * writes of a draft (create, PATCH with its version, sign, cancel with a reason).
 */

import type {
  TPrescriptionWithSafety,
  TSafetyOverrideInput,
} from '@greensen/shared/contracts/medication-safety';
import type {
  PrescriptionStatus,
  TPrescription,
  TPrescriptionCreate,
  ZPrescriptionCheck,
  ZPrescriptionCheckResult,
  ZPrescriptionListItem,
  ZPrescriptionUpdate,
} from '@greensen/shared/contracts/pharmacy';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import type { Page } from './list-admissions';

export const PRESCRIPTIONS_KEY = ['prescriptions'] as const;
/** The pharmacy's stock, lots, ledger and alerts: dispensing changes them too. */
export const PHARMACY_STOCK_KEY = ['pharmacy-stock'] as const;

export type TPrescriptionListItem = z.infer<typeof ZPrescriptionListItem>;
export type TPrescriptionCheck = z.input<typeof ZPrescriptionCheck>;
export type TPrescriptionCheckResult = z.infer<typeof ZPrescriptionCheckResult>;
export type TPrescriptionUpdate = z.input<typeof ZPrescriptionUpdate>;

/** Refetches every prescription list and detail (and the stock a dispensing moved). */
export function invalidatePrescriptions(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [PRESCRIPTIONS_KEY, PHARMACY_STOCK_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

export interface PrescriptionFilters {
  patient?: string | null;
  consultation?: string | null;
  hospitalization?: string | null;
  status: 'all' | 'to_dispense' | PrescriptionStatus;
  mine?: boolean;
  page: number;
  pageSize: number;
}

export function prescriptionsQueryOptions(hospitalId: string | null, filters: PrescriptionFilters) {
  return queryOptions({
    queryKey: [...PRESCRIPTIONS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TPrescriptionListItem>>('prescriptions/', {
        query: {
          patient: filters.patient,
          consultation: filters.consultation,
          hospitalization: filters.hospitalization,
          status: filters.status,
          mine: filters.mine ? 'true' : undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function usePrescriptions(filters: PrescriptionFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...prescriptionsQueryOptions(hospitalId, filters), enabled });
}

export function prescriptionQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...PRESCRIPTIONS_KEY, hospitalId, 'detail', id] as const,
    // With its safety (issue 34) while it is not dispensed: the alerts as they stand now, with the overrides.
    queryFn: ({ signal }) => api.get<TPrescriptionWithSafety>(`prescriptions/${id}/`, { signal }),
  });
}

export function usePrescription(id: string, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...prescriptionQueryOptions(hospitalId, id), enabled: enabled && Boolean(id) });
}

/** The safety check of lines being written (no side effect: the same lines give the same answer). */
export function checkPrescription(
  body: TPrescriptionCheck,
  signal?: AbortSignal,
): Promise<TPrescriptionCheckResult> {
  return api.post<TPrescriptionCheckResult>('prescriptions/check/', body, { signal });
}

/** A write of a prescription: the answer is the prescription; every list and detail is refreshed. */
function usePrescriptionWrite<Input>(send: (input: Input) => Promise<TPrescription>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSettled: () => invalidatePrescriptions(queryClient) });
}

export const useCreatePrescription = () =>
  usePrescriptionWrite((body: TPrescriptionCreate) => api.post<TPrescription>('prescriptions/', body));

export const useUpdatePrescription = () =>
  usePrescriptionWrite(({ id, body }: { id: string; body: TPrescriptionUpdate }) =>
    api.patch<TPrescription>(`prescriptions/${id}/`, body),
  );

/** Signs with the prescriber's overrides of blocking safety alerts (issue 34; lines by index or id). */
export const useSignPrescription = () =>
  usePrescriptionWrite(
    ({ id, version, overrides }: { id: string; version: number; overrides?: TSafetyOverrideInput[] }) =>
      api.post<TPrescription>(`prescriptions/${id}/sign/`, overrides ? { version, overrides } : { version }),
  );

export const useCancelPrescription = () =>
  usePrescriptionWrite(({ id, reason }: { id: string; reason: string }) =>
    api.post<TPrescription>(`prescriptions/${id}/cancel/`, { reason }),
  );
