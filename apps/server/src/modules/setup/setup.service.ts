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

import { and, eq, gt, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../../db/client.js';
import { databaseIsEmpty } from '../../db/installation.js';
import { appSettings, memberships } from '../../db/schema/index.js';
import type { ServiceContext } from '../../lib/context.js';
import { notFound } from '../../lib/errors.js';
import { hashSecret } from '../../lib/passwords.js';
import { insertAccount, markEmailVerified } from '../auth/auth.repository.js';
import { freeUsername, newSecretToken, sha256 } from '../auth/auth.service.js';
import { insertHospital } from '../structure/structure.repository.js';
import { readSetting } from '../system/settings.repository.js';
import type { TSetupBody } from './setup.schemas.js';

export const SETUP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_KEY_PREFIX = 'setup:';
const COMPLETED_KEY = 'setup.completed';

/** The web page of the link: the token rides in the fragment, which browsers never send to a server. */
export function setupLink(publicUrl: string, token: string) {
  return `${publicUrl}/register#setup=${token}`;
}

/** Whether the installation still waits for its setup: nothing in it, and no setup done. */
async function awaitingSetup(q: Queryable): Promise<boolean> {
  return (await databaseIsEmpty(q)) && (await readSetting(q, COMPLETED_KEY)) === null;
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
  await db
    .insert(appSettings)
    .values({ key: TOKEN_KEY_PREFIX + sha256(token), value: expiresAt.toISOString() });
  return { link: setupLink(publicUrl, token), expiresAt };
}

/** The expiry of a printed link not expired yet, or null. */
async function linkExpiry(q: Queryable, token: string): Promise<Date | null> {
  if (token.length === 0 || token.length > 512) return null;
  const [row] = await q
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(
      and(
        eq(appSettings.key, TOKEN_KEY_PREFIX + sha256(token)),
        gt(appSettings.value, new Date().toISOString()),
      ),
    );
  return row ? new Date(row.value) : null;
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
      const [claimed] = await tx
        .insert(appSettings)
        .values({ key: COMPLETED_KEY, value: new Date().toISOString() })
        .onConflictDoNothing()
        .returning({ key: appSettings.key });
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
      await tx.insert(memberships).values({ userId, hospitalId, roleCode: 'ADMIN' });
      await tx.update(appSettings).set({ updatedBy: userId }).where(eq(appSettings.key, COMPLETED_KEY));
      // Every printed link stops working with the setup.
      await tx.delete(appSettings).where(like(appSettings.key, `${TOKEN_KEY_PREFIX}%`));
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
