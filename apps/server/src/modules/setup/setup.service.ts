/**
 * The first start of a real installation (issue 15, docs/decisions/0021-installation-setup-and-modules.md): on a
 * database with no hospital and no account, each start prints a one-time link (24 h) with which the first person
 * creates the first hospital and its first administrator. After that — or as soon as any hospital or account
 * exists — the setup answers 404.
 *
 * Only the SHA-256 of a link's token is stored (`app_settings` row `setup:<hash>`, its value the expiry); each
 * start adds its own, so that every instance's printed link works until one is used. The setup writes the row
 * `setup.completed` in its transaction: two setups at the same instant (the same link twice, or two instances'
 * links) meet on that primary key, and the second finds it taken and answers 404 — the database decides.
 */

import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../../db/client.js';
import { databaseIsEmpty } from '../../db/installation.js';
import type { ServiceContext } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { hashSecret } from '../../lib/passwords.js';
import { insertAccount, markEmailVerified } from '../auth/auth.repository.js';
import { freeUsername, newSecretToken, sha256 } from '../auth/auth.service.js';
import { insertAdministrator, insertHospital } from '../structure/structure.repository.js';
import {
  claimSetup,
  deleteSetupTokens,
  insertSetupToken,
  setSetupAuthor,
  setupCompleted,
  unexpiredSetupToken,
} from './setup.repository.js';
import type { TSetupBody } from './setup.schemas.js';

export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The web page of the link: the token rides in the fragment, which browsers never send to a server. */
export function setupLink(publicUrl: string, token: string) {
  return `${publicUrl}/register#setup=${token}`;
}

/** Whether the installation still waits for its setup: nothing in it, and no setup done. */
async function awaitingSetup(q: Queryable): Promise<boolean> {
  return (await databaseIsEmpty(q)) && !(await setupCompleted(q));
}

/**
 * A fresh setup link when the installation is empty (called on every start), else null. Links printed by earlier
 * starts keep working until they expire or one of them is used.
 */
export async function issueSetupLink(
  db: Db,
  publicUrl: string,
  now = new Date(),
): Promise<{ link: string; expiresAt: Date } | null> {
  if (!(await awaitingSetup(db))) return null;
  const token = newSecretToken();
  const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
  await insertSetupToken(db, sha256(token), expiresAt);
  return { link: setupLink(publicUrl, token), expiresAt };
}

/** The expiry of a printed link not expired yet, or null. */
async function linkExpiry(q: Queryable, token: string): Promise<Date | null> {
  if (token.length === 0 || token.length > 512) return null;
  return unexpiredSetupToken(q, sha256(token), new Date());
}

/** The expiry of a link that may still be used, or null (unknown, expired, or the setup is done). */
async function usableLink(q: Queryable, token: string): Promise<Date | null> {
  const expires = await linkExpiry(q, token);
  return expires && (await awaitingSetup(q)) ? expires : null;
}

export class SetupService {
  constructor(private readonly app: FastifyInstance) {}

  /** Whether a link still works (the page asks before showing the form): its expiry, else 404. */
  async state(token: string): Promise<{ expires_at: string }> {
    const expires = await usableLink(this.app.db, token);
    if (!expires) throw notFound('setup.not_found');
    return { expires_at: expires.toISOString() };
  }

  /**
   * Creates the first hospital and its first administrator (email verified: the link proves who runs the
   * server), then signs the administrator in. The token never reaches the audit trail.
   */
  async complete(ctx: ServiceContext, body: TSetupBody) {
    if (!(await usableLink(this.app.db, body.token))) throw notFound('setup.not_found');
    const passwordHash = await hashSecret(body.password);
    const username = await freeUsername(this.app.db, body.email);
    await this.app.db.transaction(async (tx) => {
      const claimed = await claimSetup(tx, new Date());
      // Another setup got there first (it committed, and this one waited for it on the row).
      if (!claimed || !(await databaseIsEmpty(tx)) || !(await linkExpiry(tx, body.token)))
        throw notFound('setup.not_found');
      const hospitalId = await insertHospital(tx, { ...body, phones: [], languages: ['fr', 'en'] });
      const { id: userId } = await insertAccount(tx, {
        email: body.email,
        username,
        firstName: body.first_name,
        lastName: body.last_name,
        passwordHash,
        languagePreference: body.language_preference ?? ctx.lang,
      });
      await markEmailVerified(tx, userId);
      await insertAdministrator(tx, userId, hospitalId);
      await setSetupAuthor(tx, userId);
      // Every printed link stops working with the setup.
      await deleteSetupTokens(tx);
      await this.app.audit.record(
        ctx,
        {
          action: 'setup.complete',
          userId,
          hospitalId,
          resourceType: 'hospital',
          resourceId: hospitalId,
          details: { hospital_code: body.code.toUpperCase(), email: body.email },
        },
        tx,
      );
    });
    return this.app.authService.login(ctx, body.email, body.password);
  }
}
