/**
 * /api/appointments/ics-link/: my personal iCalendar link — GET whether I have one, POST creates or rotates it (the
 * URL is shown once: the server keeps a hash), DELETE revokes it.
 */
import type { TIcsLinkCreated, TIcsLinkState } from '@greensen/shared/contracts/appointments';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { APPOINTMENTS_KEY } from '../../../lib/clinical/api/appointment-keys';
import { useAuthStore } from '../../../stores/auth';

const icsKey = (hospitalId: string | null) => [...APPOINTMENTS_KEY, hospitalId, 'ics-link'] as const;

export function icsLinkQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: icsKey(hospitalId),
    queryFn: ({ signal }) => api.get<TIcsLinkState>('appointments/ics-link/', { signal }),
  });
}

export function useIcsLink(enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({ ...icsLinkQueryOptions(hospitalId), enabled });
}

export function useCreateIcsLink() {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: () => api.post<TIcsLinkCreated>('appointments/ics-link/', {}),
    onSuccess: (created) => {
      const { url: _url, ...state } = created;
      queryClient.setQueryData(icsKey(hospitalId), state);
    },
  });
}

export function useRevokeIcsLink() {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: () => api.delete<unknown>('appointments/ics-link/'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: icsKey(hospitalId) }),
  });
}
