/**
 * POST /api/medical-acts/ (a new act, with its first tariffs), PATCH /api/medical-acts/{id}/ (code, labels,
 * category, active) and POST /api/medical-acts/{id}/tariffs/ (a new price from a date): the management only.
 */
import type {
  TMedicalActCreate,
  TMedicalActDetail,
  TMedicalActUpdate,
  TTariffCreate,
} from '@greensen/shared/contracts/medical-acts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { MEDICAL_ACTS_KEY } from './list-medical-acts';

function useCatalogueWrite<Input, Output>(send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEDICAL_ACTS_KEY }),
  });
}

export const useCreateMedicalAct = () =>
  useCatalogueWrite((body: TMedicalActCreate) => api.post<TMedicalActDetail>('medical-acts/', body));

export const useUpdateMedicalAct = (id: string) =>
  useCatalogueWrite((body: TMedicalActUpdate) => api.patch<TMedicalActDetail>(`medical-acts/${id}/`, body));

export const useCreateTariff = (id: string) =>
  useCatalogueWrite((body: TTariffCreate) =>
    api.post<TMedicalActDetail>(`medical-acts/${id}/tariffs/`, body),
  );
