/**
 * Messaging contracts (issue 23, docs/decisions/0033-chat.md): conversations, messages, read receipts and the
 * socket events of the chat (carried by the notification socket).
 */
import { z } from 'zod';
import { ZPageQuery, zPage, zSearch } from './common.js';

/** Longest message body (characters); the database checks it too. */
export const CHAT_BODY_MAX = 4000;
/** A message may be edited by its author this long after it was sent. */
export const CHAT_EDIT_WINDOW_MS = 5 * 60_000;
export const CHAT_MESSAGES_PAGE = 30;

export const ZChatKind = z.enum(['direct', 'group', 'department']);
export type TChatKind = z.infer<typeof ZChatKind>;

export const ZChatPerson = z.object({ id: z.uuid(), full_name: z.string() });
export type TChatPerson = z.infer<typeof ZChatPerson>;

/**
 * The patient a message refers to, resolved for each reader when read: the record's name, number and link for a
 * reader who may read it, only `{restricted: true}` for the others.
 */
export const ZChatPatientCard = z.union([
  z.object({ restricted: z.literal(false), id: z.uuid(), full_name: z.string(), record_number: z.string() }),
  z.object({ restricted: z.literal(true) }),
]);
export type TChatPatientCard = z.infer<typeof ZChatPatientCard>;

/** What a system message says happened (decision 0042): its author added, removed `user`, or `user` left. */
export const ZChatEvent = z.enum(['member_added', 'member_removed', 'member_left']);
export type TChatEvent = z.infer<typeof ZChatEvent>;

/** Types of a chat attachment: those of patient documents, recognised by their first bytes (decision 0023). */
export const ZChatAttachmentType = z.enum([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
]);

export const ZChatAttachment = z.object({
  name: z.string(),
  content_type: ZChatAttachmentType,
  size_bytes: z.number().int(),
  /** Whether a browser shows it (PDF and images but HEIC): the web previews images only. */
  viewable: z.boolean(),
});
export type TChatAttachment = z.infer<typeof ZChatAttachment>;

export const ZChatMessage = z.object({
  id: z.uuid(),
  conversation: z.uuid(),
  author: ZChatPerson,
  /** Empty once deleted. */
  body: z.string(),
  reply_to: z
    .object({ id: z.uuid(), author: z.string(), excerpt: z.string(), deleted: z.boolean() })
    .nullable(),
  patient: ZChatPatientCard.nullable(),
  /** A system message (the body is empty; the web writes the sentence). */
  system: z.object({ event: ZChatEvent, user: ZChatPerson }).nullable(),
  /** The attached file (`GET /api/chat/messages/{id}/attachment/`); null once the message is deleted. */
  attachment: ZChatAttachment.nullable(),
  created_at: z.iso.datetime({ offset: true }),
  edited_at: z.iso.datetime({ offset: true }).nullable(),
  deleted_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

export const ZChatConversation = z.object({
  id: z.uuid(),
  kind: ZChatKind,
  /** The group's name, the department's name, or the other person's name for a direct conversation. */
  title: z.string(),
  department: z.uuid().nullable(),
  unread_count: z.number().int(),
  last_message: z
    .object({ author: z.string(), excerpt: z.string(), created_at: z.iso.datetime({ offset: true }) })
    .nullable(),
  last_message_at: z.iso.datetime({ offset: true }),
});
export type TChatConversation = z.infer<typeof ZChatConversation>;

export const ZChatReceipt = z.object({
  user: ZChatPerson,
  last_read_message: z.uuid().nullable(),
  last_read_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TChatReceipt = z.infer<typeof ZChatReceipt>;

export const ZChatConversationDetail = ZChatConversation.extend({
  members: z.array(ZChatPerson),
  /** Who read up to where (the caller included). */
  receipts: z.array(ZChatReceipt),
  /** A group's creator (null for other kinds). */
  created_by: z.uuid().nullable(),
  /** What the caller may do with the members: manage them (a group's creator or an administrator), leave. */
  can: z.object({ manage_members: z.boolean(), leave: z.boolean() }),
});
export type TChatConversationDetail = z.infer<typeof ZChatConversationDetail>;

export const ZChatConversationList = zPage(ZChatConversation).extend({ unread_total: z.number().int() });
export type TChatConversationList = z.infer<typeof ZChatConversationList>;

export const ZChatConversationQuery = ZPageQuery.extend({ ...zSearch() });

export const ZChatConversationCreate = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('direct'), user: z.uuid() }),
  z.strictObject({
    kind: z.literal('group'),
    title: z.string().trim().min(1).max(120),
    members: z.array(z.uuid()).min(1).max(100),
  }),
]);
export type TChatConversationCreate = z.infer<typeof ZChatConversationCreate>;

export const ZChatMessagesQuery = z.object({
  /** The `next_cursor` of the previous page (older messages). */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(CHAT_MESSAGES_PAGE),
});
export const ZChatMessagePage = z.object({
  results: z.array(ZChatMessage),
  next_cursor: z.string().nullable(),
});
export type TChatMessagePage = z.infer<typeof ZChatMessagePage>;

const ZBody = z.string().trim().min(1).max(CHAT_BODY_MAX);

export const ZChatMessageCreate = z.strictObject({
  /** Made by the client: sending the same id again (after a lost answer, from the offline queue) is one message. */
  id: z.uuid(),
  body: ZBody,
  reply_to: z.uuid().nullish(),
  patient: z.uuid().nullish(),
});
export type TChatMessageCreate = z.infer<typeof ZChatMessageCreate>;

/** Fields of the multipart attachment upload (the `file` part aside): a client-made id and an optional caption. */
export const ZChatAttachmentFields = z.strictObject({
  id: z.uuid(),
  body: z.string().trim().max(CHAT_BODY_MAX).optional(),
});

export const ZChatMembersAdd = z.strictObject({ users: z.array(z.uuid()).min(1).max(100) });

export const ZChatMemberParams = z.object({ id: z.uuid(), user: z.uuid() });

export const ZChatMessageEdit = z.strictObject({ body: ZBody });

export const ZChatReadBody = z.strictObject({ message: z.uuid() });

export const ZChatUnread = z.object({ unread_total: z.number().int() });

export const ZChatSearchQuery = ZPageQuery.extend({ ...zSearch({ min: 2, required: true }) });
export const ZChatSearchResult = zPage(ZChatMessage.extend({ conversation_title: z.string() }));
export type TChatSearchResult = z.infer<typeof ZChatSearchResult>;

export const ZChatStaffQuery = ZPageQuery.extend({ ...zSearch() });
export const ZChatStaffList = zPage(ZChatPerson);
export type TChatStaffList = z.infer<typeof ZChatStaffList>;

/** Socket events of the chat (hospital-scoped envelopes of the notification socket). */
export type TChatSocketEnvelope =
  | { action: 'chat.message.created'; hospital: string; message: TChatMessage }
  | { action: 'chat.message.updated'; hospital: string; message: TChatMessage }
  | {
      action: 'chat.read';
      hospital: string;
      message: { conversation: string; user: string; last_read_message: string; last_read_at: string };
    };
