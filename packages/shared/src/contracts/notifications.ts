/**
 * Notification API and socket contracts (specification §3, §7; DESIGN §4).
 */
import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../domain/notifications.js';
import type { TChatSocketEnvelope } from './chat.js';

/** Default and largest page sizes of the notification list. */
export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_MAX_PAGE_SIZE = 100;

export const ZNotificationStatus = z.enum(['all', 'unread', 'read']);
export type TNotificationStatus = z.infer<typeof ZNotificationStatus>;

/** A notification as listed and as pushed on the socket. */
export const ZNotification = z.object({
  id: z.uuid(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  message: z.string(),
  /** Context of the event; `action` names what happened (patient_assigned, account_waiting…). */
  data: z.record(z.string(), z.unknown()),
  initiated_by: z.uuid().nullable(),
  is_read: z.boolean(),
  read_at: z.iso.datetime({ offset: true }).nullable(),
  created_at: z.iso.datetime({ offset: true }),
  /** The hospital the notification belongs to. */
  hospital: z.uuid(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(NOTIFICATION_MAX_PAGE_SIZE).default(NOTIFICATION_PAGE_SIZE),
  status: ZNotificationStatus.default('all'),
});
export type TNotificationListQuery = z.input<typeof ZNotificationListQuery>;

export const ZNotificationList = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(ZNotification),
  /** Unread notifications of the user in the current hospital, whatever the status filter. */
  unread_count: z.number().int(),
});
export type TNotificationList = z.infer<typeof ZNotificationList>;

/** Absent (or null) `notification_ids` marks every notification of the current hospital read. */
export const ZMarkReadBody = z.object({ notification_ids: z.array(z.uuid()).max(1000).nullish() });
export type TMarkReadBody = z.infer<typeof ZMarkReadBody>;

export const ZMarkReadResult = z.object({ updated: z.number().int(), unread_count: z.number().int() });
export type TMarkReadResult = z.infer<typeof ZMarkReadResult>;

export const ZWsTicket = z.object({ ticket: z.string(), expires_in: z.number().int() });
export type TWsTicket = z.infer<typeof ZWsTicket>;

/** Close code of the socket when its token or ticket is not valid (or the user was signed out). */
export const WS_CLOSE_INVALID_TOKEN = 4401;

/** Messages of the notification socket: `{action, message}` plus the hospital they belong to. */
export type TSocketEnvelope =
  | { action: 'new_notification'; hospital: string; message: TNotification }
  | {
      action: 'mark_read';
      hospital: string;
      /** null: every notification of the hospital. */
      message: { ids: string[] | null; unread_count: number };
    }
  | { action: 'delete_notification'; hospital: string; message: { id: string; unread_count: number } }
  /** Messaging (issue 23): new and changed messages, read receipts. */
  | TChatSocketEnvelope;

export type TSocketAction = TSocketEnvelope['action'];
