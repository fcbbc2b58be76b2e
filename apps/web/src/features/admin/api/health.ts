/** GET /api/health/: this instance's state, for the administrators' banner (decision 0058). */
import type { THealth } from '@greensen/shared/contracts/system';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const HEALTH_KEY = ['admin', 'health'] as const;

export function healthQueryOptions() {
  return queryOptions({
    queryKey: HEALTH_KEY,
    queryFn: ({ signal }) => api.get<THealth>('health/', { signal }),
    refetchInterval: 30_000,
  });
}

export function useHealth() {
  return useQuery(healthQueryOptions());
}
