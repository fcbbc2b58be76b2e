/** GET /api/doctors/{id}/: a practitioner with today's load. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { DOCTORS_KEY } from '../../../lib/clinical/api/journey-keys';
import type { Doctor } from '../../../lib/clinical/api/list-doctors';
import { useAuthStore } from '../../../stores/auth';

export function doctorQueryOptions(hospitalId: string | null, id: string) {
  return queryOptions({
    queryKey: [...DOCTORS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<Doctor>(`doctors/${id}/`, { signal }),
  });
}

export function useDoctor(id: string) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(doctorQueryOptions(hospitalId, id));
}
