/** GET /api/exams/{id}/: an order in full (404 → the error page with type exam, by the API client). */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { EXAMS_KEY } from '../../../lib/clinical/api/exam-keys';
import { useAuthStore } from '../../../stores/auth';

export function examQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...EXAMS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TExamOrderDetail>(`exams/${id}/`, { signal }),
  });
}

export function useExam(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(examQueryOptions(hospitalId, id));
}
