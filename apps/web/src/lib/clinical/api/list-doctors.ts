/** GET /api/doctors/: the hospital's practitioners with today's load (ordering name | load). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { DOCTORS_KEY } from './journey-keys';
import type { Page } from './list-admissions';

export interface Workload {
  waiting: number;
  in_progress: number;
  completed_today: number;
  average_consultation_minutes: number | null;
}

export interface Doctor {
  id: string;
  full_name: string;
  email: string;
  title_prefix: string;
  role_codes: string[];
  departments: { id: string; code: string; name: string; kind: string }[];
  workload: Workload;
}

export interface DoctorListParams {
  search?: string;
  department?: string | null;
  ordering?: 'load' | 'name';
  /** The visit being assigned: the server lists the practitioners of its department first. */
  admission?: string | null;
  page: number;
  pageSize: number;
}

export function fetchDoctors(params: DoctorListParams, signal?: AbortSignal) {
  return api.get<Page<Doctor>>('doctors/', {
    query: {
      search: params.search?.trim() || undefined,
      department: params.department,
      ordering: params.ordering,
      admission: params.admission || undefined,
      page: params.page,
      page_size: params.pageSize,
    },
    signal,
  });
}

export function doctorsQueryOptions(hospitalId: string | null, params: DoctorListParams) {
  return queryOptions({
    queryKey: [...DOCTORS_KEY, hospitalId, 'list', params] as const,
    queryFn: ({ signal }) => fetchDoctors(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDoctors(params: DoctorListParams) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(doctorsQueryOptions(hospitalId, params));
}

/** A doctor's current load: patients waiting for them plus the one in consultation. */
export function currentLoad(workload: Workload): number {
  return workload.waiting + workload.in_progress;
}

/** Doctors from the least to the most loaded (then by name), as the assignment dialog lists them. */
export function byLoad<T extends { full_name: string; workload: Workload }>(doctors: readonly T[]): T[] {
  return [...doctors].sort(
    (a, b) => currentLoad(a.workload) - currentLoad(b.workload) || a.full_name.localeCompare(b.full_name),
  );
}
