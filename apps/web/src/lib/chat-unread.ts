/**
 * The messaging's unread total (issue 23) for the navigation's badge: read from /api/chat/unread/ and read again
 * whenever the socket brings a chat event of the current hospital.
 */
import type { TSocketEnvelope } from '@greensen/shared/contracts/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuthStore } from '../stores/auth';
import { api } from './api-client';
import { useShellRequestsReleased } from './first-data';
import { notificationSocket } from './socket';

export const chatKeys = {
  all: ['chat'] as const,
  unread: (hospital: string | null) => ['chat', 'unread', hospital] as const,
};

export const isChatEvent = (e: TSocketEnvelope) => e.action.startsWith('chat.');

export function useChatUnread(enabled = true): number {
  const hospital = useAuthStore((s) => s.currentHospitalId);
  const queryClient = useQueryClient();
  // After the page's first data (lib/first-data.ts).
  const released = useShellRequestsReleased();
  const query = useQuery({
    queryKey: chatKeys.unread(hospital),
    queryFn: () => api.get<{ unread_total: number }>('chat/unread/', { silent: true }),
    enabled: enabled && released && !!hospital,
    staleTime: 30_000,
  });
  useEffect(() => {
    if (!enabled) return;
    return notificationSocket.subscribe((e) => {
      if (isChatEvent(e) && e.hospital === hospital)
        void queryClient.invalidateQueries({ queryKey: chatKeys.unread(hospital) });
    });
  }, [enabled, hospital, queryClient]);
  return query.data?.unread_total ?? 0;
}
