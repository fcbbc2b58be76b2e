/** GET /api/dashboard/overview/: the administrator's and head doctor's hospital overview (AdminDashboard). */
import type { TDashboardOverview } from '@greensen/shared/contracts/stats';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { FirstQueries } from '../../../lib/first-data';

export function overviewQueryKey(hospitalId: string | null) {
  return ['dashboard', 'admin', hospitalId, 'overview'] as const;
}

export function overviewQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: overviewQueryKey(hospitalId),
    queryFn: ({ signal }) => api.get<TDashboardOverview>('dashboard/overview/', { signal }),
    enabled: hospitalId !== null,
  });
}

/** The administrator's home opens on the overview's summary (issue 38: started as the app starts). */
export const adminHomeFirstQueries: FirstQueries = ({ hospitalId }) => [overviewQueryOptions(hospitalId)];
