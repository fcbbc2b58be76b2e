/**
 * GET /api/consultations/: the consultations the user may read (the server applies the consultation-access
 * rule), by scope (mine | department | all) with filters. Used by /consultations and the patient record.
 */
import type { ConsultationScope, TConsultationList } from '@greensen/shared/contracts/consultations';
import type { ConsultationStatus } from '@greensen/shared/domain/consultations';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { CONSULTATIONS_KEY } from './get-consultation';

export interface ConsultationFilters {
  scope?: ConsultationScope;
  today?: boolean;
  status?: ConsultationStatus[];
  date?: string | null;
  doctor?: string | null;
  department?: string | null;
  patient?: string | null;
  admission?: string | null;
  /** An ICD-10 code prefix. */
  diagnosis?: string;
  search?: string;
  page: number;
  pageSize: number;
}

export function fetchConsultations(filters: ConsultationFilters, signal?: AbortSignal) {
  return api.get<TConsultationList>('consultations/', {
    query: {
      scope: filters.scope,
      today: filters.today ? 'true' : undefined,
      status: filters.status?.length ? filters.status.join(',') : undefined,
      date: filters.date,
      doctor: filters.doctor,
      department: filters.department,
      patient: filters.patient,
      admission: filters.admission,
      diagnosis: filters.diagnosis?.trim() || undefined,
      search: filters.search?.trim() || undefined,
      page: filters.page,
      page_size: filters.pageSize,
    },
    signal,
  });
}

export function consultationsQueryOptions(hospitalId: string | null, filters: ConsultationFilters) {
  return queryOptions({
    queryKey: [...CONSULTATIONS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) => fetchConsultations(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useConsultations(filters: ConsultationFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...consultationsQueryOptions(hospitalId, filters), enabled });
}

/** The consultation in progress of a visit (to open it again from the visit), for practitioners only. */
export function useOpenConsultationOf(admissionId: string, enabled: boolean) {
  const query = useConsultations(
    { scope: 'all', admission: admissionId, status: ['in_progress'], page: 1, pageSize: 1 },
    enabled,
  );
  return query.data?.results[0] ?? null;
}
