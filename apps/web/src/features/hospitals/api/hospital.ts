/** GET/PATCH /api/hospitals/{id}/ (the hospital the user works in) and POST /api/hospitals/ (a new one). */
import type {
  THospital,
  THospitalCreate,
  THospitalLogo,
  THospitalUpdate,
} from '@greensen/shared/contracts/structure';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshUser } from '../../../lib/profile';
import { useAuthStore } from '../../../stores/auth';
import { STRUCTURE_KEY } from './structure';

export function hospitalQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: [...STRUCTURE_KEY, hospitalId, 'hospital'] as const,
    queryFn: ({ signal }) => api.get<THospital>(`hospitals/${hospitalId}/`, { signal }),
    enabled: hospitalId !== null,
  });
}

export function useCurrentHospital() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(hospitalQueryOptions(hospitalId));
}

export function useUpdateHospital() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & THospitalUpdate) =>
      api.patch<THospital>(`hospitals/${id}/`, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: STRUCTURE_KEY });
      // Its name shows in the hospital selector: the user's hospitals come with the profile.
      await refreshUser().catch(() => null);
    },
  });
}

export function useCreateHospital() {
  return useMutation({
    mutationFn: (body: THospitalCreate) => api.post<THospital>('hospitals/', body),
    // The creator administers the new hospital: the selector lists it once the profile is fresh.
    onSuccess: async () => {
      await refreshUser().catch(() => null);
    },
  });
}

/** The logo (null when the hospital has none: the 404 is expected, not an error page). */
export function useHospitalLogo(hospitalId: string | null, hasLogo: boolean) {
  return useQuery({
    queryKey: [...STRUCTURE_KEY, hospitalId, 'logo'] as const,
    queryFn: ({ signal }) =>
      api.get<THospitalLogo>(`hospitals/${hospitalId}/logo/`, { signal, notFoundRedirect: false }),
    enabled: hospitalId !== null && hasLogo,
  });
}

export function useSetHospitalLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, data }: { id: string; data: string | null }): Promise<THospitalLogo | null> => {
      if (data !== null) return api.put<THospitalLogo>(`hospitals/${id}/logo/`, { data });
      await api.delete<void>(`hospitals/${id}/logo/`);
      return null;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STRUCTURE_KEY }),
  });
}
