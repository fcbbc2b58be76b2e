/**
 * Notes (issue 23), shared by the /notes page and the patient record's "Notes" tab: personal notes (list, create,
 * change, delete) and a patient's notes (list, create, change, delete by their author).
 */
import type { TNote, TNoteCreate, TNoteUpdate } from '@greensen/shared/contracts/notes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuthStore } from '../../stores/auth';
import { api } from '../api-client';

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export const NOTES_KEY = ['notes'] as const;

export interface NoteFilters {
  search?: string | null;
  tag?: string | null;
  pinned?: boolean;
  page: number;
  pageSize: number;
}

const queryOf = (f: NoteFilters) => ({
  search: f.search || undefined,
  tag: f.tag || undefined,
  pinned: f.pinned ? 'true' : undefined,
  page: String(f.page),
  page_size: String(f.pageSize),
});

/** The caller's personal notes (`patient` null) or a patient's notes. */
export function useNotes(patient: string | null, filters: NoteFilters, enabled = true) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...NOTES_KEY, hospitalId, patient ?? 'personal', filters] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TNote>>(patient ? `patients/${patient}/notes/` : 'notes/', {
        query: queryOf(filters),
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: enabled && Boolean(hospitalId),
  });
}

/** Creates, changes and deletes notes (personal when `patient` is null); every change refreshes the lists. */
export function useNoteMutations(patient: string | null) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: NOTES_KEY });
  const base = patient ? 'patient-notes' : 'notes';
  return {
    create: useMutation({
      mutationFn: (body: TNoteCreate) =>
        api.post<TNote>(patient ? `patients/${patient}/notes/` : 'notes/', body),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: TNoteUpdate & { id: string }) => api.patch<TNote>(`${base}/${id}/`, body),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.post<TNote>(`${base}/${id}/delete/`),
      onSuccess,
    }),
  };
}
