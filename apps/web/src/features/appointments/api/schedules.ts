/**
 * Providers' weekly schedules, their absences and the hospital's public holidays (issue 22, decision 0037):
 * GET/POST /api/appointments/schedules/, PATCH/DELETE /api/appointments/schedules/{id}/ (ends it),
 * GET/POST /api/appointments/exceptions/, DELETE /api/appointments/exceptions/{id}/,
 * GET/POST /api/appointments/holidays/, DELETE /api/appointments/holidays/{id}/.
 * A change that leaves future bookings out answers 409 `bookings_affected` until it says `keep` or `cancel`.
 * Every change refreshes the slots, the providers and the calendars (all under the appointments key).
 */
import type {
  TBookingsConflict,
  THoliday,
  THolidayCreate,
  TSchedule,
  TScheduleCreate,
  TScheduleException,
  TScheduleExceptionCreate,
  TScheduleUpdate,
} from '@greensen/shared/contracts/appointments';
import type { OnBookings } from '@greensen/shared/domain/appointments';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiError, api, isApiError } from '../../../lib/api-client';
import { APPOINTMENTS_KEY, invalidateAppointments } from '../../../lib/clinical/api/appointment-keys';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';

export const SCHEDULES_PAGE_SIZE = 20;

export interface ScheduleFilters {
  provider?: string | null;
  department?: string | null;
  active?: boolean;
  page: number;
}

export interface DatedFilters {
  provider?: string | null;
  from?: string | null;
  page: number;
}

const key = (hospitalId: string | null, what: string, params: unknown) =>
  [...APPOINTMENTS_KEY, hospitalId, what, params] as const;

export function schedulesQueryOptions(hospitalId: string | null, f: ScheduleFilters) {
  return queryOptions({
    queryKey: key(hospitalId, 'schedules', f),
    queryFn: ({ signal }) =>
      api.get<Page<TSchedule>>('appointments/schedules/', {
        query: {
          provider: f.provider || undefined,
          department: f.department || undefined,
          active: f.active,
          page: f.page,
          page_size: SCHEDULES_PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useSchedules(f: ScheduleFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(schedulesQueryOptions(hospitalId, f));
}

export function useExceptions(f: DatedFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: key(hospitalId, 'exceptions', f),
    queryFn: ({ signal }) =>
      api.get<Page<TScheduleException>>('appointments/exceptions/', {
        query: {
          provider: f.provider || undefined,
          from: f.from || undefined,
          page: f.page,
          page_size: SCHEDULES_PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useHolidays(f: DatedFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: key(hospitalId, 'holidays', f),
    queryFn: ({ signal }) =>
      api.get<Page<THoliday>>('appointments/holidays/', {
        query: { from: f.from || undefined, page: f.page, page_size: SCHEDULES_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** What to do with the bookings a change leaves out (asked after a 409 `bookings_affected`). */
export interface BookingsDecision {
  on_bookings?: OnBookings;
  cancel_reason?: string;
}

/** The affected bookings of a 409 `bookings_affected`, or null for any other failure. */
export function affectedBookings(error: unknown): TBookingsConflict['affected'] | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const body = (error as ApiError).body;
  if (!body || typeof body !== 'object' || body.code !== 'bookings_affected') return null;
  return Array.isArray(body.affected) ? (body.affected as TBookingsConflict['affected']) : null;
}

function useScheduleMutation<V, R>(fn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateAppointments(queryClient) });
}

export function useCreateSchedule() {
  return useScheduleMutation((body: TScheduleCreate) => api.post<TSchedule>('appointments/schedules/', body));
}

export function useUpdateSchedule() {
  return useScheduleMutation(({ id, body }: { id: string; body: TScheduleUpdate }) =>
    api.patch<TSchedule>(`appointments/schedules/${id}/`, body),
  );
}

export function useEndSchedule() {
  return useScheduleMutation(({ id, decision }: { id: string; decision: BookingsDecision }) =>
    api.delete<TSchedule>(`appointments/schedules/${id}/`, {
      query: { on_bookings: decision.on_bookings, reason: decision.cancel_reason },
    }),
  );
}

export function useAddException() {
  return useScheduleMutation((body: TScheduleExceptionCreate) =>
    api.post<TScheduleException>('appointments/exceptions/', body),
  );
}

export function useRemoveException() {
  return useScheduleMutation((id: string) => api.delete<null>(`appointments/exceptions/${id}/`));
}

export function useAddHoliday() {
  return useScheduleMutation((body: THolidayCreate) => api.post<THoliday>('appointments/holidays/', body));
}

export function useRemoveHoliday() {
  return useScheduleMutation((id: string) => api.delete<null>(`appointments/holidays/${id}/`));
}
