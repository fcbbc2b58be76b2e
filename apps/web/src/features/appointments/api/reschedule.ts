/** POST /api/appointments/{id}/reschedule/: moves it to another slot (the old time stays in the history). */
import type { TAppointment, TAppointmentReschedule } from '@greensen/shared/contracts/appointments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAppointments } from '../../../lib/clinical/api/appointment-keys';

export function rescheduleAppointment(id: string, body: TAppointmentReschedule) {
  return api.post<TAppointment>(`appointments/${id}/reschedule/`, body);
}

export function useRescheduleAppointment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TAppointmentReschedule }) =>
      rescheduleAppointment(id, body),
    onSettled: () => invalidateAppointments(queryClient),
  });
}
