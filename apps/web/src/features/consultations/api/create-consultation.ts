/** POST /api/consultations/: a consultation created directly for a patient (no visit) → 201 the record. */
import type { TConsultationCreate, TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { storeConsultation } from '../../../lib/clinical/api/get-consultation';
import { useAuthStore } from '../../../stores/auth';

export function createConsultation(body: TConsultationCreate): Promise<TConsultationDetail> {
  return api.post<TConsultationDetail>('consultations/', body);
}

export function useCreateConsultation() {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: createConsultation,
    onSuccess: (record) => storeConsultation(queryClient, hospitalId, record),
  });
}
