/** POST /api/exams/{id}/cancel/ {reason}: cancels an order before its results. */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateExams } from '../../../lib/clinical/api/exam-keys';

export function cancelExam(input: { id: string; reason: string }): Promise<TExamOrderDetail> {
  return api.post<TExamOrderDetail>(`exams/${input.id}/cancel/`, { reason: input.reason });
}

export function useCancelExam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: cancelExam, onSuccess: () => invalidateExams(queryClient) });
}
