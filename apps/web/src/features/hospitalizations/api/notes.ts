/**
 * A stay's progress notes, newest first, each with its addenda (GET /api/hospitalizations/{id}/notes/), and
 * writing one or an addendum to one (POST, same path: signed when written).
 */
import type { TProgressNote } from '@greensen/shared/contracts/hospitalizations';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/clinical/api/list-admissions';
import { useAuthStore } from '../../../stores/auth';
import { HOSPITALIZATIONS_KEY } from './keys';

export function notesQueryOptions(hospitalId: string | null, stay: string, page: number) {
  return queryOptions({
    queryKey: [...HOSPITALIZATIONS_KEY, hospitalId, 'notes', stay, page] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TProgressNote>>(`hospitalizations/${stay}/notes/`, { query: { page }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useProgressNotes(stay: string, page: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(notesQueryOptions(hospitalId, stay, page));
}

export function useWriteNote(stay: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { text: string; addendum_of?: string | null }) =>
      api.post<TProgressNote>(`hospitalizations/${stay}/notes/`, body),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: HOSPITALIZATIONS_KEY,
        predicate: (query) => query.queryKey[2] === 'notes' && query.queryKey[3] === stay,
      }),
  });
}
