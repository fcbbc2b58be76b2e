/**
 * The hospital's structure (issue 15): wards with their bed counts, a ward's rooms and beds, and the changes an
 * administrator makes (departments, wards, rooms, beds). Every change refreshes the lists it affects.
 */
import type { TDepartmentDetail, TWard, TWardDetail } from '@greensen/shared/contracts/structure';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { DEPARTMENTS_KEY } from '../../../lib/clinical/api/journey-keys';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';

export const STRUCTURE_KEY = ['structure'] as const;

export interface WardFilters {
  department?: string | null;
  includeInactive: boolean;
  page: number;
  pageSize: number;
}

export function wardsQueryOptions(hospitalId: string | null, filters: WardFilters) {
  return queryOptions({
    queryKey: [...STRUCTURE_KEY, hospitalId, 'wards', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TWard>>('wards/', {
        query: {
          department: filters.department || undefined,
          include_inactive: filters.includeInactive || undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useWards(filters: WardFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(wardsQueryOptions(hospitalId, filters));
}

export function wardQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...STRUCTURE_KEY, hospitalId, 'ward', id] as const,
    queryFn: ({ signal }) => api.get<TWardDetail>(`wards/${id}/`, { signal }),
  });
}

export function useWard(id: string | null) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...wardQueryOptions(hospitalId, id ?? ''), enabled: id !== null });
}

/** A change of the structure: `send` makes the call; the wards, the ward and the departments are refreshed. */
function useStructureChange<Input, Output>(send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: STRUCTURE_KEY }),
        queryClient.invalidateQueries({ queryKey: DEPARTMENTS_KEY }),
      ]);
    },
  });
}

export const useCreateDepartment = () =>
  useStructureChange((body: Record<string, unknown>) => api.post<TDepartmentDetail>('departments/', body));
export const useUpdateDepartment = () =>
  useStructureChange(({ id, ...body }: { id: string } & Record<string, unknown>) =>
    api.patch<TDepartmentDetail>(`departments/${id}/`, body),
  );
export const useCreateWard = () =>
  useStructureChange((body: Record<string, unknown>) => api.post<TWardDetail>('wards/', body));
export const useUpdateWard = () =>
  useStructureChange(({ id, ...body }: { id: string } & Record<string, unknown>) =>
    api.patch<TWardDetail>(`wards/${id}/`, body),
  );
export const useCreateRoom = () =>
  useStructureChange(({ ward, ...body }: { ward: string; name: string; beds: string[] }) =>
    api.post<TWardDetail>(`wards/${ward}/rooms/`, body),
  );
export const useUpdateRoom = () =>
  useStructureChange(({ id, ...body }: { id: string; name?: string; is_active?: boolean }) =>
    api.patch<TWardDetail>(`rooms/${id}/`, body),
  );
export const useAddBeds = () =>
  useStructureChange(({ room, labels }: { room: string; labels: string[] }) =>
    api.post<TWardDetail>(`rooms/${room}/beds/`, { labels }),
  );
export const useUpdateBed = () =>
  useStructureChange(({ id, ...body }: { id: string } & Record<string, unknown>) =>
    api.patch<TWardDetail>(`beds/${id}/`, body),
  );
