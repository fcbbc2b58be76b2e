import type { TNotification } from '@greensen/shared/contracts/notifications';
import type { LocalizedText } from '@greensen/shared/domain/constants';
import type { NotificationType } from '@greensen/shared/domain/notifications';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { type Lang, languageOf, translate } from '../../lib/i18n.js';
import {
  hospitalAdministrators,
  insertNotifications,
  languagesOf,
  type NotificationRow,
  toNotificationDto,
} from './notifications.repository.js';

/** A text given in every language, or a message key (see `defineMessages`) with its parameters. */
export type Localizable = LocalizedText | { key: string; params?: Record<string, string | number> };

export interface NotifyInput {
  hospitalId: string;
  /** User ids; duplicates and unknown users are skipped. */
  recipients: readonly string[];
  type: NotificationType;
  title: Localizable;
  message?: Localizable;
  /** Context; put what happened in `action` (e.g. `patient_assigned`) and the ids the client links to. */
  data?: Record<string, unknown>;
  /** The user who caused the event (their clients skip refresh flags), or null for the system. */
  initiatedBy?: string | null;
}

export type Notify = (input: NotifyInput) => Promise<TNotification[]>;

function localize(text: Localizable | undefined, lang: Lang): string {
  if (!text) return '';
  if ('key' in text) return translate(lang, text.key, text.params);
  return text[lang];
}

/**
 * The one notification service of every module. Rows are inserted in the caller's transaction; they are
 * pushed to the recipients' sockets only once that transaction has committed: nothing is pushed for a
 * rolled-back change, and a committed one is always pushed (the list has it in any case).
 */
export class NotificationService {
  /** Notifications waiting for the commit of the transaction they were created in. */
  private readonly pending = new WeakMap<object, NotificationRow[]>();

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Creates the notifications, in each recipient's language. `q` is a transaction opened by
   * `transaction()`/`withNotifications()` (pushed after its commit), or `app.db` itself (pushed at once).
   */
  async notify(q: Queryable, input: NotifyInput): Promise<TNotification[]> {
    const queue = q === this.app.db ? null : this.pending.get(q);
    if (queue === undefined) {
      throw new Error(
        'notify() needs a transaction opened with withNotifications() (or app.db): ' +
          'deliveries must wait for the commit',
      );
    }
    const recipients = [...new Set(input.recipients)];
    const languages = await languagesOf(q, recipients);
    const rows = await insertNotifications(
      q,
      recipients.flatMap((recipientId) => {
        const stored = languages.get(recipientId);
        if (stored === undefined) return [];
        const lang = languageOf(stored);
        return [
          {
            recipientId,
            hospitalId: input.hospitalId,
            notificationType: input.type,
            title: localize(input.title, lang),
            message: localize(input.message, lang),
            data: input.data ?? {},
            initiatedBy: input.initiatedBy ?? null,
          },
        ];
      }),
    );
    if (queue) queue.push(...rows);
    else await this.deliver(rows);
    return rows.map(toNotificationDto);
  }

  /**
   * Runs `fn` in a database transaction; the notifications it creates through `notify` (or
   * `this.notify(tx, …)`) are pushed after the commit.
   */
  async transaction<T>(fn: (tx: Tx, notify: Notify) => Promise<T>): Promise<T> {
    const created: NotificationRow[] = [];
    const result = await this.app.db.transaction(async (tx) => {
      this.pending.set(tx, created);
      try {
        return await fn(tx, (input) => this.notify(tx, input));
      } finally {
        this.pending.delete(tx);
      }
    });
    await this.deliver(created);
    return result;
  }

  /**
   * Pushes committed notifications to their recipients' sockets, all at once (one bus message for the other
   * instances, however many recipients). Never throws.
   */
  private async deliver(rows: NotificationRow[]) {
    await this.app.realtime
      .sendToUsers(
        rows.map((row) => ({
          userId: row.recipientId,
          envelope: { action: 'new_notification', hospital: row.hospitalId, message: toNotificationDto(row) },
        })),
      )
      .catch((err) => this.app.log.error({ err }, 'notification push failed'));
  }
}

/** `app.db.transaction` whose notifications are pushed only once it has committed. */
export function withNotifications<T>(
  app: FastifyInstance,
  fn: (tx: Tx, notify: Notify) => Promise<T>,
): Promise<T> {
  return app.notifications.transaction(fn);
}

/**
 * A self-registered account waits for assignment: tell the administrators of every hospital
 * (type `other`, data `{action: 'account_waiting', user_id}`). Call it inside the registration's
 * `withNotifications` transaction. Returns the number of notifications created.
 */
export async function notifyAccountWaiting(
  app: FastifyInstance,
  tx: Queryable,
  user: { id: string; email: string; firstName?: string | null; lastName?: string | null },
): Promise<number> {
  const admins = await hospitalAdministrators(tx, user.id);
  const name = [user.firstName, user.lastName].filter((p) => p?.trim()).join(' ') || user.email;
  let created = 0;
  for (const [hospitalId, recipients] of admins) {
    const rows = await app.notifications.notify(tx, {
      hospitalId,
      recipients,
      type: 'other',
      title: { key: 'notifications.account_waiting.title' },
      message: { key: 'notifications.account_waiting.message', params: { name, email: user.email } },
      data: { action: 'account_waiting', user_id: user.id },
      initiatedBy: user.id,
    });
    created += rows.length;
  }
  return created;
}
