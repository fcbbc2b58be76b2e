/** GET/PUT /api/admin/maintenance/: the maintenance switch of administrators (every page then shows /maintenance). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { CONFIG_QUERY_KEY } from './app-config';

export interface MaintenanceState {
  enabled: boolean;
  /** MAINTENANCE_MODE forces it on: the switch cannot turn it off. */
  forced_by_environment: boolean;
}

export const MAINTENANCE_KEY = ['admin', 'maintenance'] as const;

export function maintenanceQueryOptions() {
  return queryOptions({
    queryKey: MAINTENANCE_KEY,
    queryFn: ({ signal }) => api.get<MaintenanceState>('admin/maintenance/', { signal }),
  });
}

export function useMaintenance() {
  return useQuery(maintenanceQueryOptions());
}

export function useSetMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => api.put<MaintenanceState>('admin/maintenance/', { enabled }),
    onSuccess: async (state) => {
      queryClient.setQueryData(MAINTENANCE_KEY, state);
      // The public configuration carries the flag every page follows (the maintenance guard).
      await queryClient.invalidateQueries({ queryKey: CONFIG_QUERY_KEY });
    },
  });
}
