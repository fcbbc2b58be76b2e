/** GET /api/admin/staff/: the hospital's staff, searched and filtered, a page at a time. */
import type { StaffLastLogin, TStaffList } from '@greensen/shared/contracts/staff';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';

export const STAFF_KEY = ['admin', 'staff'] as const;

export interface StaffFilters {
  search?: string;
  role?: string | null;
  department?: string | null;
  active?: boolean | null;
  lastLogin?: StaffLastLogin | null;
  page: number;
  pageSize: number;
}

export function staffQueryOptions(hospitalId: string | null, filters: StaffFilters) {
  return queryOptions({
    queryKey: [...STAFF_KEY, hospitalId, 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get<TStaffList>('admin/staff/', {
        query: {
          search: filters.search || undefined,
          role: filters.role || undefined,
          department: filters.department || undefined,
          active:
            filters.active === null || filters.active === undefined ? undefined : String(filters.active),
          last_login: filters.lastLogin || undefined,
          page: filters.page,
          page_size: filters.pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useStaff(filters: StaffFilters) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(staffQueryOptions(hospitalId, filters));
}
