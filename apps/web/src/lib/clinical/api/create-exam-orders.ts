/** POST /api/exams/: orders one or several exams for a patient (directly or from a consultation). */
import type { TExamOrderCreate, TExamOrderCreated } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateExams } from './exam-keys';

export function createExamOrders(body: TExamOrderCreate): Promise<TExamOrderCreated> {
  return api.post<TExamOrderCreated>('exams/', body);
}

export function useCreateExamOrders() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createExamOrders, onSuccess: () => invalidateExams(queryClient) });
}
