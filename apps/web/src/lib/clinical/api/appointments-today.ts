/** GET /api/appointments/today/: my appointments of today with their check-in state (doctor dashboard). */
import type { TTodayAppointments } from '@greensen/shared/contracts/appointments';
import { type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuthStore } from '../../../stores/auth';
import { api } from '../../api-client';
import { APPOINTMENTS_KEY } from './appointment-keys';

/** `scope` lets the dashboard file its copy under ['dashboard', …] so its refresh timer reaches it. */
export function todayAppointmentsQueryOptions(hospitalId: string | null, scope: QueryKey = APPOINTMENTS_KEY) {
  return queryOptions({
    queryKey: [...scope, hospitalId, 'appointments-today'] as const,
    queryFn: ({ signal }) => api.get<TTodayAppointments>('appointments/today/', { signal }),
  });
}

export function useTodayAppointments(scope?: QueryKey, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...todayAppointmentsQueryOptions(hospitalId, scope), enabled });
}
