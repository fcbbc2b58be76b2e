/**
 * Wires the notification socket to the notification list (specification §4, §9):
 * - keeps the socket connected while signed in, loads the list of the current hospital (again after a
 *   reconnection, to catch up on what was missed);
 * - a new notification goes to the list, shows a toast for 5000 ms, plays the sound when the rules say so and
 *   the user did not turn it off, and raises the refresh flags of the current page (not when the current
 *   user initiated it);
 * - mark_read and delete_notification from the user's other devices update the list.
 * Events of another hospital than the current one are ignored (that hospital's list loads when selected).
 */
import type { TNotification, TSocketEnvelope } from '@greensen/shared/contracts/notifications';
import { isExamValidatedNotification } from '@greensen/shared/domain/exam-notifications';
import {
  NOTIFICATION_TOAST_MS,
  refreshFlagsFor,
  shouldPlaySound,
} from '@greensen/shared/domain/notifications';
import { createElement, useEffect } from 'react';
import { invalidateCare, isCareTaskNotification } from '../../lib/clinical/api/care-keys';
import { invalidateExams } from '../../lib/clinical/api/exam-keys';
import { useShellRequestsReleased } from '../../lib/first-data';
import { currentPathname } from '../../lib/navigation';
import { queryClient } from '../../lib/query-client';
import { notificationSocket } from '../../lib/socket';
import { toast } from '../../lib/toast';
import { useAuthStore } from '../../stores/auth';
import { useNotificationsStore } from '../../stores/notifications';
import { notificationSoundOn, usePreferencesStore } from '../../stores/preferences';
import { useRefreshFlagsStore } from '../../stores/refresh-flags';
import { useUserStore } from '../../stores/user';
import { notificationVisual, playNotificationSound } from './notification-helpers';

function showNotificationToast(notification: TNotification) {
  const { Icon, color } = notificationVisual(notification.notification_type);
  toast({
    id: `notification-${notification.id}`,
    title: notification.title,
    description: notification.message || undefined,
    color,
    icon: createElement(Icon, { size: 18 }),
    duration: NOTIFICATION_TOAST_MS,
  });
}

/** Applies one socket message to the app. */
export function handleSocketEnvelope(envelope: TSocketEnvelope): void {
  const hospitalId = useAuthStore.getState().currentHospitalId;
  if (!hospitalId || (envelope.hospital && envelope.hospital !== hospitalId)) return;
  const store = useNotificationsStore.getState();
  switch (envelope.action) {
    case 'new_notification': {
      const notification = envelope.message;
      if (store.notifications.some((n) => n.id === notification.id)) return;
      store.addNotification(notification);
      showNotificationToast(notification);
      if (shouldPlaySound(notification) && notificationSoundOn(usePreferencesStore.getState())) {
        playNotificationSound();
      }
      const flags = refreshFlagsFor({
        notification,
        pathname: currentPathname(),
        currentUserId: useUserStore.getState().user?.id ?? null,
      });
      const { raise } = useRefreshFlagsStore.getState();
      for (const flag of flags) raise(flag);
      // Validated results: the exam lists, the consultation's exams and the dashboard's alerts refresh.
      if (isExamValidatedNotification(notification)) void invalidateExams(queryClient);
      // A care task assigned, reassigned or scheduled: the care pages and the nurse dashboard show it at once
      // (on the dashboard the `dashboard` flag above does the same, as §4 says).
      if (isCareTaskNotification(notification)) void invalidateCare(queryClient);
      return;
    }
    case 'mark_read':
      store.applyMarkRead(envelope.message.ids, envelope.message.unread_count);
      return;
    case 'delete_notification':
      store.applyDelete(envelope.message.id, envelope.message.unread_count);
      return;
  }
}

/** Mount once in the signed-in layout (the notification bell does). */
export function useNotificationStream(): void {
  const signedIn = useAuthStore((s) => s.access !== null);
  const hospitalId = useAuthStore((s) => s.currentHospitalId);
  // The list after the page's first data (lib/first-data.ts); the socket connects at once.
  const released = useShellRequestsReleased();

  useEffect(() => {
    let opens = 0;
    const offMessage = notificationSocket.subscribe(handleSocketEnvelope);
    const offOpen = notificationSocket.onOpen(() => {
      opens += 1;
      // The first connection follows the initial load; later ones catch up on what was missed.
      if (opens > 1 && useAuthStore.getState().currentHospitalId) {
        void useNotificationsStore.getState().fetchNotifications();
      }
    });
    notificationSocket.start();
    return () => {
      offMessage();
      offOpen();
      notificationSocket.stop();
    };
  }, []);

  useEffect(() => {
    const store = useNotificationsStore.getState();
    store.reset();
    if (signedIn && hospitalId && released) void store.fetchNotifications();
  }, [signedIn, hospitalId, released]);
}
