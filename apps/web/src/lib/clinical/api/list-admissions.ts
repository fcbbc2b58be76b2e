/** GET /api/admissions/: visits with filters (status, department, type, date, doctor, patient, search). */
import type { TAdmission } from '@greensen/shared/contracts/admissions';
import type { AdmissionStatus, AdmissionType } from '@greensen/shared/domain/admissions';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { ADMISSIONS_KEY } from './journey-keys';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface AdmissionFilters {
  status?: AdmissionStatus[];
  department?: string | null;
  admission_type?: AdmissionType | null;
  date?: string | null;
  doctor?: string | null;
  patient?: string | null;
  search?: string;
  ordering?: 'queue' | '-admitted_at' | 'admitted_at';
  page: number;
  pageSize: number;
}

export function fetchAdmissions(filters: AdmissionFilters, signal?: AbortSignal) {
  return api.get<Page<TAdmission>>('admissions/', {
    query: {
      status: filters.status?.length ? filters.status.join(',') : undefined,
      department: filters.department,
      admission_type: filters.admission_type,
      date: filters.date,
      doctor: filters.doctor,
      patient: filters.patient,
      search: filters.search?.trim() || undefined,
      ordering: filters.ordering,
      page: filters.page,
      page_size: filters.pageSize,
    },
    signal,
  });
}

export function admissionsQueryOptions(hospitalId: string | null, filters: AdmissionFilters) {
  return queryOptions({
    queryKey: [...ADMISSIONS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) => fetchAdmissions(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAdmissions(filters: AdmissionFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...admissionsQueryOptions(hospitalId, filters), enabled });
}
