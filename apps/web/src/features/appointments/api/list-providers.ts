/**
 * GET /api/appointments/providers/: the providers who have a schedule (optionally in a department); `unscheduled`
 * adds every member who may have one (doctors, midwives, nurses), for those who manage schedules.
 */
import type { ZScheduleProviderList } from '@greensen/shared/contracts/appointments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { APPOINTMENTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useAuthStore } from '../../../stores/auth';

export type ScheduleProviderList = z.infer<typeof ZScheduleProviderList>;
export type ScheduleProvider = ScheduleProviderList['results'][number];

export function providersQueryOptions(
  hospitalId: string | null,
  department: string | null,
  unscheduled = false,
) {
  return queryOptions({
    queryKey: [...APPOINTMENTS_KEY, hospitalId, 'providers', department, unscheduled] as const,
    queryFn: ({ signal }) =>
      api.get<ScheduleProviderList>('appointments/providers/', {
        query: { department: department || undefined, unscheduled: unscheduled || undefined },
        signal,
      }),
    staleTime: 5 * 60_000,
  });
}

export function useScheduleProviders(department: string | null = null, enabled = true, unscheduled = false) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...providersQueryOptions(hospitalId, department, unscheduled), enabled });
}
