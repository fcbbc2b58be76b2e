/** POST /api/exams/{id}/acknowledge/: the requesting doctor has seen the validated result. */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api-client';
import { invalidateExams } from './exam-keys';

export function acknowledgeExam(id: string): Promise<TExamOrderDetail> {
  return api.post<TExamOrderDetail>(`exams/${id}/acknowledge/`);
}

export function useAcknowledgeExam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acknowledgeExam, onSuccess: () => invalidateExams(queryClient) });
}
