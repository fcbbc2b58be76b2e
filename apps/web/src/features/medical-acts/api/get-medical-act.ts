/** GET /api/medical-acts/{id}/: an act with all its tariffs (a missing one: the error page, type medical-act). */
import type { TMedicalActDetail } from '@greensen/shared/contracts/medical-acts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';
import { MEDICAL_ACTS_KEY } from './list-medical-acts';

export function useMedicalAct(id: string, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...MEDICAL_ACTS_KEY, hospitalId, 'detail', id] as const,
    queryFn: ({ signal }) => api.get<TMedicalActDetail>(`medical-acts/${id}/`, { signal }),
    enabled,
  });
}
