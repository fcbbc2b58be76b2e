/**
 * GET /api/exams/: exam orders with filters (status, urgency, department, kind, patient, consultation,
 * requested_by, abnormal, date, search), urgent first then the oldest (`priority`) or newest first (`recent`).
 */
import type { TExamList } from '@greensen/shared/contracts/exams';
import type { ExamKind, ExamStatus, ExamUrgency } from '@greensen/shared/domain/exams';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { EXAMS_KEY } from './exam-keys';

export interface ExamFilters {
  status?: readonly ExamStatus[];
  urgency?: ExamUrgency | null;
  department?: string | null;
  kind?: ExamKind | null;
  patient?: string | null;
  consultation?: string | null;
  requestedBy?: 'me' | string | null;
  abnormal?: boolean | null;
  date?: string | null;
  search?: string;
  ordering?: 'priority' | 'recent';
  page: number;
  pageSize: number;
}

export function fetchExams(filters: ExamFilters, signal?: AbortSignal) {
  return api.get<TExamList>('exams/', {
    query: {
      status: filters.status?.length ? filters.status.join(',') : undefined,
      urgency: filters.urgency || undefined,
      department: filters.department || undefined,
      kind: filters.kind || undefined,
      patient: filters.patient || undefined,
      consultation: filters.consultation || undefined,
      requested_by: filters.requestedBy || undefined,
      abnormal:
        filters.abnormal === null || filters.abnormal === undefined ? undefined : String(filters.abnormal),
      date: filters.date || undefined,
      search: filters.search?.trim() || undefined,
      ordering: filters.ordering,
      page: filters.page,
      page_size: filters.pageSize,
    },
    signal,
  });
}

export function examsQueryOptions(hospitalId: string | null, filters: ExamFilters) {
  return queryOptions({
    queryKey: [...EXAMS_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) => fetchExams(filters, signal),
    placeholderData: keepPreviousData,
  });
}

export function useExams(filters: ExamFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...examsQueryOptions(hospitalId, filters), enabled });
}
