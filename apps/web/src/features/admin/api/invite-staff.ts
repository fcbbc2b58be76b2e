/** POST /api/admin/staff/: invites a person by email with one role. */
import type { TStaffInvite, TStaffInviteResult } from '@greensen/shared/contracts/staff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { STAFF_KEY } from './list-staff';

export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TStaffInvite) => api.post<TStaffInviteResult>('admin/staff/', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}
