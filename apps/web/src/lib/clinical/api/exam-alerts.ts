/** GET /api/exams/alerts/: my validated abnormal results not acknowledged yet (urgent first). */
import type { TExamAlerts } from '@greensen/shared/contracts/exams';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { EXAMS_KEY } from './exam-keys';

export function examAlertsQueryOptions(hospitalId: string | null, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...EXAMS_KEY, hospitalId, 'alerts', page, pageSize] as const,
    queryFn: ({ signal }) =>
      // Not a detail path: never the not-found page (the API client would read 'alerts' as an exam id).
      api.get<TExamAlerts>('exams/alerts/', {
        query: { page, page_size: pageSize },
        signal,
        notFoundRedirect: false,
      }),
    placeholderData: keepPreviousData,
  });
}

/** `refetchInterval`: the dashboard's refresh interval while the card is shown. */
export function useExamAlerts(
  page: number,
  pageSize: number,
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    ...examAlertsQueryOptions(hospitalId, page, pageSize),
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval ?? false,
  });
}
