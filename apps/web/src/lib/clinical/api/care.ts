/**
 * Nursing care (issue 20), the calls shared by the nurse dashboard (tasks and handoffs tabs) and the care pages:
 * the nurse's tasks (GET /api/nurses/{id}/tasks/), recording, assigning and rescheduling an execution, recording a
 * dose of the MAR (idempotent: the key of the dose's form goes with every submit), and the SBAR handoffs (lists,
 * the draft pre-filled with the shift's changes, writing, acknowledging).
 *
 * Keys: the care pages' queries sit under ['care'], the dashboard's under ['dashboard', 'nurse'] (its refresh timer
 * and the `dashboard` refresh flag refetch them). Every write refreshes both: the same executions, doses and
 * handoffs show in the ward view, the care file and the dashboard.
 */
import type {
  TCareExecution,
  TCareRecord,
  TDoseRecord,
  THandoff,
  THandoffCreate,
  THandoffDraft,
  TTaskList,
  ZHandoffList,
} from '@greensen/shared/contracts/care';
import type { TAdministrationCreateSafe } from '@greensen/shared/contracts/medication-safety';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { isQueued, sendOrQueue } from '../../offline/clinical-queue';
import { CARE_KEY, invalidateCare, NURSE_DASHBOARD_KEY } from './care-keys';

export type THandoffList = z.infer<typeof ZHandoffList>;
export type THandoffListItem = THandoffList['results'][number];
export type HandoffBox = 'to_give' | 'to_acknowledge' | 'unacknowledged' | 'all';

export interface TaskFilters {
  scope: 'mine' | 'ward';
  status: 'open' | 'all';
  department?: string | null;
  ward?: string | null;
  page: number;
  pageSize: number;
}

/** The tasks of a nurse in the shift: under the dashboard's key (it is the `tasks` tab's query). */
export function tasksQueryOptions(hospitalId: string | null, nurseId: string, filters: TaskFilters) {
  return queryOptions({
    queryKey: [...NURSE_DASHBOARD_KEY, hospitalId, 'tasks', nurseId, filters] as const,
    queryFn: ({ signal }) =>
      api.get<TTaskList>(`nurses/${nurseId}/tasks/`, {
        query: {
          scope: filters.scope,
          status: filters.status,
          department: filters.department ?? undefined,
          ward: filters.ward ?? undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useNurseTasks(nurseId: string | null, filters: TaskFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...tasksQueryOptions(hospitalId, nurseId ?? '', filters), enabled: nurseId !== null });
}

export interface CareNurse {
  id: string;
  full_name: string;
  role_code?: string;
}

/**
 * The nurses a task of a department may be given to (GET /api/care/nurses/?department=). Asked quietly: where the
 * server has no such list the picker keeps the nurses it has seen on the tasks (an empty list here).
 */
export function useCareNurses(department: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'nurses', department] as const,
    queryFn: async ({ signal }) => {
      try {
        const page = await api.get<{ results: CareNurse[] }>('care/nurses/', {
          query: { department: department ?? undefined, page_size: 100 },
          signal,
          silent: true,
        });
        return page.results;
      } catch {
        return [] as CareNurse[];
      }
    },
    enabled: department !== null,
    staleTime: 5 * 60_000,
  });
}

/** Done (by the caller, at the real time) or not done with a reason. */
export function useRecordExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    // With a key (issue 40), a record made without network waits in the device's queue and is sent once.
    mutationFn: ({ id, body, label }: { id: string; body: TCareRecord; label?: string }) =>
      body.idempotency_key
        ? sendOrQueue<TCareExecution>({
            kind: 'task',
            label: label ?? '',
            key: body.idempotency_key,
            path: `care/executions/${id}/record/`,
            body,
            at: (body.outcome === 'done' ? body.done_at : null) ?? new Date().toISOString(),
            ...(body.outcome === 'done' && !body.done_at ? { timeField: 'done_at' } : {}),
          })
        : api.post<TCareExecution>(`care/executions/${id}/record/`, body),
    // Queued: nothing changed on the server yet (and a refetch could wait on a dead link).
    onSuccess: (answer) => (isQueued(answer) ? undefined : invalidateCare(queryClient)),
  });
}

/** Takes back a task the caller recorded less than a minute ago (issue 37): it is to do again. */
export function useUndoExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TCareExecution>(`care/executions/${id}/undo/`),
    onSuccess: () => invalidateCare(queryClient),
  });
}

/** Assign or reassign to a nurse (the server notifies her). */
export function useAssignExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, nurse }: { id: string; nurse: string }) =>
      api.post<{ execution: TCareExecution }>(`care/executions/${id}/assign/`, { nurse }),
    onSuccess: () => invalidateCare(queryClient),
  });
}

/**
 * A dose given or not given. The body carries the key made when the dose's form opened, and the nurse's overrides
 * of blocking safety alerts (issue 34).
 */
export function useRecordDose(label = '') {
  const queryClient = useQueryClient();
  return useMutation({
    // Issue 40: without network the dose waits in the device's queue with its key and the time it was given.
    mutationFn: (body: TAdministrationCreateSafe) =>
      sendOrQueue<TDoseRecord>({
        kind: 'dose',
        label,
        key: body.idempotency_key,
        path: 'care/mar/administrations/',
        body,
        at: (body.outcome === 'given' ? body.given_at : null) ?? new Date().toISOString(),
      }),
    // Queued: nothing changed on the server yet (and a refetch could wait on a dead link).
    onSuccess: (answer) => (isQueued(answer) ? undefined : invalidateCare(queryClient)),
  });
}

export interface HandoffFilters {
  box: HandoffBox;
  department?: string | null;
  ward?: string | null;
  page: number;
  pageSize: number;
}

export function handoffsQueryOptions(hospitalId: string | null, filters: HandoffFilters) {
  return queryOptions({
    queryKey: [...NURSE_DASHBOARD_KEY, hospitalId, 'handoffs', filters] as const,
    queryFn: ({ signal }) =>
      api.get<THandoffList>('care/handoffs/', {
        query: {
          box: filters.box,
          department: filters.department ?? undefined,
          ward: filters.ward ?? undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useHandoffs(filters: HandoffFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...handoffsQueryOptions(hospitalId, filters), enabled });
}

/** The SBAR pre-filled with what changed in the shift (read when the form opens). */
export function useHandoffDraft(plan: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'handoff-draft', plan] as const,
    queryFn: ({ signal }) => api.get<THandoffDraft>(`care/plans/${plan}/handoff-draft/`, { signal }),
    enabled: plan !== null,
    staleTime: 0,
  });
}

/** One handoff (GET /api/care/handoffs/{id}/). */
export function useHandoff(id: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...CARE_KEY, hospitalId, 'handoff', id] as const,
    queryFn: ({ signal }) => api.get<THandoff>(`care/handoffs/${id}/`, { signal }),
    enabled: id !== null,
  });
}

export function useWriteHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: THandoffCreate) => api.post<THandoff>('care/handoffs/', body),
    onSuccess: () => invalidateCare(queryClient),
  });
}

export function useAcknowledgeHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string | null }) =>
      api.post<THandoff>(`care/handoffs/${id}/acknowledge/`, { note: note || null }),
    onSuccess: () => invalidateCare(queryClient),
  });
}
