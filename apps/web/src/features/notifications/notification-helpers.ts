/** Presentation and side effects of a notification: icon, where it leads, its sound. */
import type { TNotification } from '@greensen/shared/contracts/notifications';
import { NOTIFICATION_SOUND_VOLUME, notificationStyle } from '@greensen/shared/domain/notifications';
import {
  IconBed,
  IconBedFlat,
  IconBell,
  IconBuildingHospital,
  IconCalendarEvent,
  IconCalendarTime,
  IconClock,
  IconStethoscope,
  IconTransfer,
  IconUserCheck,
  IconUserShare,
  type TablerIcon,
} from '@tabler/icons-react';

/** The Tabler icons named by the shared `NOTIFICATION_STYLE` (only those, so the bundle stays small). */
const ICONS: Record<string, TablerIcon> = {
  IconBed,
  IconBedFlat,
  IconBell,
  IconBuildingHospital,
  IconCalendarEvent,
  IconCalendarTime,
  IconClock,
  IconStethoscope,
  IconTransfer,
  IconUserCheck,
  IconUserShare,
};

/** Icon component and Mantine colour of a notification type (unknown types: gray bell). */
export function notificationVisual(type: string): { Icon: TablerIcon; color: string } {
  const style = notificationStyle(type);
  return { Icon: ICONS[style.icon] ?? IconBell, color: style.color };
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value.trim()) return encodeURIComponent(value.trim());
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * The app path a notification is about (unprefixed): a signed prescription to dispense, else a care plan's file
 * (a care task assigned, reassigned or scheduled, a NEWS2 escalation: `data.plan_id`), else its admission, else
 * its patient, else the hospitalizations list for a hospitalization; null when it leads nowhere.
 */
export function notificationTarget(
  notification: Pick<TNotification, 'notification_type' | 'data'>,
): string | null {
  const data = notification.data ?? {};
  const prescription = idOf(data.prescription_id);
  if (prescription) return `/pharmacy/prescriptions/${prescription}`;
  const plan = idOf(data.plan_id);
  if (plan) return `/care/${plan}`;
  const admission = idOf(data.admission_id);
  if (admission) return `/admissions/${admission}`;
  const patient = idOf(data.patient_id);
  if (patient) return `/patients/${patient}`;
  if (notification.notification_type === 'hospitalization') return '/hospitalizations';
  return null;
}

export const NOTIFICATION_SOUND_URL = '/notification.mp3';

/** Plays the notification chime at volume 0.4; a refused autoplay is only logged. */
export function playNotificationSound(): void {
  const logRefusal = (error: unknown) =>
    console.info('[notifications] sound not played:', error instanceof Error ? error.name : error);
  try {
    const audio = new Audio(NOTIFICATION_SOUND_URL);
    audio.volume = NOTIFICATION_SOUND_VOLUME;
    const playing = audio.play();
    if (playing && typeof playing.catch === 'function') playing.catch(logRefusal);
  } catch (error) {
    logRefusal(error);
  }
}
