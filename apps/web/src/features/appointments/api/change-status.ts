/**
 * POST /api/appointments/{id}/confirm|no-show|complete|cancel/: a move of the status machine (an illegal one
 * is a 409); cancel carries its reason.
 */
import type { TAppointment } from '@greensen/shared/contracts/appointments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateAppointments } from '../../../lib/clinical/api/appointment-keys';

export type StatusAction = 'confirm' | 'no-show' | 'complete' | 'cancel';

export function changeAppointmentStatus(id: string, action: StatusAction, reason?: string) {
  return api.post<TAppointment>(`appointments/${id}/${action}/`, action === 'cancel' ? { reason } : {});
}

export function useChangeAppointmentStatus(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason }: { action: StatusAction; reason?: string }) =>
      changeAppointmentStatus(id, action, reason),
    onSuccess: () => invalidateAppointments(queryClient),
  });
}
