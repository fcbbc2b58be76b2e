/** GET /api/appointments/: the hospital's appointments with filters, server-paginated (start order). */
import type { TAppointment, TAppointmentList } from '@greensen/shared/contracts/appointments';
import type { AppointmentStatus, AppointmentType } from '@greensen/shared/domain/appointments';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { APPOINTMENTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useAuthStore } from '../../../stores/auth';

export interface AppointmentFilters {
  provider?: string | null;
  department?: string | null;
  patient?: string | null;
  /** Start dates, inclusive (`YYYY-MM-DD`, hospital time). */
  from?: string | null;
  to?: string | null;
  status?: readonly AppointmentStatus[];
  appointmentType?: AppointmentType | null;
  /** Only mine (as the provider). */
  mine?: boolean;
}

export interface AppointmentListParams extends AppointmentFilters {
  page: number;
  pageSize: number;
  ordering?: 'start' | '-start';
}

function filterQuery(params: AppointmentFilters) {
  return {
    provider: params.provider || undefined,
    department: params.department || undefined,
    patient: params.patient || undefined,
    from: params.from || undefined,
    to: params.to || undefined,
    status: params.status && params.status.length > 0 ? params.status.join(',') : undefined,
    appointment_type: params.appointmentType || undefined,
    mine: params.mine ? true : undefined,
  };
}

export function fetchAppointments(params: AppointmentListParams, signal?: AbortSignal) {
  return api.get<TAppointmentList>('appointments/', {
    query: {
      ...filterQuery(params),
      ordering: params.ordering,
      page: params.page,
      page_size: params.pageSize,
    },
    signal,
  });
}

export function appointmentsQueryOptions(hospitalId: string | null, params: AppointmentListParams) {
  return queryOptions({
    queryKey: [...APPOINTMENTS_KEY, hospitalId, 'list', params] as const,
    queryFn: ({ signal }) => fetchAppointments(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAppointments(params: AppointmentListParams, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...appointmentsQueryOptions(hospitalId, params), enabled });
}

/** The most pages of 100 the calendar reads for one view (a department's month). */
export const CALENDAR_MAX_PAGES = 5;

/** Every appointment of a date window (the calendar's view), up to `CALENDAR_MAX_PAGES` pages of 100. */
export async function fetchAppointmentWindow(
  filters: AppointmentFilters,
  signal?: AbortSignal,
): Promise<{ results: TAppointment[]; truncated: boolean }> {
  const results: TAppointment[] = [];
  for (let page = 1; page <= CALENDAR_MAX_PAGES; page++) {
    const answer = await fetchAppointments({ ...filters, page, pageSize: 100 }, signal);
    results.push(...answer.results);
    if (!answer.next) return { results, truncated: false };
  }
  return { results, truncated: true };
}

export function appointmentWindowQueryOptions(hospitalId: string | null, filters: AppointmentFilters) {
  return queryOptions({
    queryKey: [...APPOINTMENTS_KEY, hospitalId, 'window', filters] as const,
    queryFn: ({ signal }) => fetchAppointmentWindow(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAppointmentWindow(filters: AppointmentFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...appointmentWindowQueryOptions(hospitalId, filters), enabled });
}
