import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mailer, type MailTransport } from '../lib/mail.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * The mailer: with SMTP_URL, mail is delivered by the `mail.deliver` job (retried with backoff); without it,
 * mail stays in the outbox table (and, outside production, its link goes to the log).
 */
export default fp(
  async (app: FastifyInstance, opts: { transport?: MailTransport | undefined }) => {
    const mailer = new Mailer({
      db: app.db,
      smtpUrl: app.config.smtpUrl,
      from: app.config.mailFrom,
      log: app.log,
      logLinks: app.config.appEnv !== 'production',
      jobs: app.jobs,
      ...(opts.transport ? { transport: opts.transport } : {}),
    });
    app.decorate('mailer', mailer);
    app.jobs.define(mailer.deliveryJob());
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail', dependencies: ['db', 'jobs'] },
);
