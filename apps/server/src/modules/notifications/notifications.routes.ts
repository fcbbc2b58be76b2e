import {
  ZMarkReadBody,
  ZMarkReadResult,
  ZNotificationList,
  ZNotificationListQuery,
  ZWsTicket,
} from '@greensen/shared/contracts/notifications';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, notFound } from '../../lib/errors.js';
import { defineMessages } from '../../lib/i18n.js';
import { WS_TICKET_TTL_S } from '../../realtime/tickets.js';
import {
  listNotifications,
  markRead,
  softDelete,
  toNotificationDto,
  unreadCount,
} from './notifications.repository.js';
import { NotificationService } from './notifications.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationService;
  }
}

defineMessages({
  'notifications.account_waiting.title': {
    fr: 'Nouveau compte en attente d’affectation',
    en: 'New account waiting for assignment',
  },
  'notifications.account_waiting.message': {
    fr: '{name} ({email}) a créé un compte et attend d’être affecté(e) à un hôpital et à un rôle.',
    en: '{name} ({email}) created an account and is waiting to be assigned a hospital and a role.',
  },
  'notifications.realtime_unavailable': {
    fr: 'Les notifications en temps réel sont momentanément indisponibles.',
    en: 'Real-time notifications are temporarily unavailable.',
  },
});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HOSPITAL_ANY = { scope: 'hospital', module: null, roles: 'any' } as const;

/** Absolute URL of another page of the list, keeping the other query parameters. */
function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** Notification list, mark read, delete and socket tickets; exposes `app.notifications` to every module. */
export const notificationsRoutes = fp(
  async (app: FastifyInstance) => {
    app.decorate('notifications', new NotificationService(app));
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/api/notifications/',
      {
        config: { access: HOSPITAL_ANY },
        schema: {
          tags: ['notifications'],
          summary: "The caller's notifications in the current hospital, newest first",
          querystring: ZNotificationListQuery,
          response: { 200: ZNotificationList },
        },
      },
      async (request) => {
        const { page, page_size: size, status } = request.query;
        const owner = { userId: request.user!.id, hospitalId: request.hospital!.id };
        const [{ rows, total }, unread] = await Promise.all([
          listNotifications(app.db, { ...owner, status, limit: size, offset: (page - 1) * size }),
          unreadCount(app.db, owner),
        ]);
        return {
          count: total,
          next: page * size < total ? pageUrl(request, page + 1) : null,
          previous:
            page > 1 ? pageUrl(request, Math.min(page - 1, Math.max(1, Math.ceil(total / size)))) : null,
          results: rows.map(toNotificationDto),
          unread_count: unread,
        };
      },
    );

    r.post(
      '/api/notifications/mark-read/',
      {
        config: { access: HOSPITAL_ANY },
        schema: {
          tags: ['notifications'],
          summary: 'Mark notifications read (all of the current hospital when notification_ids is absent)',
          body: ZMarkReadBody.nullish(),
          response: { 200: ZMarkReadResult },
        },
      },
      async (request) => {
        const owner = { userId: request.user!.id, hospitalId: request.hospital!.id };
        const ids = request.body?.notification_ids ?? null;
        const updated = await markRead(app.db, { ...owner, ids });
        const unread = await unreadCount(app.db, owner);
        if (updated.length > 0) {
          // The user's other devices (and this one) follow.
          await app.realtime.sendToUser(owner.userId, {
            action: 'mark_read',
            hospital: owner.hospitalId,
            message: { ids: ids ? updated : null, unread_count: unread },
          });
        }
        return { updated: updated.length, unread_count: unread };
      },
    );

    r.delete(
      '/api/notifications/:id/',
      {
        config: { access: HOSPITAL_ANY },
        schema: {
          tags: ['notifications'],
          summary: 'Delete one of your notifications',
          params: z.object({ id: z.string() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const owner = { userId: request.user!.id, hospitalId: request.hospital!.id };
        const { id } = request.params;
        // Another user's or another hospital's notification is exactly like one that does not exist.
        if (!UUID_RE.test(id) || !(await softDelete(app.db, { ...owner, id: id.toLowerCase() }))) {
          throw notFound();
        }
        const unread = await unreadCount(app.db, owner);
        await app.realtime.sendToUser(owner.userId, {
          action: 'delete_notification',
          hospital: owner.hospitalId,
          message: { id: id.toLowerCase(), unread_count: unread },
        });
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/api/notifications/ws-ticket/',
      {
        config: { access: { scope: 'user' } },
        schema: {
          tags: ['notifications'],
          summary: `A single-use ticket (valid ${WS_TICKET_TTL_S} s) for opening /ws/notifications/{ticket}/`,
          response: { 200: ZWsTicket },
        },
      },
      async (request) => {
        let ticket: string;
        try {
          ticket = await app.realtime.issueTicket({
            userId: request.user!.id,
            tokenVersion: request.user!.tokenVersion,
            sessionId: request.sessionId,
          });
        } catch (err) {
          request.log.warn({ err: { message: (err as Error).message } }, 'cannot store a socket ticket');
          throw new ApiError(503, 'notifications.realtime_unavailable');
        }
        return { ticket, expires_in: WS_TICKET_TTL_S };
      },
    );
  },
  { name: 'notifications', dependencies: ['realtime', 'access'] },
);
