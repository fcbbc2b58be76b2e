/**
 * The care pages' calls (issue 20): the patients under care of a department or ward (GET /api/care/patients/),
 * opening a stay's or a visit's plan (POST /api/care/plans/: the existing one or a new one), a plan, its orders
 * (write, stop), its executions, vitals, chart and MAR, a round (GET/POST /api/care/rounds/), intake/output, and
 * the wards of a department (GET /api/wards/, the ward picker). Keys under ['care'] (lib/clinical/api/care.ts:
 * every care write refreshes them and the nurse dashboard).
 */
import type {
  TCareExecution,
  TCareOrder,
  TCareOrderCreate,
  TCarePatient,
  TCarePlan,
  TChart,
  TRoundCreate,
  TShift,
  TVitalsCreate,
  TVitalsRecord,
  ZRound,
  ZRoundPatient,
} from '@greensen/shared/contracts/care';
import type { TMarSafe } from '@greensen/shared/contracts/medication-safety';
import type { TWard } from '@greensen/shared/contracts/structure';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api, isApiError } from '../../../lib/api-client';
import { CARE_KEY, invalidateCare } from '../../../lib/clinical/api/care-keys';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { clinicalQueue, isQueued, type Queued, sendOrQueue } from '../../../lib/offline/clinical-queue';
import { useAuthStore } from '../../../stores/auth';

export type TRound = z.infer<typeof ZRound>;
export type TRoundPatient = z.infer<typeof ZRoundPatient>;

export interface Scope {
  department: string | null;
  ward: string | null;
}

function useHospital() {
  return useAuthStore((state) => state.currentHospitalId);
}

const scopeQuery = (scope: Scope) => ({
  department: scope.department ?? undefined,
  ward: scope.ward ?? undefined,
});

export function useCarePatients(scope: Scope, page: number, pageSize: number) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'patients', scope, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TCarePatient>>('care/patients/', {
        query: { ...scopeQuery(scope), page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: scope.department !== null,
  });
}

export function useWards(department: string | null) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: ['wards', hospitalId, 'care-picker', department] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TWard>>('wards/', {
        query: { department: department ?? undefined, page_size: 100 },
        signal,
      }),
    enabled: department !== null,
    staleTime: 5 * 60_000,
  });
}

/** Opens the plan of a stay or an emergency visit: the existing one (200) or a new one (201). */
export function useOpenPlan() {
  return useMutation({
    mutationFn: (target: { hospitalization?: string | null; admission?: string | null }) =>
      api.post<TCarePlan>('care/plans/', target),
  });
}

export function usePlan(id: string) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'plan', id] as const,
    queryFn: ({ signal }) => api.get<TCarePlan>(`care/plans/${id}/`, { signal }),
  });
}

export function useOrders(plan: string, status: 'active' | 'all') {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'orders', plan, status] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TCareOrder>>(`care/plans/${plan}/orders/`, { query: { status, page_size: 100 }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateOrder(plan: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCareOrderCreate) => api.post<TCareOrder>(`care/plans/${plan}/orders/`, body),
    onSuccess: () => invalidateCare(queryClient),
  });
}

export function useStopOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      api.post<TCareOrder>(`care/orders/${id}/stop/`, { reason }),
    onSuccess: () => invalidateCare(queryClient),
  });
}

export function usePlanExecutions(plan: string, page: number, pageSize: number) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'executions', plan, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TCareExecution>>(`care/plans/${plan}/executions/`, {
        query: { status: 'all', page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useChart(plan: string, from: string | null, days: number) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'chart', plan, from, days] as const,
    queryFn: ({ signal }) =>
      api.get<TChart>(`care/plans/${plan}/chart/`, { query: { from: from ?? undefined, days }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMar(plan: string, window: { from: string; to: string } | null) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'mar', plan, window] as const,
    queryFn: ({ signal }) =>
      // With the five rights' patient and each line's safety alerts (issue 34).
      api.get<TMarSafe>(`care/plans/${plan}/mar/`, {
        query: { from: window?.from, to: window?.to },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useShift() {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'shift'] as const,
    queryFn: ({ signal }) =>
      api.get<{ current: TShift; previous: TShift; next: TShift }>('care/shift/', { signal }),
    staleTime: 60_000,
  });
}

export function useRound(scope: Scope) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'round', scope] as const,
    queryFn: ({ signal }) => api.get<TRound>('care/rounds/', { query: scopeQuery(scope), signal }),
    enabled: scope.department !== null,
  });
}

/**
 * A round (issue 40): every set carries its key and the round its real time. Without an answer, each set waits
 * in the device's queue on its own (a patient discharged meanwhile refuses only hers) and is sent once later.
 */
export function useSubmitRound() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      body,
      labels,
    }: {
      body: TRoundCreate;
      labels: string[];
    }): Promise<{ results: TVitalsRecord[] } | Queued> => {
      const sendAll = async () => api.post<{ results: TVitalsRecord[] }>('care/rounds/', body);
      const at = new Date().toISOString();
      const queueEach = async (): Promise<Queued> => {
        for (const [i, entry] of body.entries.entries()) {
          await sendOrQueue<unknown>({
            kind: 'vitals',
            label: labels[i] ?? '',
            key: entry.idempotency_key ?? '',
            path: 'care/rounds/',
            body: { entries: [entry] },
            at,
            timeField: 'recorded_at',
          });
        }
        return { queued: true };
      };
      if (
        !navigator.onLine ||
        clinicalQueue()
          .items()
          .some((r) => r.status === 'pending')
      )
        return queueEach();
      try {
        return await sendAll();
      } catch (error) {
        if (isApiError(error) && error.status === 0) return queueEach();
        throw error;
      }
    },
    // Queued: nothing changed on the server yet (and a refetch could wait on a dead link).
    onSuccess: (answer) => (isQueued(answer) ? undefined : invalidateCare(queryClient)),
  });
}

export function useAddFluid(plan: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      direction: 'intake' | 'output';
      kind: string;
      volume_ml: number;
      note?: string | null;
    }) => api.post(`care/plans/${plan}/fluids/`, body),
    onSuccess: () => invalidateCare(queryClient),
  });
}

/** The ward-wide executions of the shift (GET /api/care/executions/): the charge nurse's and doctors' view. */
export function useWardExecutions(scope: Scope, status: 'open' | 'all', page: number, pageSize: number) {
  const hospitalId = useHospital();
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'ward-executions', scope, status, page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TCareExecution>>('care/executions/', {
        query: { ...scopeQuery(scope), status, page, page_size: pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: scope.department !== null,
  });
}

/** One set of vitals of a plan (NEWS2 computed by the server; the doctor notified past the threshold). */
export function useRecordVitals(plan: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TVitalsCreate) => api.post<TVitalsRecord>(`care/plans/${plan}/vitals/`, body),
    onSuccess: () => invalidateCare(queryClient),
  });
}
