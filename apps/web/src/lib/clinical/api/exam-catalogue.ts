/** GET /api/exams/catalogue/?search=&kind=: the exam catalogue (search in French, English or by code). */
import type { TCatalogueExam } from '@greensen/shared/contracts/exams';
import type { ExamKind } from '@greensen/shared/domain/exams';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api-client';
import { EXAM_CATALOGUE_KEY } from './exam-keys';
import type { Page } from './list-admissions';

export interface CatalogueParams {
  search?: string;
  kind?: ExamKind | null;
  pageSize?: number;
}

export function catalogueQueryOptions(params: CatalogueParams) {
  return queryOptions({
    queryKey: [...EXAM_CATALOGUE_KEY, params] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TCatalogueExam>>('exams/catalogue/', {
        query: {
          search: params.search?.trim() || undefined,
          kind: params.kind || undefined,
          page_size: params.pageSize ?? 50,
        },
        signal,
        // Not a detail path: never the not-found page (the API client would read 'catalogue' as an exam id).
        notFoundRedirect: false,
      }),
    placeholderData: keepPreviousData,
    // The catalogue changes with a new version of the product only.
    staleTime: 10 * 60_000,
  });
}

export function useExamCatalogue(params: CatalogueParams, enabled = true) {
  return useQuery({ ...catalogueQueryOptions(params), enabled });
}
