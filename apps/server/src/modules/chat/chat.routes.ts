import {
  ZChatAttachmentFields,
  ZChatConversationCreate,
  ZChatConversationDetail,
  ZChatConversationList,
  ZChatConversationQuery,
  ZChatMemberParams,
  ZChatMembersAdd,
  ZChatMessage,
  ZChatMessageCreate,
  ZChatMessageEdit,
  ZChatMessagePage,
  ZChatMessagesQuery,
  ZChatReadBody,
  ZChatSearchQuery,
  ZChatSearchResult,
  ZChatStaffList,
  ZChatStaffQuery,
  ZChatUnread,
} from '@greensen/shared/contracts/chat';
import { ZIdParams } from '@greensen/shared/contracts/common';
import { ZFileQuery } from '@greensen/shared/contracts/documents';
import { UPLOAD_MAX_MB_MAX } from '@greensen/shared/contracts/hospital-settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { readUpload, registerUploads, sendFile } from '../../lib/uploads.js';
import { fileTooLarge } from '../documents/patient-documents.service.js';
import { ChatService } from './chat.service.js';
import { ChatAttachmentsService } from './chat-attachments.service.js';

defineMessages({
  'chat.members_required': {
    fr: 'Choisissez au moins une autre personne.',
    en: 'Choose at least one other person.',
  },
  'chat.member_unknown': {
    fr: 'Cette personne n’est pas membre du personnel de cet hôpital.',
    en: 'This person is not a staff member of this hospital.',
  },
  'chat.reply_unknown': {
    fr: 'Le message auquel vous répondez n’existe pas dans cette conversation.',
    en: 'The message you reply to is not in this conversation.',
  },
  'chat.patient_unknown': {
    fr: 'Ce patient n’existe pas dans cet hôpital.',
    en: 'This patient does not exist in this hospital.',
  },
  'chat.message_unknown': {
    fr: 'Ce message n’existe pas dans cette conversation.',
    en: 'This message is not in this conversation.',
  },
  'chat.message_id_taken': {
    fr: 'Cet identifiant de message est déjà utilisé.',
    en: 'This message id is already used.',
  },
  'chat.not_author': {
    fr: 'Seul l’auteur peut modifier ou supprimer ce message.',
    en: 'Only the author may edit or delete this message.',
  },
  'chat.message_deleted': { fr: 'Ce message a été supprimé.', en: 'This message was deleted.' },
  'chat.edit_window': {
    fr: 'Un message ne peut être modifié que dans les 5 minutes qui suivent son envoi.',
    en: 'A message can only be edited within 5 minutes of sending it.',
  },
  'chat.cursor_invalid': { fr: 'Curseur de pagination invalide.', en: 'Invalid pagination cursor.' },
  'chat.not_group': {
    fr: 'Seuls les membres d’un groupe changent : une conversation directe est à deux, un canal suit les affectations du service.',
    en: 'Only a group’s members change: a direct conversation is between two people, a channel follows the department’s staff.',
  },
  'chat.not_manager': {
    fr: 'Seuls le créateur du groupe et les administrateurs gèrent ses membres.',
    en: 'Only the group’s creator and administrators manage its members.',
  },
});

const ACCESS = { access: { scope: 'hospital', module: 'chat', roles: 'any' } } as const;

/** Messaging (issue 23, docs/decisions/0033-chat.md). */
export async function chatRoutes(app: FastifyInstance) {
  const service = new ChatService(app);
  const attachments = new ChatAttachmentsService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['chat'];

  r.get(
    '/api/chat/conversations/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          "The caller's conversations in the hospital (department channels included), latest activity first",
        querystring: ZChatConversationQuery,
        response: { 200: ZChatConversationList },
      },
    },
    async (request) => {
      const result = await service.list(contextOf(request), request.query);
      return {
        ...pageOf(request, request.query, result.count, result.rows),
        unread_total: result.unreadTotal,
      };
    },
  );

  r.post(
    '/api/chat/conversations/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Start a direct conversation (the existing one of the pair is answered, 200) or a group',
        body: ZChatConversationCreate,
        response: { 200: ZChatConversationDetail, 201: ZChatConversationDetail },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { id, created } = await service.create(ctx, request.body);
      return reply.status(created ? 201 : 200).send(await service.detail(ctx, id));
    },
  );

  r.get(
    '/api/chat/conversations/:id/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'A conversation with its members and read receipts',
        params: ZIdParams,
        response: { 200: ZChatConversationDetail },
      },
    },
    async (request) => service.detail(contextOf(request), request.params.id),
  );

  r.post(
    '/api/chat/conversations/:id/members/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Add people to a group (its creator or an administrator); a system message for each',
        params: ZIdParams,
        body: ZChatMembersAdd,
        response: { 200: ZChatConversationDetail },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      await service.addMembers(ctx, request.params.id, request.body.users);
      return service.detail(ctx, request.params.id);
    },
  );

  r.delete(
    '/api/chat/conversations/:id/members/:user/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Remove a member from a group (its creator or an administrator), or leave it (yourself); they lose access at once',
        params: ZChatMemberParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.removeMember(contextOf(request), request.params.id, request.params.user);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/chat/messages/:id/attachment/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'The file of a message, for the members of its conversation (`disposition=inline` shows PDFs and images)',
        params: ZIdParams,
        querystring: ZFileQuery,
      },
    },
    async (request, reply) => {
      const { disposition } = request.query;
      return sendFile(
        reply,
        await attachments.attachment(contextOf(request), request.params.id, disposition),
        disposition,
      );
    },
  );

  // Multipart only in the attachment route's own scope: the rest of the API speaks JSON only.
  await app.register(async (scope) => {
    await registerUploads(scope, { maxBytes: UPLOAD_MAX_MB_MAX * 1024 * 1024, fields: 2 });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/chat/conversations/:id/attachments/',
      {
        config: ACCESS,
        schema: {
          tags,
          summary:
            'Send a file (multipart: id, body, file; a JPEG, PNG, WebP, HEIC or PDF within the hospital’s upload limit), idempotent on its id',
          params: ZIdParams,
          response: { 200: ZChatMessage, 201: ZChatMessage },
        },
      },
      async (request, reply) => {
        const ctx = contextOf(request);
        // Another hospital's conversation, or one the caller is not in: 404 before the body is read.
        await service.visible(ctx, request.params.id);
        const { fields, file } = await readUpload(request, {
          field: 'file',
          maxBytes: await attachments.maxBytes(ctx),
          missing: () => badRequest({ file: ['documents.file_missing'] }),
          tooLarge: fileTooLarge,
        });
        const parsed = ZChatAttachmentFields.safeParse(fields);
        if (!parsed.success) throw Object.assign(new Error('validation'), { zodIssues: parsed.error.issues });
        const { message, created } = await service.send(
          ctx,
          request.params.id,
          { id: parsed.data.id, body: parsed.data.body ?? '' },
          file,
        );
        return reply.status(created ? 201 : 200).send(message);
      },
    );
  });

  r.get(
    '/api/chat/conversations/:id/messages/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Messages of a conversation, newest first (cursor pagination)',
        params: ZIdParams,
        querystring: ZChatMessagesQuery,
        response: { 200: ZChatMessagePage },
      },
    },
    async (request) => service.messages(contextOf(request), request.params.id, request.query),
  );

  r.post(
    '/api/chat/conversations/:id/messages/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Send a message (idempotent on its client-made id: 201 once, then 200 with the same message)',
        params: ZIdParams,
        body: ZChatMessageCreate,
        response: { 200: ZChatMessage, 201: ZChatMessage },
      },
    },
    async (request, reply) => {
      const { message, created } = await service.send(contextOf(request), request.params.id, request.body);
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  r.post(
    '/api/chat/conversations/:id/read/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Move your read position up to a message (never back)',
        params: ZIdParams,
        body: ZChatReadBody,
        response: { 200: ZChatUnread },
      },
    },
    async (request) => service.read(contextOf(request), request.params.id, request.body.message),
  );

  r.patch(
    '/api/chat/messages/:id/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Edit your message (within 5 minutes of sending it)',
        params: ZIdParams,
        body: ZChatMessageEdit,
        response: { 200: ZChatMessage },
      },
    },
    async (request) => service.edit(contextOf(request), request.params.id, request.body.body),
  );

  r.delete(
    '/api/chat/messages/:id/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Delete your message (it stays as "message deleted")',
        params: ZIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(contextOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/chat/unread/',
    {
      config: ACCESS,
      schema: { tags, summary: 'Unread messages in all your conversations', response: { 200: ZChatUnread } },
    },
    async (request) => service.unread(contextOf(request)),
  );

  r.get(
    '/api/chat/search/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Messages of your conversations containing a text',
        querystring: ZChatSearchQuery,
        response: { 200: ZChatSearchResult },
      },
    },
    async (request) => {
      const result = await service.search(contextOf(request), request.query);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.get(
    '/api/chat/staff/',
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Staff members of the hospital one may write to',
        querystring: ZChatStaffQuery,
        response: { 200: ZChatStaffList },
      },
    },
    async (request) => {
      const result = await service.staff(contextOf(request), request.query);
      return pageOf(
        request,
        request.query,
        result.total,
        result.rows.map((p) => ({ id: p.id, full_name: p.full_name })),
      );
    },
  );
}
