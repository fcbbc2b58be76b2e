import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { createTransport } from 'nodemailer';
import { z } from 'zod';
import type { Db, Queryable } from '../db/client.js';
import { mailOutbox } from '../db/schema/index.js';
import type { JobDefinition, Jobs } from '../jobs/runner.js';
import { deleteInBatches, PURGE_BATCH } from './queries.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /**
   * The link the mail carries. Without SMTP, outside production, it is written to the log so that a local
   * user can follow it; it is never logged otherwise.
   */
  link?: string;
}

/** What sends a mail: nodemailer's SMTP transport, or a fake one in tests. */
export interface MailTransport {
  sendMail(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html?: string;
  }): Promise<unknown>;
  close(): void;
}

export interface MailerOptions {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  /** False in production: links (which carry tokens) never reach the log. */
  logLinks: boolean;
  /** The job system that delivers SMTP mail (required with `smtpUrl`). */
  jobs?: Jobs;
  /** Replaces the SMTP transport built from `smtpUrl` (tests). */
  transport?: MailTransport;
}

export const MAIL_DELIVER_JOB = 'mail.deliver';
const ZMailDelivery = z.object({ mail_id: z.uuid() });

/**
 * Sends mail. Without SMTP_URL it writes it to the `mail_outbox` table (and the link to the log). With SMTP_URL
 * it writes it to the outbox too, with a `mail.deliver` job in the same transaction: a worker hands it to the
 * SMTP server, retrying with backoff while the server is unreachable, so that a mail is never lost and the
 * caller never waits for SMTP.
 */
export class Mailer {
  private readonly transport: MailTransport | null;

  constructor(private readonly opts: MailerOptions) {
    this.transport =
      opts.transport ??
      (opts.smtpUrl
        ? createTransport({
            url: opts.smtpUrl,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 20_000,
          })
        : null);
    if (this.transport && !opts.jobs) throw new Error('SMTP delivery needs the job system');
  }

  get mode(): 'smtp' | 'outbox' {
    return this.transport ? 'smtp' : 'outbox';
  }

  /**
   * Resolves once the mail is in the outbox (and, with SMTP, its delivery job queued). It writes in a transaction
   * of its own: call it once the work that sends the mail has committed (the embedded database has a single
   * connection, so a transaction opened inside another would wait for it forever).
   */
  async send(message: MailMessage): Promise<void> {
    try {
      if (this.transport) {
        const jobs = this.opts.jobs!;
        await this.opts.db.transaction(async (tx) => {
          const id = await this.toOutbox(tx, message);
          await jobs.enqueue(MAIL_DELIVER_JOB, { mail_id: id }, { key: id, tx });
        });
        return;
      }
      const id = await this.toOutbox(this.opts.db, message);
      if (this.opts.logLinks && message.link) {
        this.opts.log.info({ mail_id: id, to: message.to }, `mail in outbox — link: ${message.link}`);
      } else {
        this.opts.log.info({ mail_id: id }, 'mail written to the outbox (SMTP_URL is not set)');
      }
    } catch (err) {
      this.opts.log.error({ err }, 'could not write a mail to the outbox');
    }
  }

  /** Nothing runs in the background of a request any more (delivery is a job): resolves at once. */
  async idle(): Promise<void> {}

  close() {
    this.transport?.close();
  }

  /**
   * The `mail.deliver` job: hands one outbox mail to the SMTP server. A failure is written on the mail and
   * retried (1, 2, 4, 8, 16 minutes); after the last try the job is `failed` and the mail keeps its error. A sent
   * mail loses its bodies (they carry links with tokens).
   */
  deliveryJob(): JobDefinition<typeof ZMailDelivery> {
    return {
      name: MAIL_DELIVER_JOB,
      payload: ZMailDelivery,
      maxAttempts: 6,
      backoff: { baseMs: 60_000, maxMs: 30 * 60_000 },
      rule: 'mail.smtp',
      run: async ({ mail_id }) => {
        if (!this.transport) throw new Error('SMTP_URL is not set on this instance');
        const db = this.opts.db;
        const [mail] = await db
          .select()
          .from(mailOutbox)
          .where(sql`${mailOutbox.id} = ${mail_id} and ${mailOutbox.sentAt} is null`);
        if (!mail) return; // sent already (a retry after a lost acknowledgement) or purged
        try {
          await this.transport.sendMail({
            from: this.opts.from,
            to: mail.toAddress,
            subject: mail.subject,
            text: mail.textBody,
            ...(mail.htmlBody ? { html: mail.htmlBody } : {}),
          });
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          await db
            .update(mailOutbox)
            .set({ error: reason.slice(0, 500) })
            .where(sql`${mailOutbox.id} = ${mail_id}`);
          throw err;
        }
        await db
          .update(mailOutbox)
          .set({ sentAt: new Date(), error: null, textBody: '', htmlBody: null })
          .where(sql`${mailOutbox.id} = ${mail_id}`);
      },
    };
  }

  private async toOutbox(q: Queryable, message: MailMessage): Promise<string> {
    const [row] = await q
      .insert(mailOutbox)
      .values({
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html ?? null,
      })
      .returning({ id: mailOutbox.id });
    return row!.id;
  }
}

/** Mail written before `before` (sent or not): its links expired long ago. */
export function purgeOldMail(q: Queryable, before: Date): Promise<number> {
  return deleteInBatches(
    q,
    sql`delete from mail_outbox where id in (
      select id from mail_outbox where created_at < ${before.toISOString()}::timestamptz limit ${PURGE_BATCH})
      returning id`,
  );
}
