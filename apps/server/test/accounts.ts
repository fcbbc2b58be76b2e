import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mailOutbox } from '../src/db/schema/index.js';
import { hashSecret } from '../src/lib/passwords.js';
import { makeUser } from './factories.js';

/** The password of every account made by `makeAccount`; hashed once per test file. */
export const ACCOUNT_PASSWORD = 'lantern-harbour-violet-47';
let passwordHash: Promise<string> | undefined;

export const uniqueEmail = (tag = 'acct') => `${tag}-${randomBytes(5).toString('hex')}@example.test`;

/** A user who can sign in with ACCOUNT_PASSWORD (verified and active unless told otherwise). */
export async function makeAccount(app: FastifyInstance, opts: Parameters<typeof makeUser>[1] = {}) {
  passwordHash ??= hashSecret(ACCOUNT_PASSWORD);
  const user = await makeUser(app.db, { email: uniqueEmail(), ...opts, passwordHash: await passwordHash });
  return { ...user, password: ACCOUNT_PASSWORD };
}

/** A distinct client address per call, so that per-IP limits of one test never touch another. */
export const clientIp = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]! % 250).join('.')}`;

export async function login(
  app: FastifyInstance,
  email: string,
  password = ACCOUNT_PASSWORD,
  ip = clientIp(),
) {
  return app.inject({ method: 'POST', url: '/api/login/', payload: { email, password }, remoteAddress: ip });
}

export async function loginPair(app: FastifyInstance, email: string, password = ACCOUNT_PASSWORD) {
  const res = await login(app, email, password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json() as { access: string; refresh: string; user: Record<string, unknown> };
}

export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

/** Mails written to the outbox for an address, newest first. */
export async function outboxFor(app: FastifyInstance, to: string) {
  await app.authService.idle();
  return app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, to))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
}

/** The link of the newest mail sent to an address (path and token parts). */
export async function lastLink(app: FastifyInstance, to: string) {
  const [mail] = await outboxFor(app, to);
  if (!mail) throw new Error(`no mail for ${to}`);
  const url = /https?:\/\/\S+/.exec(mail.textBody)?.[0];
  if (!url) throw new Error('no link in the mail');
  return { url, mail, path: new URL(url).pathname };
}
