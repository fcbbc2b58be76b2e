/** POST /api/appointments/{id}/check-in/: the patient is at the desk; opens the visit (admission) linked to it. */
import type { TCheckInResult } from '@greensen/shared/contracts/appointments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAppointments } from '../../../lib/clinical/api/appointment-keys';
import { invalidateJourney } from '../../../lib/clinical/api/journey-keys';

export function checkInAppointment(id: string) {
  return api.post<TCheckInResult>(`appointments/${id}/check-in/`, {});
}

export function useCheckInAppointment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => checkInAppointment(id),
    onSuccess: () => Promise.all([invalidateAppointments(queryClient), invalidateJourney(queryClient)]),
  });
}
