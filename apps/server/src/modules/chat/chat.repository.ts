import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { chatConversations, chatMembers, chatMessages } from '../../db/schema/index.js';
import { iso, isoRequired } from '../../lib/clinical.js';
import { containsPattern } from '../../lib/queries.js';

/**
 * Queries of the messaging module (issue 23, decision 0033). Every query is scoped to one hospital and, for
 * conversations, to the conversations the user may see: the members of a direct or group conversation, the
 * staff of a department (active memberships) for its channel.
 */

/** The conversation `c` is the user's, in the hospital. */
export const visibleTo = (userId: string, hospitalId: string): SQL =>
  sql`c.hospital_id = ${hospitalId} and (
    (c.kind <> 'department' and exists (select 1 from chat_members mm
      where mm.conversation_id = c.id and mm.user_id = ${userId}))
    or (c.kind = 'department' and exists (select 1 from memberships ms
      where ms.user_id = ${userId} and ms.hospital_id = ${hospitalId} and ms.is_active
        and ms.department_id = c.department_id)))`;

/** Creates the channel of every active department of the hospital that has none yet (lazily, idempotent). */
export async function ensureChannels(q: Queryable, hospitalId: string): Promise<void> {
  await q.execute(sql`insert into chat_conversations (id, hospital_id, kind, department_id)
    select gen_random_uuid(), d.hospital_id, 'department', d.id from departments d
    where d.hospital_id = ${hospitalId} and d.is_active
      and not exists (select 1 from chat_conversations x where x.department_id = d.id)
    on conflict do nothing`);
}

export type ConversationRow = {
  id: string;
  kind: 'direct' | 'group' | 'department';
  title: string | null;
  department_id: string | null;
  last_message_at: Date | string;
  unread: number | string;
  lm_body: string | null;
  lm_created_at: Date | string | null;
  lm_deleted_at: Date | string | null;
  lm_author: string | null;
  total: number | string;
};

const unreadOf = (userId: string) => sql`(select count(*) from chat_messages x
  where x.conversation_id = c.id and x.author_id <> ${userId} and x.deleted_at is null and x.event is null
    and (m.last_read_at is null or (x.created_at, x.id) > (m.last_read_at, m.last_read_message_id)))`;

/** The user's conversations (newest activity first) with their unread counts and last message. */
export async function listConversations(
  q: Queryable,
  o: {
    userId: string;
    hospitalId: string;
    search?: string | undefined;
    id?: string;
    limit: number;
    offset: number;
  },
): Promise<ConversationRow[]> {
  const pattern = o.search ? containsPattern(o.search) : null;
  const res = await q.execute<ConversationRow>(sql`select t.*, count(*) over () as total from (
      select c.id, c.kind, c.department_id, c.last_message_at,
        case when c.kind = 'group' then c.title when c.kind = 'department' then d.name
          else (select trim(u.first_name || ' ' || u.last_name) from users u
            where u.id = case when c.direct_low = ${o.userId} then c.direct_high else c.direct_low end) end as title,
        ${unreadOf(o.userId)}::int as unread,
        lm.body as lm_body, lm.created_at as lm_created_at, lm.deleted_at as lm_deleted_at, lm.author as lm_author
      from chat_conversations c
      left join departments d on d.id = c.department_id
      left join chat_members m on m.conversation_id = c.id and m.user_id = ${o.userId}
      left join lateral (select x.body, x.created_at, x.deleted_at, trim(au.first_name || ' ' || au.last_name) as author
        from chat_messages x join users au on au.id = x.author_id
        where x.conversation_id = c.id order by x.created_at desc, x.id desc limit 1) lm on true
      where ${visibleTo(o.userId, o.hospitalId)} ${o.id ? sql`and c.id = ${o.id}` : sql``}
    ) t
    where ${pattern === null ? sql`true` : sql`t.title ilike ${pattern}`}
    order by t.last_message_at desc, t.id desc
    limit ${o.limit} offset ${o.offset}`);
  return res.rows;
}

/** Unread messages of the user in every conversation of the hospital. */
export async function unreadTotal(q: Queryable, userId: string, hospitalId: string): Promise<number> {
  const res = await q.execute<{
    n: number | string | null;
  }>(sql`select coalesce(sum(${unreadOf(userId)}), 0)::int as n
    from chat_conversations c
    left join chat_members m on m.conversation_id = c.id and m.user_id = ${userId}
    where ${visibleTo(userId, hospitalId)}`);
  return Number(res.rows[0]?.n ?? 0);
}

export type BareConversation = {
  id: string;
  kind: 'direct' | 'group' | 'department';
  department_id: string | null;
  hospital_id: string;
  created_by: string | null;
};

/** The conversation when the user may see it, else null (another hospital's, or not a member: not found). */
export async function findVisibleConversation(
  q: Queryable,
  userId: string,
  hospitalId: string,
  id: string,
): Promise<BareConversation | null> {
  const res =
    await q.execute<BareConversation>(sql`select c.id, c.kind, c.department_id, c.hospital_id, c.created_by
    from chat_conversations c where c.id = ${id} and ${visibleTo(userId, hospitalId)}`);
  return res.rows[0] ?? null;
}

/** The users who see a conversation (its members, or its department's active staff). */
export async function conversationAudience(q: Queryable, c: BareConversation): Promise<string[]> {
  const res =
    c.kind === 'department'
      ? await q.execute<{ id: string }>(sql`select distinct ms.user_id as id from memberships ms
          join users u on u.id = ms.user_id
          where ms.hospital_id = ${c.hospital_id} and ms.department_id = ${c.department_id}
            and ms.is_active and u.is_active`)
      : await q.execute<{ id: string }>(
          sql`select user_id as id from chat_members where conversation_id = ${c.id}`,
        );
  return res.rows.map((r) => r.id);
}

export type PersonRow = {
  id: string;
  full_name: string;
};

export async function audiencePeople(q: Queryable, c: BareConversation): Promise<PersonRow[]> {
  const ids = await conversationAudience(q, c);
  if (ids.length === 0) return [];
  const res =
    await q.execute<PersonRow>(sql`select u.id, trim(u.first_name || ' ' || u.last_name) as full_name
    from users u where u.id = any(${`{${ids.join(',')}}`}::uuid[]) order by u.last_name, u.first_name, u.id`);
  return res.rows;
}

export type ReceiptRow = {
  user_id: string;
  full_name: string;
  last_read_message_id: string | null;
  last_read_at: Date | string | null;
};

export async function receipts(q: Queryable, conversationId: string): Promise<ReceiptRow[]> {
  const res =
    await q.execute<ReceiptRow>(sql`select m.user_id, trim(u.first_name || ' ' || u.last_name) as full_name,
      m.last_read_message_id, m.last_read_at
    from chat_members m join users u on u.id = m.user_id where m.conversation_id = ${conversationId}
    order by u.last_name, u.first_name, u.id`);
  return res.rows;
}

export type MessageRow = {
  id: string;
  conversation_id: string;
  hospital_id: string;
  author_id: string;
  author_name: string;
  body: string;
  created_at: Date | string;
  edited_at: Date | string | null;
  deleted_at: Date | string | null;
  r_id: string | null;
  r_body: string | null;
  r_deleted_at: Date | string | null;
  r_author: string | null;
  p_id: string | null;
  p_hospital_id: string | null;
  p_first_name: string | null;
  p_last_name: string | null;
  p_record_number: string | null;
  event: 'member_added' | 'member_removed' | 'member_left' | null;
  e_id: string | null;
  e_name: string | null;
  attachment_name: string | null;
  attachment_type: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic' | 'application/pdf' | null;
  attachment_size: number | null;
  attachment_key: string | null;
  conversation_title?: string | null;
};

const MESSAGE_COLUMNS = sql`x.id, x.conversation_id, x.hospital_id, x.author_id,
  trim(au.first_name || ' ' || au.last_name) as author_name, x.body, x.created_at, x.edited_at, x.deleted_at,
  r.id as r_id, r.body as r_body, r.deleted_at as r_deleted_at, trim(ru.first_name || ' ' || ru.last_name) as r_author,
  p.id as p_id, p.hospital_id as p_hospital_id, p.first_name as p_first_name, p.last_name as p_last_name,
  p.record_number as p_record_number, x.event, eu.id as e_id, trim(eu.first_name || ' ' || eu.last_name) as e_name,
  x.attachment_name, x.attachment_type, x.attachment_size, x.attachment_key`;
const MESSAGE_JOINS = sql`join users au on au.id = x.author_id
  left join chat_messages r on r.id = x.reply_to_id and r.conversation_id = x.conversation_id
  left join users ru on ru.id = r.author_id
  left join patients p on p.id = x.patient_id and p.hospital_id = x.hospital_id
  left join users eu on eu.id = x.event_user_id`;

/**
 * A read position moved forward only (a later message, or the same instant and a later id): the `on conflict`
 * of an insert into `chat_members` whose values are the reader's new position.
 */
export const READ_FORWARD = sql`on conflict (conversation_id, user_id) do update
      set last_read_message_id = excluded.last_read_message_id, last_read_at = excluded.last_read_at
      where chat_members.last_read_at is null
        or (excluded.last_read_at, excluded.last_read_message_id) > (chat_members.last_read_at, chat_members.last_read_message_id)`;

export interface NewMessage {
  id: string;
  hospitalId: string;
  conversationId: string;
  authorId: string;
  body: string;
  replyToId: string | null;
  patientId: string | null;
  createdAt: Date;
  attachment: {
    name: string;
    type: string;
    size: number;
    sha256: string;
    key: string;
  } | null;
}

/**
 * Writes a new message in one statement: the message, the conversation's last activity, the author's read
 * position (they have read their own message), and its row as `findMessage` reads it. Null when the id exists
 * already: nothing is written then. One round trip instead of four: they are the delay before the push.
 */
export async function insertMessage(q: Queryable, m: NewMessage): Promise<MessageRow | null> {
  const at = m.createdAt.toISOString();
  const a = m.attachment;
  const res = await q.execute<MessageRow>(sql`with x as (
      insert into chat_messages (id, hospital_id, conversation_id, author_id, body, reply_to_id, patient_id,
        created_at, attachment_name, attachment_type, attachment_size, attachment_sha256, attachment_key)
      values (${m.id}, ${m.hospitalId}, ${m.conversationId}, ${m.authorId}, ${m.body}, ${m.replyToId},
        ${m.patientId}, ${at}::timestamptz, ${a?.name ?? null}, ${a?.type ?? null}, ${a?.size ?? null},
        ${a?.sha256 ?? null}, ${a?.key ?? null})
      on conflict do nothing
      returning *
    ), activity as (
      update chat_conversations set last_message_at = greatest(last_message_at, ${at}::timestamptz)
      where id = ${m.conversationId} and exists (select 1 from x)
    ), own_read as (
      insert into chat_members (conversation_id, user_id, hospital_id, last_read_message_id, last_read_at)
      select conversation_id, author_id, hospital_id, id, created_at from x
      ${READ_FORWARD}
    )
    select ${MESSAGE_COLUMNS} from x ${MESSAGE_JOINS}`);
  return res.rows[0] ?? null;
}

/** A page of a conversation's messages, newest first, before the cursor `(created_at, id)` when given. */
export async function messagesPage(
  q: Queryable,
  o: { conversationId: string; before: { at: string; id: string } | null; limit: number },
): Promise<MessageRow[]> {
  const res = await q.execute<MessageRow>(sql`select ${MESSAGE_COLUMNS} from chat_messages x ${MESSAGE_JOINS}
    where x.conversation_id = ${o.conversationId}
      ${o.before ? sql`and (x.created_at, x.id) < (${o.before.at}::timestamptz, ${o.before.id}::uuid)` : sql``}
    order by x.created_at desc, x.id desc limit ${o.limit}`);
  return res.rows;
}

export async function findMessage(q: Queryable, hospitalId: string, id: string): Promise<MessageRow | null> {
  const res = await q.execute<MessageRow>(sql`select ${MESSAGE_COLUMNS} from chat_messages x ${MESSAGE_JOINS}
    where x.id = ${id} and x.hospital_id = ${hospitalId}`);
  return res.rows[0] ?? null;
}

/** Messages of the user's conversations whose text contains `term` (case-insensitive), newest first. */
export async function searchMessages(
  q: Queryable,
  o: { userId: string; hospitalId: string; term: string; limit: number; offset: number },
): Promise<{ rows: MessageRow[]; total: number }> {
  const pattern = containsPattern(o.term);
  const res = await q.execute<MessageRow & { total: number | string }>(sql`select ${MESSAGE_COLUMNS},
      coalesce(c.title, d.name, '') as conversation_title, c.kind as conversation_kind, count(*) over () as total
    from chat_messages x ${MESSAGE_JOINS}
    join chat_conversations c on c.id = x.conversation_id
    left join departments d on d.id = c.department_id
    where x.hospital_id = ${o.hospitalId} and x.deleted_at is null and x.body ilike ${pattern}
      and ${visibleTo(o.userId, o.hospitalId)}
    order by x.created_at desc, x.id desc limit ${o.limit} offset ${o.offset}`);
  return { rows: res.rows, total: Number(res.rows[0]?.total ?? 0) };
}

/** Active staff of the hospital (the picker of a new conversation), except the caller. */
export async function staffOf(
  q: Queryable,
  o: { userId: string; hospitalId: string; search?: string | undefined; limit: number; offset: number },
): Promise<{ rows: PersonRow[]; total: number }> {
  const pattern = o.search ? containsPattern(o.search) : null;
  const res = await q.execute<PersonRow & { total: number | string }>(sql`select u.id,
      trim(u.first_name || ' ' || u.last_name) as full_name, count(*) over () as total
    from users u
    where u.is_active and u.id <> ${o.userId}
      and exists (select 1 from memberships ms where ms.user_id = u.id and ms.hospital_id = ${o.hospitalId} and ms.is_active)
      ${pattern === null ? sql`` : sql`and (u.first_name || ' ' || u.last_name) ilike ${pattern}`}
    order by u.last_name, u.first_name, u.id limit ${o.limit} offset ${o.offset}`);
  return { rows: res.rows, total: Number(res.rows[0]?.total ?? 0) };
}

/** The users among `ids` who are active members of the hospital. */
export async function activeMembers(
  q: Queryable,
  hospitalId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const res = await q.execute<{ id: string }>(sql`select distinct ms.user_id as id from memberships ms
    join users u on u.id = ms.user_id
    where ms.hospital_id = ${hospitalId} and ms.is_active and u.is_active
      and ms.user_id = any(${`{${ids.join(',')}}`}::uuid[])`);
  return res.rows.map((r) => r.id);
}

/** Role codes of each user in the hospital (active memberships). */
export async function roleCodesOf(
  q: Queryable,
  hospitalId: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const res = await q.execute<{
    user_id: string;
    role_code: string;
  }>(sql`select user_id, role_code from memberships
    where hospital_id = ${hospitalId} and is_active and user_id = any(${`{${ids.join(',')}}`}::uuid[])`);
  for (const r of res.rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.role_code]);
  return out;
}

export const toIso = (v: Date | string) => isoRequired(v);
export const toIsoOrNull = (v: Date | string | null | undefined) => iso(v);

// Conversations, members and messages: writes ------------------------------------------------------------------

/** Opens the direct conversation of a pair (`low` < `high`): its id, or null when the pair already has one. */
export async function insertDirectConversation(
  q: Queryable,
  c: { hospitalId: string; low: string; high: string; createdBy: string },
): Promise<string | null> {
  const inserted = await q
    .insert(chatConversations)
    .values({
      hospitalId: c.hospitalId,
      kind: 'direct',
      directLow: c.low,
      directHigh: c.high,
      createdBy: c.createdBy,
    })
    .onConflictDoNothing()
    .returning({ id: chatConversations.id });
  return inserted[0]?.id ?? null;
}

/** The direct conversation of a pair (`low` < `high`) in the hospital (it exists). */
export async function directConversationId(q: Queryable, hospitalId: string, low: string, high: string) {
  const res = await q.execute<{ id: string }>(sql`select id from chat_conversations
    where hospital_id = ${hospitalId} and direct_low = ${low} and direct_high = ${high}`);
  return res.rows[0]!.id;
}

export async function insertGroupConversation(
  q: Queryable,
  c: { hospitalId: string; title: string; createdBy: string },
): Promise<string> {
  const [row] = await q
    .insert(chatConversations)
    .values({ hospitalId: c.hospitalId, kind: 'group', title: c.title, createdBy: c.createdBy })
    .returning({ id: chatConversations.id });
  return row!.id;
}

/** Adds people to a conversation (those already in it are left as they are): the ones added. */
export async function insertMembers(
  q: Queryable,
  hospitalId: string,
  conversationId: string,
  userIds: readonly string[],
): Promise<string[]> {
  const added = await q
    .insert(chatMembers)
    .values(userIds.map((userId) => ({ conversationId, userId, hospitalId })))
    .onConflictDoNothing()
    .returning({ userId: chatMembers.userId });
  return added.map((r) => r.userId);
}

/** Removes a member from a conversation: whether they were one. */
export async function deleteMember(q: Queryable, conversationId: string, userId: string) {
  const gone = await q.execute<{ user_id: string }>(sql`delete from chat_members
    where conversation_id = ${conversationId} and user_id = ${userId} returning user_id`);
  return gone.rows[0] !== undefined;
}

/** Writes a system message of a group (a member added, removed or gone) and the conversation's last activity. */
export async function insertSystemMessage(
  q: Queryable,
  m: {
    id: string;
    hospitalId: string;
    conversationId: string;
    authorId: string;
    event: 'member_added' | 'member_removed' | 'member_left';
    eventUserId: string;
    createdAt: Date;
  },
) {
  await q.insert(chatMessages).values({
    id: m.id,
    hospitalId: m.hospitalId,
    conversationId: m.conversationId,
    authorId: m.authorId,
    body: '',
    event: m.event,
    eventUserId: m.eventUserId,
    createdAt: m.createdAt,
  });
  await q.execute(sql`update chat_conversations set last_message_at = greatest(last_message_at, ${m.createdAt.toISOString()}::timestamptz)
    where id = ${m.conversationId}`);
}

/** When a message of the conversation was written, or null when it is not one of its messages. */
export async function messageTimeIn(q: Queryable, conversationId: string, messageId: string) {
  const res = await q.execute<{
    created_at: Date | string;
  }>(sql`select created_at from chat_messages
    where id = ${messageId} and conversation_id = ${conversationId}`);
  return res.rows[0] ? new Date(res.rows[0].created_at) : null;
}

/** Whether a message is one of the conversation's. */
export async function isMessageOf(q: Queryable, conversationId: string, messageId: string) {
  const res = await q.execute<{ id: string }>(sql`select id from chat_messages
    where id = ${messageId} and conversation_id = ${conversationId}`);
  return res.rows[0] !== undefined;
}

export async function editMessageBody(q: Queryable, id: string, body: string) {
  await q.execute(sql`update chat_messages set body = ${body}, edited_at = now() where id = ${id}`);
}

/** Deletes a message: its text goes, the row stays (replies and read positions keep their anchor). */
export async function blankMessage(q: Queryable, id: string) {
  await q.execute(sql`update chat_messages set body = '', deleted_at = now() where id = ${id}`);
}

/** Moves a read position forward (inserting the reader's row for a department channel). Whether it moved. */
export async function markReadUpTo(
  q: Queryable,
  o: { conversationId: string; userId: string; hospitalId: string; messageId: string; at: Date },
): Promise<boolean> {
  const res = await q.execute<{ user_id: string }>(sql`insert into chat_members
      (conversation_id, user_id, hospital_id, last_read_message_id, last_read_at)
    values (${o.conversationId}, ${o.userId}, ${o.hospitalId}, ${o.messageId}, ${o.at.toISOString()}::timestamptz)
    ${READ_FORWARD}
    returning user_id`);
  return res.rows.length > 0;
}
