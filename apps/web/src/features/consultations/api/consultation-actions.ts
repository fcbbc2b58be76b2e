/**
 * The record's state changes: POST …/complete/ (400 lists what is missing), POST …/cancel/ {reason},
 * POST …/addenda/ {text}. Each stores the answer and refreshes the lists and queues.
 */
import type { TAddendum, TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { consultationQueryKey, storeConsultation } from '../../../lib/clinical/api/get-consultation';
import { invalidateJourney } from '../../../lib/clinical/api/journey-keys';
import { useAuthStore } from '../../../stores/auth';

export function completeConsultation(id: string, version?: number): Promise<TConsultationDetail> {
  return api.post<TConsultationDetail>(`consultations/${id}/complete/`, version ? { version } : {});
}

export function cancelConsultation(id: string, reason: string): Promise<TConsultationDetail> {
  return api.post<TConsultationDetail>(`consultations/${id}/cancel/`, { reason });
}

export function addAddendum(id: string, text: string): Promise<TAddendum> {
  return api.post<TAddendum>(`consultations/${id}/addenda/`, { text });
}

export function useCompleteConsultation(id: string) {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: (version?: number) => completeConsultation(id, version),
    onSuccess: (record) => {
      storeConsultation(queryClient, hospitalId, record);
      void invalidateJourney(queryClient);
    },
  });
}

export function useCancelConsultation(id: string) {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: (reason: string) => cancelConsultation(id, reason),
    onSuccess: (record) => {
      storeConsultation(queryClient, hospitalId, record);
      void invalidateJourney(queryClient);
    },
  });
}

export function useAddAddendum(id: string) {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: (text: string) => addAddendum(id, text),
    onSuccess: (addendum) => {
      queryClient.setQueryData<TConsultationDetail>(consultationQueryKey(hospitalId, id), (record) =>
        record ? { ...record, addenda: [...record.addenda, addendum] } : record,
      );
    },
  });
}
