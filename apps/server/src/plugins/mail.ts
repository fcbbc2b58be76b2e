import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Mailer } from '../lib/mail.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** The mailer: SMTP when SMTP_URL is set, else the outbox table (and, outside production, the log). */
export default fp(
  async (app: FastifyInstance) => {
    const mailer = new Mailer({
      db: app.db,
      smtpUrl: app.config.smtpUrl,
      from: app.config.mailFrom,
      log: app.log,
      logLinks: app.config.appEnv !== 'production',
    });
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => {
      await mailer.idle();
      mailer.close();
    });
  },
  { name: 'mail', dependencies: ['db'] },
);
