/** GET /api/admin/jobs/: the background jobs of the hospital and the system-wide ones, latest due first. */
import type { JobState, TJobList } from '@greensen/shared/contracts/jobs';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';

export const JOBS_KEY = ['admin', 'jobs'] as const;

export interface JobFilters {
  state?: JobState | null;
  name?: string | null;
  page: number;
  pageSize: number;
}

export function jobsQueryOptions(hospitalId: string | null, filters: JobFilters) {
  return queryOptions({
    queryKey: [...JOBS_KEY, hospitalId, filters] as const,
    queryFn: ({ signal }) =>
      api.get<TJobList>('admin/jobs/', {
        query: {
          state: filters.state || undefined,
          name: filters.name || undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useJobs(filters: JobFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(jobsQueryOptions(hospitalId, filters));
}
