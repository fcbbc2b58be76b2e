/** PUT /api/exams/{id}/results/ {results, report, version}: enter or correct the results → completed. */
import type { TExamOrderDetail, TExamResultsBody } from '@greensen/shared/contracts/exams';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { invalidateExams } from '../../../lib/clinical/api/exam-keys';

export function enterResults(input: { id: string; body: TExamResultsBody }): Promise<TExamOrderDetail> {
  return api.put<TExamOrderDetail>(`exams/${input.id}/results/`, input.body);
}

export function useEnterResults() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: enterResults, onSuccess: () => invalidateExams(queryClient) });
}
