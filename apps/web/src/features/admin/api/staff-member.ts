/**
 * One person of the hospital's staff: GET /api/admin/staff/{id}/, and the writes of the detail page —
 * memberships (add, end), deactivate, reactivate, reset the PIN, mail a password reset.
 */
import type { TMembershipCreate, TStaffDetail, TStaffMailed } from '@greensen/shared/contracts/staff';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';
import { STAFF_KEY } from './list-staff';

export function staffMemberQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...STAFF_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TStaffDetail>(`admin/staff/${id}/`, { signal }),
  });
}

export function useStaffMember(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(staffMemberQueryOptions(hospitalId, id));
}

/** Every staff write changes the list and the person: both are read again. */
function useStaffMutation<V, R>(run: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }),
  });
}

export const useAddMembership = (id: string) =>
  useStaffMutation((body: TMembershipCreate) =>
    api.post<TStaffDetail>(`admin/staff/${id}/memberships/`, body),
  );

export const useRemoveMembership = (id: string) =>
  useStaffMutation((membership: string) =>
    api.delete<TStaffDetail>(`admin/staff/${id}/memberships/${membership}/`),
  );

export type StaffAction = 'deactivate' | 'reactivate' | 'reset-pin';

export const useStaffAction = (id: string) =>
  useStaffMutation((action: StaffAction) => api.post<TStaffDetail>(`admin/staff/${id}/${action}/`));

export const useSendPasswordReset = (id: string) =>
  useStaffMutation(() => api.post<TStaffMailed>(`admin/staff/${id}/password-reset/`));
