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
import { useEffect } from 'react';
import type { z } from 'zod';
import { api, isApiError } from '../../../lib/api-client';
import { CARE_KEY, invalidateCare } from '../../../lib/clinical/api/care-keys';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { clinicalQueue, isQueued, type Queued, sendOrQueue } from '../../../lib/offline/clinical-queue';
import { offlineOwner } from '../../../lib/offline/policy';
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

type MarWindow = { from: string; to: string } | null;

/** The MAR of a plan in a window (null: the current shift), shared by the panel and the offline prefetch. */
const marQuery = (hospitalId: string | null, plan: string, window: MarWindow, ahead = false) => ({
  queryKey: [...CARE_KEY, hospitalId, 'mar', plan, window] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    // With the five rights' patient and each line's safety alerts (issue 34).
    api.get<TMarSafe>(`care/plans/${plan}/mar/`, {
      query: { from: window?.from, to: window?.to },
      signal,
      // Read ahead: a plan closed meanwhile does not take the nurse to a "not found" page.
      ...(ahead ? { notFoundRedirect: false } : {}),
    }),
});

export function useMar(plan: string, window: MarWindow) {
  const hospitalId = useHospital();
  return useQuery({ ...marQuery(hospitalId, plan, window), placeholderData: keepPreviousData });
}

const shiftQuery = (hospitalId: string | null) => ({
  queryKey: [...CARE_KEY, hospitalId, 'shift'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<{ current: TShift; previous: TShift; next: TShift }>('care/shift/', { signal }),
  staleTime: 60_000,
});

export function useShift() {
  return useQuery(shiftQuery(useHospital()));
}

const roundQuery = (hospitalId: string | null, scope: Scope) => ({
  queryKey: [...CARE_KEY, hospitalId, 'round', scope] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.get<TRound>('care/rounds/', { query: scopeQuery(scope), signal }),
});

export function useRound(scope: Scope) {
  return useQuery({ ...roundQuery(useHospital(), scope), enabled: scope.department !== null });
}

/** At most this many plans have their MAR read ahead (a ward's beds; the round lists at most 100 patients). */
export const MAR_PREFETCH_PLANS = 60;
/** Reads ahead in flight at once: the ward's screens keep the link. */
const MAR_PREFETCH_PARALLEL = 3;
/** A MAR read ahead is not read again for this long (the screen's own reads refresh it). */
const MAR_PREFETCH_FRESH_MS = 10 * 60_000;

/**
 * The ward readable offline (issue 40, decision 0064): for a nurse or charge nurse, online, the MAR of the current
 * and the next shift of her unit's open plans is read ahead through the same queries as the MAR panel, so the
 * device keeps it even when she never opened a plan or its next shift. Bounded: the plans of the unit's round
 * (the server's scope: her departments), at most MAR_PREFETCH_PLANS, MAR_PREFETCH_PARALLEL at a time, once per
 * scope and shift (a fresh answer is not asked again).
 */
export function usePrefetchWardMar(scope: Scope) {
  const queryClient = useQueryClient();
  const hospitalId = useHospital();
  const department = scope.department;
  const ward = scope.ward;
  useEffect(() => {
    if (department === null || !offlineOwner() || !navigator.onLine) return;
    let stopped = false;
    const unit: Scope = { department, ward };
    void (async () => {
      const [shift, round] = await Promise.all([
        queryClient.fetchQuery(shiftQuery(hospitalId)),
        queryClient.fetchQuery({ ...roundQuery(hospitalId, unit), staleTime: 15_000 }),
      ]);
      const plans = [...new Set(round.results.flatMap((p) => (p.plan ? [p.plan] : [])))].slice(
        0,
        MAR_PREFETCH_PLANS,
      );
      const next = { from: shift.next.start, to: shift.next.end };
      const reads = plans.flatMap((plan) => [
        marQuery(hospitalId, plan, null, true),
        marQuery(hospitalId, plan, next, true),
      ]);
      const worker = async () => {
        for (let read = reads.shift(); read && !stopped; read = reads.shift())
          await queryClient.prefetchQuery({ ...read, staleTime: MAR_PREFETCH_FRESH_MS });
      };
      await Promise.all(Array.from({ length: MAR_PREFETCH_PARALLEL }, worker));
    })().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [queryClient, hospitalId, department, ward]);
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
