/** GET /api/appointments/{id}/: an appointment with its reschedule history. */
import type { TAppointmentDetail } from '@greensen/shared/contracts/appointments';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { APPOINTMENTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useAuthStore } from '../../../stores/auth';

export function appointmentQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...APPOINTMENTS_KEY, hospitalId, 'detail', id] as const,
    // Appointments are not a resource type of the error page: the page sends a 404 there itself.
    queryFn: ({ signal }) =>
      api.get<TAppointmentDetail>(`appointments/${id}/`, { signal, notFoundRedirect: false }),
  });
}

export function useAppointment(id: string, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...appointmentQueryOptions(hospitalId, id), enabled });
}
