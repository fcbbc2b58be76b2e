/** POST /api/appointments/: books a slot (201); 409 when its last place was just taken. */
import type { TAppointment, TAppointmentCreate } from '@greensen/shared/contracts/appointments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAppointments } from '../../../lib/clinical/api/appointment-keys';

export function createAppointment(body: TAppointmentCreate) {
  return api.post<TAppointment>('appointments/', body);
}

export function useCreateAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAppointment,
    onSettled: () => invalidateAppointments(queryClient),
  });
}
