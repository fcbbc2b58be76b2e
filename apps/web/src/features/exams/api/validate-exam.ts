/** POST /api/exams/{id}/validate/ {version}: completed → validated; the server notifies the requester. */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateExams } from '../../../lib/clinical/api/exam-keys';

export function validateExam(input: { id: string; version: number }): Promise<TExamOrderDetail> {
  return api.post<TExamOrderDetail>(`exams/${input.id}/validate/`, { version: input.version });
}

export function useValidateExam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: validateExam, onSuccess: () => invalidateExams(queryClient) });
}
