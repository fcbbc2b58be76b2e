import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Db } from '../db/client.js';
import { mailOutbox } from '../db/schema/index.js';

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

export interface MailerOptions {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  /** False in production: links (which carry tokens) never reach the log. */
  logLinks: boolean;
}

/**
 * Sends mail through SMTP when SMTP_URL is set, else writes it to the `mail_outbox` table (and the link to the
 * log). Sending never fails or slows the caller: SMTP delivery runs in the background, and a failed delivery
 * lands in the outbox with its error.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly opts: MailerOptions) {
    this.transport = opts.smtpUrl
      ? createTransport({
          url: opts.smtpUrl,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        })
      : null;
  }

  get mode(): 'smtp' | 'outbox' {
    return this.transport ? 'smtp' : 'outbox';
  }

  /** Resolves once the mail is in the outbox (no SMTP) or handed to the background sender (SMTP). */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      await this.toOutbox(message, null);
      return;
    }
    const transport = this.transport;
    const job = transport
      .sendMail({
        from: this.opts.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      })
      .then(
        () => undefined,
        async (err: unknown) => {
          const reason = err instanceof Error ? err.message : String(err);
          this.opts.log.warn(
            { err: { message: reason } },
            'SMTP delivery failed; the mail was kept in the outbox',
          );
          await this.toOutbox(message, reason.slice(0, 500));
        },
      )
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Waits for background deliveries (app close, tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  close() {
    this.transport?.close();
  }

  private async toOutbox(message: MailMessage, error: string | null) {
    try {
      const [row] = await this.opts.db
        .insert(mailOutbox)
        .values({
          toAddress: message.to,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html ?? null,
          error,
        })
        .returning({ id: mailOutbox.id });
      if (error === null) {
        if (this.opts.logLinks && message.link) {
          this.opts.log.info({ mail_id: row?.id, to: message.to }, `mail in outbox — link: ${message.link}`);
        } else {
          this.opts.log.info({ mail_id: row?.id }, 'mail written to the outbox (SMTP_URL is not set)');
        }
      }
    } catch (err) {
      this.opts.log.error({ err }, 'could not write a mail to the outbox');
    }
  }
}
