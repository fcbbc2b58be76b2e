/**
 * GET/PATCH /api/hospital/settings/: the current hospital's settings (decision 0021). Every member reads them —
 * the notification sound default comes from there —; its administrators change them on /admin.
 */
import type {
  THospitalSettings,
  THospitalSettingsUpdate,
} from '@greensen/shared/contracts/hospital-settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuthStore } from '../stores/auth';
import { usePreferencesStore } from '../stores/preferences';
import { api } from './api-client';
import { useShellRequestsReleased } from './first-data';

export const hospitalSettingsKey = (hospitalId: string | null) => ['hospital-settings', hospitalId] as const;

export function hospitalSettingsQueryOptions(hospitalId: string | null) {
  return queryOptions({
    queryKey: hospitalSettingsKey(hospitalId),
    queryFn: ({ signal }) => api.get<THospitalSettings>('hospital/settings/', { signal }),
    enabled: hospitalId !== null,
    staleTime: 5 * 60_000,
  });
}

export function useHospitalSettings() {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useQuery(hospitalSettingsQueryOptions(hospitalId));
}

export function useUpdateHospitalSettings() {
  const queryClient = useQueryClient();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return useMutation({
    mutationFn: (change: THospitalSettingsUpdate) =>
      api.patch<THospitalSettings>('hospital/settings/', change),
    onSuccess: (settings) => queryClient.setQueryData(hospitalSettingsKey(hospitalId), settings),
  });
}

/** Keeps the current hospital's notification sound default in the preferences store (signed-in shell). */
export function useHospitalSoundDefault(): void {
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  // After the page's first data (lib/first-data.ts).
  const released = useShellRequestsReleased();
  const options = hospitalSettingsQueryOptions(hospitalId);
  const sound = useQuery({ ...options, enabled: options.enabled !== false && released }).data
    ?.notification_sound;
  useEffect(() => {
    if (sound !== undefined) usePreferencesStore.getState().setHospitalNotificationSound(sound);
  }, [sound]);
}
