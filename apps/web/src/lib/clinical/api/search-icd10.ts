/**
 * GET /api/icd10/?search=: ICD-10 codes by code prefix or words in French or English (labels in the UI
 * language, common codes first). Only categories and codes can be recorded as diagnoses.
 */
import type { TIcd10Entry, TIcd10List } from '@greensen/shared/contracts/icd10';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api-client';
import { uiLanguage } from '../../i18n';

export const ICD10_KEY = ['icd10'] as const;

export function icd10SearchQueryOptions(search: string, language: string) {
  return queryOptions({
    queryKey: [...ICD10_KEY, 'search', language, search] as const,
    queryFn: ({ signal }) => api.get<TIcd10List>('icd10/', { query: { search, page_size: 20 }, signal }),
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
  });
}

/** Diagnosable entries (categories and codes) for a search of at least 2 characters. */
export function useIcd10Search(search: string) {
  const term = search.trim();
  const query = useQuery({ ...icd10SearchQueryOptions(term, uiLanguage()), enabled: term.length >= 2 });
  const results: TIcd10Entry[] =
    term.length >= 2
      ? (query.data?.results ?? []).filter((entry) => entry.kind === 'category' || entry.kind === 'code')
      : [];
  return { ...query, results };
}
