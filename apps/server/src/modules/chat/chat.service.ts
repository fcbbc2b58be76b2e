import { randomUUID } from 'node:crypto';
import {
  CHAT_EDIT_WINDOW_MS,
  type TChatConversationCreate,
  type TChatConversationDetail,
  type TChatMessage,
  type TChatMessageCreate,
} from '@greensen/shared/contracts/chat';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { patientInHospital } from '../patients/patients.repository.js';
import {
  activeMembers,
  audiencePeople,
  type BareConversation,
  blankMessage,
  conversationAudience,
  deleteMember,
  directConversationId,
  editMessageBody,
  ensureChannels,
  findMessage,
  findVisibleConversation,
  insertDirectConversation,
  insertGroupConversation,
  insertMembers,
  insertMessage,
  insertSystemMessage,
  isMessageOf,
  listConversations,
  type MessageRow,
  markReadUpTo,
  messagesPage,
  messageTimeIn,
  receipts,
  roleCodesOf,
  searchMessages,
  staffOf,
  toIsoOrNull,
  unreadTotal,
} from './chat.repository.js';
import { decodeCursor, encodeCursor, mayReadPatientCard, toConversation, toMessage } from './chat.views.js';
import { ChatAttachmentsService } from './chat-attachments.service.js';

/** Messaging: conversations, messages, read positions; events pushed through the real-time gateway. */
export class ChatService {
  private readonly attachments: ChatAttachmentsService;

  constructor(private readonly app: FastifyInstance) {
    this.attachments = new ChatAttachmentsService(app);
  }

  private get env() {
    return { environment: this.app.config.appEnv, extraModules: this.app.config.extraModules ?? [] };
  }

  private readerMayReadCard(ctx: ServiceContext) {
    return mayReadPatientCard(scopedHospital(ctx).roleCodes, this.env);
  }

  async visible(ctx: ServiceContext, id: string): Promise<BareConversation> {
    const c = await findVisibleConversation(this.app.db, actingUser(ctx).id, scopedHospital(ctx).id, id);
    // Another hospital's conversation, or one the caller is not a member of, is exactly like a missing one.
    if (!c) throw notFound();
    return c;
  }

  /** A group's members are managed by its creator and by the hospital's administrators who are members. */
  private managesMembers(ctx: ServiceContext, c: BareConversation) {
    return (
      c.kind === 'group' &&
      (c.created_by === actingUser(ctx).id || scopedHospital(ctx).groups.includes('admin'))
    );
  }

  /** A group the caller sees, else 404; a direct conversation or a department channel has no members to change. */
  private async group(ctx: ServiceContext, id: string) {
    const c = await this.visible(ctx, id);
    if (c.kind !== 'group') throw conflict('chat.not_group');
    return c;
  }

  /** Adds people of the hospital to a group (those already in it are left as they are): a system message each. */
  async addMembers(ctx: ServiceContext, id: string, users: readonly string[]) {
    const c = await this.group(ctx, id);
    if (!this.managesMembers(ctx, c)) throw forbidden('chat.not_manager');
    const hospital = scopedHospital(ctx);
    const wanted = [...new Set(users)];
    const found = await activeMembers(this.app.db, hospital.id, wanted);
    if (found.length !== wanted.length) throw badRequest({ users: ['chat.member_unknown'] });
    const events = await this.app.db.transaction(async (tx) => {
      const added = await insertMembers(tx, hospital.id, c.id, wanted);
      const ids: string[] = [];
      for (const userId of added) ids.push(await this.systemMessage(tx, ctx, c, 'member_added', userId));
      return ids;
    });
    for (const messageId of events) await this.publishById(c, messageId);
  }

  /**
   * Removes a member from a group (its creator or an administrator), or the caller leaves it. The person loses
   * access at once (every read and push asks `chat_members`); they get the system message that says so.
   */
  async removeMember(ctx: ServiceContext, id: string, userId: string) {
    const c = await this.group(ctx, id);
    const me = actingUser(ctx).id;
    if (userId !== me && !this.managesMembers(ctx, c)) throw forbidden('chat.not_manager');
    const messageId = await this.app.db.transaction(async (tx) => {
      if (!(await deleteMember(tx, c.id, userId))) throw notFound();
      return this.systemMessage(tx, ctx, c, userId === me ? 'member_left' : 'member_removed', userId);
    });
    await this.publishById(c, messageId, [userId]);
  }

  /** Writes a system message of a group (and its audit row); its id. */
  private async systemMessage(
    tx: Queryable,
    ctx: ServiceContext,
    c: BareConversation,
    event: 'member_added' | 'member_removed' | 'member_left',
    userId: string,
  ) {
    const id = randomUUID();
    const now = new Date();
    await insertSystemMessage(tx, {
      id,
      hospitalId: c.hospital_id,
      conversationId: c.id,
      authorId: actingUser(ctx).id,
      event,
      eventUserId: userId,
      createdAt: now,
    });
    await this.app.audit.record(
      ctx,
      {
        action: `chat.member.${event === 'member_added' ? 'add' : event === 'member_left' ? 'leave' : 'remove'}`,
        resourceType: 'chat_conversation',
        resourceId: c.id,
        details: { user: userId, message: id },
      },
      tx,
    );
    return id;
  }

  private async publishById(c: BareConversation, messageId: string, alsoTo: readonly string[] = []) {
    const row = await findMessage(this.app.db, c.hospital_id, messageId);
    if (row) await this.publish(c, row, 'chat.message.created', alsoTo);
  }

  async list(ctx: ServiceContext, query: { page: number; page_size: number; search?: string | undefined }) {
    const user = actingUser(ctx);
    const hospital = scopedHospital(ctx);
    await ensureChannels(this.app.db, hospital.id);
    const [rows, total] = await Promise.all([
      listConversations(this.app.db, {
        userId: user.id,
        hospitalId: hospital.id,
        search: query.search || undefined,
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      }),
      unreadTotal(this.app.db, user.id, hospital.id),
    ]);
    return { count: Number(rows[0]?.total ?? 0), rows: rows.map(toConversation), unreadTotal: total };
  }

  async unread(ctx: ServiceContext) {
    return { unread_total: await unreadTotal(this.app.db, actingUser(ctx).id, scopedHospital(ctx).id) };
  }

  async detail(ctx: ServiceContext, id: string): Promise<TChatConversationDetail> {
    const c = await this.visible(ctx, id);
    const user = actingUser(ctx);
    const [rows, people, reads] = await Promise.all([
      listConversations(this.app.db, {
        userId: user.id,
        hospitalId: scopedHospital(ctx).id,
        id: c.id,
        limit: 1,
        offset: 0,
      }),
      audiencePeople(this.app.db, c),
      receipts(this.app.db, c.id),
    ]);
    const audience = new Set(people.map((p) => p.id));
    return {
      ...toConversation(rows[0]!),
      created_by: c.kind === 'group' ? c.created_by : null,
      can: { manage_members: this.managesMembers(ctx, c), leave: c.kind === 'group' },
      members: people.map((p) => ({ id: p.id, full_name: p.full_name })),
      receipts: reads
        .filter((r) => audience.has(r.user_id))
        .map((r) => ({
          user: { id: r.user_id, full_name: r.full_name },
          last_read_message: r.last_read_message_id,
          last_read_at: toIsoOrNull(r.last_read_at),
        })),
    };
  }

  async create(
    ctx: ServiceContext,
    input: TChatConversationCreate,
  ): Promise<{ id: string; created: boolean }> {
    const user = actingUser(ctx);
    const hospital = scopedHospital(ctx);
    const wanted = input.kind === 'direct' ? [input.user] : input.members;
    const others = [...new Set(wanted.filter((id) => id !== user.id))];
    if (others.length === 0)
      throw badRequest({ [input.kind === 'direct' ? 'user' : 'members']: ['chat.members_required'] });
    const found = await activeMembers(this.app.db, hospital.id, others);
    if (found.length !== others.length) {
      // A person of another hospital (or nobody) is refused like an unknown one.
      throw badRequest({ [input.kind === 'direct' ? 'user' : 'members']: ['chat.member_unknown'] });
    }
    return this.app.db.transaction(async (tx) => {
      let id: string;
      let created = true;
      if (input.kind === 'direct') {
        const [low, high] = [user.id, others[0]!].sort() as [string, string];
        const inserted = await insertDirectConversation(tx, {
          hospitalId: hospital.id,
          low,
          high,
          createdBy: user.id,
        });
        if (inserted) id = inserted;
        else {
          // The pair already talks (or another request made it a moment ago): that conversation.
          created = false;
          id = await directConversationId(tx, hospital.id, low, high);
        }
      } else {
        id = await insertGroupConversation(tx, {
          hospitalId: hospital.id,
          title: input.title,
          createdBy: user.id,
        });
      }
      await insertMembers(tx, hospital.id, id, [user.id, ...others]);
      if (created) {
        await this.app.audit.record(
          ctx,
          {
            action: 'chat.conversation.create',
            resourceType: 'chat_conversation',
            resourceId: id,
            details: { kind: input.kind, members: others.length + 1 },
          },
          tx,
        );
      }
      return { id, created };
    });
  }

  async messages(ctx: ServiceContext, id: string, query: { cursor?: string | undefined; limit: number }) {
    const c = await this.visible(ctx, id);
    const before = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await messagesPage(this.app.db, { conversationId: c.id, before, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const card = this.readerMayReadCard(ctx);
    return {
      results: page.map((r) => toMessage(r, card)),
      next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
    };
  }

  /** Sends a message; the same client id sent again answers the stored message (`created: false`). */
  async send(
    ctx: ServiceContext,
    conversationId: string,
    input: TChatMessageCreate,
    file?: { name: string | undefined; bytes: Buffer },
  ): Promise<{ message: TChatMessage; created: boolean }> {
    const user = actingUser(ctx);
    const hospital = scopedHospital(ctx);
    const c = await this.visible(ctx, conversationId);
    const fields: Record<string, string[]> = {};
    if (input.reply_to) {
      if (!(await isMessageOf(this.app.db, c.id, input.reply_to))) fields.reply_to = ['chat.reply_unknown'];
    }
    if (input.patient) {
      if (!(await patientInHospital(this.app.db, hospital.id, input.patient)))
        fields.patient = ['chat.patient_unknown'];
    }
    if (Object.keys(fields).length > 0) throw badRequest(fields);
    const attachment = file ? await this.attachments.checked(ctx, input.id, file) : null;
    // Who will be told, read beside the write (it does not depend on it): the push follows the commit at once.
    const audience = conversationAudience(this.app.db, c);
    // Awaited in `publish`; a failed write must not leave it an unhandled rejection.
    audience.catch(() => {});

    const inserted = await this.app.db.transaction(async (tx) => {
      const row = await insertMessage(tx, {
        id: input.id,
        hospitalId: hospital.id,
        conversationId: c.id,
        authorId: user.id,
        body: input.body,
        replyToId: input.reply_to ?? null,
        patientId: input.patient ?? null,
        createdAt: new Date(),
        attachment: attachment && {
          name: attachment.columns.attachmentName,
          type: attachment.columns.attachmentType,
          size: attachment.columns.attachmentSize,
          sha256: attachment.columns.attachmentSha256,
          key: attachment.columns.attachmentKey,
        },
      });
      if (!row) return null;
      // Written before the commit (a failed write rolls the message back); never again for a repeated id.
      if (attachment) await this.app.files.put(attachment.columns.attachmentKey, attachment.bytes, tx);
      await this.app.audit.record(
        ctx,
        {
          action: 'chat.message.create',
          resourceType: 'chat_message',
          resourceId: input.id,
          patientId: input.patient ?? null,
          details: {
            conversation: c.id,
            ...(attachment
              ? { attachment: attachment.columns.attachmentType, size: attachment.columns.attachmentSize }
              : {}),
          },
        },
        tx,
      );
      return row;
    });
    if (inserted) {
      await this.publish(c, inserted, 'chat.message.created', [], audience);
      return { message: toMessage(inserted, this.readerMayReadCard(ctx)), created: true };
    }
    const row = await findMessage(this.app.db, hospital.id, input.id);
    if (!row || row.conversation_id !== c.id || row.author_id !== user.id) {
      // The id is another message's (another conversation, author or hospital): never theirs to overwrite.
      throw conflict('chat.message_id_taken');
    }
    return { message: toMessage(row, this.readerMayReadCard(ctx)), created: false };
  }

  private async ownMessage(ctx: ServiceContext, id: string) {
    const user = actingUser(ctx);
    const hospital = scopedHospital(ctx);
    const row = await findMessage(this.app.db, hospital.id, id);
    if (!row) throw notFound();
    const c = await findVisibleConversation(this.app.db, user.id, hospital.id, row.conversation_id);
    if (!c) throw notFound();
    if (row.author_id !== user.id || row.event !== null) throw forbidden('chat.not_author');
    if (row.deleted_at !== null) throw conflict('chat.message_deleted');
    return { row, c };
  }

  async edit(ctx: ServiceContext, id: string, body: string): Promise<TChatMessage> {
    const { row, c } = await this.ownMessage(ctx, id);
    if (Date.now() - new Date(row.created_at).getTime() > CHAT_EDIT_WINDOW_MS)
      throw conflict('chat.edit_window');
    await this.app.db.transaction(async (tx) => {
      await editMessageBody(tx, row.id, body);
      await this.app.audit.record(
        ctx,
        {
          action: 'chat.message.edit',
          resourceType: 'chat_message',
          resourceId: row.id,
          details: { conversation: c.id },
        },
        tx,
      );
    });
    const updated = (await findMessage(this.app.db, c.hospital_id, row.id))!;
    await this.publish(c, updated, 'chat.message.updated');
    return toMessage(updated, this.readerMayReadCard(ctx));
  }

  async remove(ctx: ServiceContext, id: string): Promise<void> {
    const { row, c } = await this.ownMessage(ctx, id);
    await this.app.db.transaction(async (tx) => {
      await blankMessage(tx, row.id);
      await this.app.audit.record(
        ctx,
        {
          action: 'chat.message.delete',
          resourceType: 'chat_message',
          resourceId: row.id,
          details: { conversation: c.id },
        },
        tx,
      );
    });
    const updated = (await findMessage(this.app.db, c.hospital_id, row.id))!;
    await this.publish(c, updated, 'chat.message.updated');
  }

  /** Moves the caller's read position forward to `messageId` (never back) and tells the members. */
  async read(ctx: ServiceContext, conversationId: string, messageId: string) {
    const user = actingUser(ctx);
    const hospital = scopedHospital(ctx);
    const c = await this.visible(ctx, conversationId);
    const at = await messageTimeIn(this.app.db, c.id, messageId);
    if (!at) throw badRequest({ message: ['chat.message_unknown'] });
    const moved = await markReadUpTo(this.app.db, {
      conversationId: c.id,
      userId: user.id,
      hospitalId: hospital.id,
      messageId,
      at,
    });
    const unread = await unreadTotal(this.app.db, user.id, hospital.id);
    if (moved) {
      const audience = await conversationAudience(this.app.db, c);
      await this.app.realtime.sendToUsers(
        audience.map((userId) => ({
          userId,
          envelope: {
            action: 'chat.read',
            hospital: hospital.id,
            message: {
              conversation: c.id,
              user: user.id,
              last_read_message: messageId,
              last_read_at: at.toISOString(),
            },
          },
        })),
      );
    }
    return { unread_total: unread };
  }

  async search(ctx: ServiceContext, query: { search: string; page: number; page_size: number }) {
    const { rows, total } = await searchMessages(this.app.db, {
      userId: actingUser(ctx).id,
      hospitalId: scopedHospital(ctx).id,
      term: query.search,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    });
    const card = this.readerMayReadCard(ctx);
    return {
      count: total,
      rows: rows.map((r) => ({ ...toMessage(r, card), conversation_title: r.conversation_title ?? '' })),
    };
  }

  async staff(ctx: ServiceContext, query: { search?: string | undefined; page: number; page_size: number }) {
    return staffOf(this.app.db, {
      userId: actingUser(ctx).id,
      hospitalId: scopedHospital(ctx).id,
      search: query.search || undefined,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    });
  }

  /**
   * Pushes a new or changed message to everyone who sees the conversation, each with the patient card they may
   * see (resolved per reader now, as a read would). Never throws.
   */
  private async publish(
    c: BareConversation,
    row: MessageRow,
    action: 'chat.message.created' | 'chat.message.updated',
    alsoTo: readonly string[] = [],
    /** The conversation's audience when already being read. */
    audienceRead?: Promise<string[]>,
  ) {
    try {
      const members = await (audienceRead ?? conversationAudience(this.app.db, c));
      const audience = [...new Set([...members, ...alsoTo])];
      const roles = row.p_id
        ? await roleCodesOf(this.app.db, c.hospital_id, audience)
        : new Map<string, string[]>();
      await this.app.realtime.sendToUsers(
        audience.map((userId) => ({
          userId,
          envelope: {
            action,
            hospital: c.hospital_id,
            message: toMessage(row, row.p_id ? mayReadPatientCard(roles.get(userId) ?? [], this.env) : false),
          },
        })),
      );
    } catch (err) {
      this.app.log.error({ err }, 'chat push failed');
    }
  }
}
