/** GET /api/departments/{id}/execution-queue/?status=all|unassigned|assigned. */
import type { TExecution } from '@greensen/shared/contracts/executions';
import { type QueryKey, queryOptions, useQueries } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { DEPARTMENTS_KEY } from './journey-keys';
import type { Page } from './list-admissions';

export type QueueEntry = Omit<TExecution, 'id' | 'status'> & {
  id: string | null;
  status: 'unassigned' | TExecution['status'];
};

export function departmentQueueQueryOptions(
  hospitalId: string | null,
  departmentId: string,
  status: 'all' | 'unassigned' | 'assigned' = 'all',
  scope: QueryKey = DEPARTMENTS_KEY,
) {
  return queryOptions({
    queryKey: [...scope, hospitalId, departmentId, 'queue', status] as const,
    queryFn: ({ signal }) =>
      api.get<Page<QueueEntry>>(`departments/${departmentId}/execution-queue/`, {
        query: { status, page_size: 100 },
        signal,
      }),
  });
}

/** The queues of several departments at once. */
export function useDepartmentQueues(departmentIds: readonly string[], scope?: QueryKey) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQueries({
    queries: departmentIds.map((id) => departmentQueueQueryOptions(hospitalId, id, 'all', scope)),
  });
}
