/**
 * POST /api/admin/staff/: invites a person by email with one role. The answer is the invitation as typed (issue 36):
 * the same whether the address has an account or not; the role takes effect when the person accepts.
 */
import type { TStaffInvitation, TStaffInvite } from '@greensen/shared/contracts/staff';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { STAFF_KEY } from './list-staff';

export function useInviteStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TStaffInvite) => api.post<TStaffInvitation>('admin/staff/', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}
