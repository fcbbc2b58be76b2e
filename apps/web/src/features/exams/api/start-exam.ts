/** POST /api/exams/{id}/start/ {version}: requested → in_progress (the performing department). */
import type { TExamOrderDetail } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateExams } from '../../../lib/clinical/api/exam-keys';

export function startExam(input: { id: string; version: number }): Promise<TExamOrderDetail> {
  return api.post<TExamOrderDetail>(`exams/${input.id}/start/`, { version: input.version });
}

export function useStartExam() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: startExam, onSuccess: () => invalidateExams(queryClient) });
}
