/**
 * Notification types, their presentation, sound and the dashboard refresh flags they raise
 * (specification §3, §4 and §9).
 */
import { normalizeAppPath, pathIsUnder } from './modules.js';

/** The notification types, in the specification's order. */
export const NOTIFICATION_TYPES = [
  'consultation',
  'hospitalization',
  'transfer',
  'bed_assignment',
  'execution_assigned',
  'execution_reassigned',
  'execution_scheduled',
  'appointment',
  'schedule',
  'service',
  'other',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The notification list keeps at most this many entries. */
export const NOTIFICATION_LIST_CAP = 500;
/** Each further page adds at most this many new entries. */
export const NOTIFICATION_PAGE_ADD_CAP = 200;
/** Notification toasts last this long. */
export const NOTIFICATION_TOAST_MS = 5000;
/** Other toasts last this long by default. */
export const TOAST_DEFAULT_MS = 3000;
/** Volume of /notification.mp3. */
export const NOTIFICATION_SOUND_VOLUME = 0.4;

/** `data.action` of a consultation notification sent when a patient is assigned. */
export const PATIENT_ASSIGNED_ACTION = 'patient_assigned';

/** The parts of a notification these rules read. */
export interface NotificationLike {
  readonly notification_type: string;
  readonly data?: { readonly action?: string | null } | null;
  readonly initiated_by?: string | number | null;
}

export function isNotificationType(value: unknown): value is NotificationType {
  return typeof value === 'string' && (NOTIFICATION_TYPES as readonly string[]).includes(value);
}

function isPatientAssigned(notification: NotificationLike): boolean {
  return (
    notification.notification_type === 'consultation' && notification.data?.action === PATIENT_ASSIGNED_ACTION
  );
}

const EXECUTION_TYPES: readonly string[] = [
  'execution_assigned',
  'execution_reassigned',
  'execution_scheduled',
];

/** The sound plays for execution_assigned, execution_reassigned and consultation patient_assigned. */
export function shouldPlaySound(notification: NotificationLike): boolean {
  return (
    notification.notification_type === 'execution_assigned' ||
    notification.notification_type === 'execution_reassigned' ||
    isPatientAssigned(notification)
  );
}

export interface NotificationStyle {
  /** Name of a `@tabler/icons-react` component. */
  readonly icon: string;
  /** Name of a Mantine theme colour. */
  readonly color: string;
}

export const DEFAULT_NOTIFICATION_STYLE: NotificationStyle = { icon: 'IconBell', color: 'gray' };

/**
 * Icon and colour per type. The specification names transfer purple, bed_assignment emerald,
 * execution_reassigned amber and execution_scheduled indigo: Mantine has no purple, emerald or amber, so the
 * web theme adds them as colours of their own (apps/web/src/lib/theme.ts).
 */
export const NOTIFICATION_STYLE: Readonly<Record<NotificationType, NotificationStyle>> = {
  consultation: { icon: 'IconStethoscope', color: 'blue' },
  hospitalization: { icon: 'IconBed', color: 'cyan' },
  transfer: { icon: 'IconTransfer', color: 'purple' },
  bed_assignment: { icon: 'IconBedFlat', color: 'emerald' },
  execution_assigned: { icon: 'IconUserCheck', color: 'green' },
  execution_reassigned: { icon: 'IconUserShare', color: 'amber' },
  execution_scheduled: { icon: 'IconCalendarTime', color: 'indigo' },
  appointment: { icon: 'IconCalendarEvent', color: 'pink' },
  schedule: { icon: 'IconClock', color: 'lime' },
  service: { icon: 'IconBuildingHospital', color: 'orange' },
  other: DEFAULT_NOTIFICATION_STYLE,
};

/** Style of a type; an unknown type gets the gray bell. */
export function notificationStyle(type: string): NotificationStyle {
  return isNotificationType(type) ? NOTIFICATION_STYLE[type] : DEFAULT_NOTIFICATION_STYLE;
}

/** The persisted refresh flags. */
export const REFRESH_FLAGS = ['hospitalization', 'transfer', 'bed_assignment', 'dashboard'] as const;
export type RefreshFlag = (typeof REFRESH_FLAGS)[number];

const HOSPITALIZATION_FLAG_TYPES: readonly string[] = ['hospitalization', 'transfer', 'bed_assignment'];

function isHome(path: string): boolean {
  return path === '/' || pathIsUnder(path, '/dashboard');
}

/**
 * The refresh flags a received notification raises on the current page (§4):
 * - none when the current user initiated the event;
 * - dashboard, on home ('/' or '/dashboard') for a consultation with action patient_assigned;
 * - dashboard, on home, /dashboard, /exams… or /doctors… for execution_assigned, _reassigned, _scheduled;
 * - hospitalization, transfer or bed_assignment (the notification's own type) on a /hospitalizations… page.
 * The '/en' prefix, query and trailing slash of the pathname are ignored.
 */
export function refreshFlagsFor(input: {
  notification: NotificationLike;
  pathname: string;
  currentUserId?: string | number | null;
}): RefreshFlag[] {
  const { notification, currentUserId } = input;
  const initiator = notification.initiated_by;
  if (
    initiator !== undefined &&
    initiator !== null &&
    currentUserId !== undefined &&
    currentUserId !== null &&
    String(initiator) === String(currentUserId)
  ) {
    return [];
  }
  const path = normalizeAppPath(input.pathname);
  const type = notification.notification_type;
  const flags: RefreshFlag[] = [];
  // The hospitalizations pages, and the list of transfers (the transfer resource of the same module, §2).
  if (
    (pathIsUnder(path, '/hospitalizations') || pathIsUnder(path, '/transfers')) &&
    HOSPITALIZATION_FLAG_TYPES.includes(type)
  ) {
    flags.push(type as RefreshFlag);
  }
  const dashboardForAssignment = isPatientAssigned(notification) && isHome(path);
  const dashboardForExecution =
    EXECUTION_TYPES.includes(type) &&
    (isHome(path) || pathIsUnder(path, '/exams') || pathIsUnder(path, '/doctors'));
  if (dashboardForAssignment || dashboardForExecution) flags.push('dashboard');
  return flags;
}
