import type { NotificationType } from '@greensen/shared/domain/notifications';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';
import { users } from './people.js';
import { hospitalRef } from './structure.js';

/**
 * The 11 types of `NOTIFICATION_TYPES` (shared), spelled out because drizzle-kit loads the schema as CommonJS
 * and cannot import the shared package; the type checks keep both lists equal (and a test compares them).
 */
export const NOTIFICATION_TYPE_VALUES = [
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
] as const satisfies readonly NotificationType[];
type MissingTypes = Exclude<NotificationType, (typeof NOTIFICATION_TYPE_VALUES)[number]>;
const everyTypeListed: [MissingTypes] extends [never] ? true : MissingTypes = true;
void everyTypeListed;

export const notificationType = pgEnum('notification_type', NOTIFICATION_TYPE_VALUES);

/**
 * One row per recipient. Title and message are stored in the recipient's language at creation time.
 * Deleting is soft (`deleted_at`): the list and counts ignore deleted rows.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id),
    hospitalId: hospitalRef(),
    notificationType: notificationType('notification_type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    /** Free-form context; `action` names what happened (patient_assigned, account_waiting…). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    initiatedBy: uuid('initiated_by').references(() => users.id),
    isRead: boolean('is_read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // The list: a user's notifications in a hospital, newest first (id is v7, so it breaks ties in order).
    index('notifications_recipient_newest_idx')
      .on(t.recipientId, t.hospitalId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} is null`),
    // The unread count and "mark all read".
    index('notifications_recipient_unread_idx')
      .on(t.recipientId, t.hospitalId)
      .where(sql`${t.deletedAt} is null and not ${t.isRead}`),
  ],
);
