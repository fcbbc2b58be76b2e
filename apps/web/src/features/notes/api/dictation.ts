/** Dictation on the server (issue 23): the hospital's switches, transcription of a recording, pending recordings. */
import type {
  TDictationConfig,
  TDictationRecording,
  TDictationResult,
} from '@greensen/shared/contracts/notes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Page } from '../../../lib/notes/api';
import { useAuthStore } from '../../../stores/auth';

const KEY = ['dictation'] as const;

export function useDictationConfig() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...KEY, hospitalId, 'config'] as const,
    queryFn: ({ signal }) => api.get<TDictationConfig>('dictation/config/', { signal }),
    enabled: Boolean(hospitalId),
  });
}

export function useRecordings(page: number, pageSize: number) {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery({
    queryKey: [...KEY, hospitalId, 'recordings', page, pageSize] as const,
    queryFn: ({ signal }) =>
      api.get<Page<TDictationRecording>>('dictation/recordings/', {
        query: { page: String(page), page_size: String(pageSize) },
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled: Boolean(hospitalId),
  });
}

export function useMarkTyped() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<TDictationRecording>(`dictation/recordings/${id}/typed/`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useTranscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { audio: Blob; language: string; patient: string | null; context?: string }) => {
      const form = new FormData();
      form.set('language', input.language.startsWith('en') ? 'en' : 'fr');
      if (input.patient) form.set('patient', input.patient);
      if (input.context) form.set('context', input.context);
      const ext = input.audio.type.includes('mp4')
        ? 'm4a'
        : input.audio.type.includes('ogg')
          ? 'ogg'
          : 'webm';
      form.set('audio', input.audio, `dictee.${ext}`);
      return api.post<TDictationResult>('dictation/transcriptions/', form);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}
