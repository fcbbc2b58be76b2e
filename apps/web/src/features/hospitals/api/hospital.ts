/** GET/PATCH /api/hospitals/{id}/ (the hospital the user works in) and POST /api/hospitals/ (a new one). */
import type { THospital, THospitalCreate, THospitalUpdate } from '@greensen/shared/contracts/structure';
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
