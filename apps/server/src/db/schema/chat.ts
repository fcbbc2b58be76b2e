import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { patients } from './clinical.js';
import { createdAt, id } from './common.js';
import { users } from './people.js';
import { departments, hospitalRef, hospitals } from './structure.js';

/** Longest message body, in characters (checked by the contract and by the database). */
export const CHAT_BODY_MAX = 4000;

export const chatConversationKind = pgEnum('chat_conversation_kind', ['direct', 'group', 'department']);

/**
 * A conversation of one hospital (issue 23, decision 0033): `direct` between two staff members (one per pair and
 * hospital: `direct_low`/`direct_high` are the two user ids in order, unique per hospital), `group` (named, its
 * members in `chat_members`) or `department` (one per department; its members are the department's staff,
 * derived from the memberships at every read).
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: id(),
    hospitalId: hospitalRef(),
    kind: chatConversationKind('kind').notNull(),
    title: text('title'),
    departmentId: uuid('department_id').references(() => departments.id),
    directLow: uuid('direct_low').references(() => users.id),
    directHigh: uuid('direct_high').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    /** The last message's time (the list's order); the creation time before any message. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One direct conversation per pair of staff members and hospital (NULLs of the other kinds never collide).
    uniqueIndex('chat_conversations_direct_uq').on(t.hospitalId, t.directLow, t.directHigh),
    // One channel per department.
    uniqueIndex('chat_conversations_department_uq').on(t.departmentId),
    index('chat_conversations_hospital_recent_idx').on(t.hospitalId, t.lastMessageAt.desc()),
    check(
      'chat_conversations_kind_ck',
      sql`(${t.kind} = 'direct' and ${t.directLow} is not null and ${t.directHigh} is not null and ${t.directLow} < ${t.directHigh} and ${t.departmentId} is null)
        or (${t.kind} = 'group' and ${t.title} is not null and ${t.directLow} is null and ${t.departmentId} is null)
        or (${t.kind} = 'department' and ${t.departmentId} is not null and ${t.directLow} is null)`,
    ),
  ],
);

/**
 * Members of direct and group conversations (their access), and the read position of every reader (department
 * channels included: a channel's row only keeps the read position, access comes from the memberships).
 */
export const chatMembers = pgTable(
  'chat_members',
  {
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    hospitalId: hospitalRef(),
    lastReadMessageId: uuid('last_read_message_id'),
    /** The `created_at` of the last read message (unread = later messages of others). */
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
    joinedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index('chat_members_user_idx').on(t.userId, t.hospitalId),
  ],
);

/** What a system message of a group says happened (decision 0042): its author did it to `event_user`. */
export const CHAT_EVENTS = ['member_added', 'member_removed', 'member_left'] as const;

/** The types an attachment may have: those of patient documents (decision 0023), recognised by content. */
export const CHAT_ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
] as const;

/**
 * Messages. The id is made by the client (an offline message is sent again with the same id: one row). The body
 * is plain text; a deleted message keeps its row (`deleted_at`) and loses its body. A system message (`event`,
 * decision 0042) says who was added to or removed from a group, or left it: the body is empty, the web writes
 * the sentence in the reader's language. An attachment (a file kept in the file storage, decision 0042) is
 * described by the `attachment_*` columns, all set or all empty.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey(),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    replyToId: uuid('reply_to_id'),
    patientId: uuid('patient_id').references(() => patients.id),
    createdAt: createdAt(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    event: text('event'),
    eventUserId: uuid('event_user_id').references(() => users.id),
    attachmentName: text('attachment_name'),
    attachmentType: text('attachment_type'),
    attachmentSize: integer('attachment_size'),
    attachmentSha256: text('attachment_sha256'),
    attachmentKey: text('attachment_key'),
  },
  (t) => [
    index('chat_messages_conversation_newest_idx').on(
      t.conversationId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('chat_messages_body_trgm_idx')
      .using('gin', sql`${t.body} gin_trgm_ops`)
      .where(sql`${t.deletedAt} is null`),
    check('chat_messages_body_len_ck', sql`char_length(${t.body}) <= ${sql.raw(String(CHAT_BODY_MAX))}`),
    check(
      'chat_messages_event_ck',
      sql`(${t.event} is null and ${t.eventUserId} is null)
        or (${t.event} in (${sql.raw(CHAT_EVENTS.map((e) => `'${e}'`).join(', '))}) and ${t.eventUserId} is not null and ${t.body} = '')`,
    ),
    check(
      'chat_messages_attachment_ck',
      sql`(${t.attachmentKey} is null and ${t.attachmentName} is null and ${t.attachmentType} is null and ${t.attachmentSize} is null and ${t.attachmentSha256} is null)
        or (${t.attachmentKey} is not null and ${t.attachmentName} is not null and ${t.attachmentSize} is not null and ${t.attachmentSha256} is not null
          and ${t.attachmentType} in (${sql.raw(CHAT_ATTACHMENT_TYPES.map((e) => `'${e}'`).join(', '))}))`,
    ),
  ],
);
