/** Query keys of exams: every write on an order refreshes the lists, the alerts and the detail that show it. */
import type { QueryClient } from '@tanstack/react-query';

export const EXAMS_KEY = ['exams'] as const;
export const EXAM_CATALOGUE_KEY = ['exam-catalogue'] as const;

export function invalidateExams(queryClient: QueryClient): Promise<unknown> {
  return queryClient.invalidateQueries({ queryKey: EXAMS_KEY });
}
