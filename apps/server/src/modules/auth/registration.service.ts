import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../lib/context.js';
import { badRequest, isUniqueViolation } from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { hashSecret } from '../../lib/passwords.js';
import { notifyAccountWaiting, withNotifications } from '../notifications/notifications.service.js';
import { loadAuthUser } from '../users/users.repository.js';
import { verificationMail } from './auth.mails.js';
import * as repo from './auth.repository.js';
import {
  ACCOUNT_LIMIT,
  type AuthService,
  freeUsername,
  newSecretToken,
  sha256,
  UUID_RE,
  VERIFY_TOKEN_TTL_MS,
} from './auth.service.js';

/**
 * Registration and the verification of the address (issue 3): a new account, its mailed link used once, a new
 * link on request (answered the same for any address; the work runs in the sessions' background, `idle()`).
 */
export class RegistrationService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: AuthService,
  ) {}

  private get db() {
    return this.app.db;
  }

  async register(
    ctx: ServiceContext,
    body: {
      email: string;
      first_name: string;
      last_name: string;
      password: string;
      username?: string | undefined;
      language: Lang;
    },
  ): Promise<{ id: string; email: string }> {
    await this.app.limits.hit(`acct:register:${body.email}`, ACCOUNT_LIMIT.max, ACCOUNT_LIMIT.windowMs);
    if (await repo.findAccountByEmail(this.db, body.email)) throw badRequest({ email: ['email.taken'] });
    let username = body.username;
    if (username && (await repo.usernameTaken(this.db, username)))
      throw badRequest({ username: ['username.taken'] });
    username ??= await freeUsername(this.db, body.email);
    const passwordHash = await hashSecret(body.password);
    const token = newSecretToken();
    let id: string;
    try {
      id = await this.db.transaction(async (tx) => {
        const created = await repo.insertAccount(tx, {
          email: body.email,
          username: username!,
          firstName: body.first_name,
          lastName: body.last_name,
          passwordHash,
          languagePreference: body.language,
        });
        await repo.insertEmailToken(tx, {
          userId: created.id,
          purpose: 'verify',
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + VERIFY_TOKEN_TTL_MS),
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'auth.register',
            userId: created.id,
            hospitalId: null,
            resourceType: 'user',
            resourceId: created.id,
            details: { email: body.email },
          },
          tx,
        );
        return created.id;
      });
    } catch (err) {
      const unique = isUniqueViolation(err);
      if (!unique) throw err;
      // Two registrations of the same address (or username) at the same instant.
      if (unique.constraint.includes('username')) throw badRequest({ username: ['username.taken'] });
      throw badRequest({ email: ['email.taken'] });
    }
    await this.app.mailer.send(
      verificationMail(
        this.app.config.publicUrl,
        { email: body.email, firstName: body.first_name, languagePreference: body.language },
        id,
        token,
      ),
    );
    return { id, email: body.email };
  }

  /** Uses a verification link once. False when the link is unknown, used, expired or of another user. */
  async verifyEmail(ctx: ServiceContext, uid: string, token: string): Promise<boolean> {
    const valid = UUID_RE.test(uid) && token.length > 0 && token.length <= 256;
    const ok =
      valid &&
      (await withNotifications(this.app, async (tx) => {
        const userId = uid.toLowerCase();
        if (!(await repo.consumeEmailToken(tx, userId, 'verify', sha256(token)))) return false;
        await repo.markEmailVerified(tx, userId);
        await this.app.audit.record(ctx, { action: 'auth.email_verified', userId, hospitalId: null }, tx);
        // A verified account with no hospital now waits for an administrator to assign it.
        const account = await loadAuthUser(tx, userId);
        if (account && account.memberships.length === 0) await notifyAccountWaiting(this.app, tx, account);
        return true;
      }));
    if (!ok) {
      await this.app.audit.record(ctx, {
        action: 'auth.email_verified',
        outcome: 'failure',
        userId: valid ? uid.toLowerCase() : null,
        hospitalId: null,
      });
    }
    return ok;
  }

  /** Same answer for any address; the work happens after the answer, so that timing tells nothing. */
  async resendVerification(ctx: ServiceContext, email: string) {
    await this.app.limits.hit(`acct:resend:${email}`, ACCOUNT_LIMIT.max, ACCOUNT_LIMIT.windowMs);
    this.auth.inBackground('resend verification', async () => {
      const account = await repo.findAccountByEmail(this.db, email);
      if (!account?.isActive || account.emailVerifiedAt) return;
      const token = newSecretToken();
      await this.db.transaction(async (tx) => {
        await repo.insertEmailToken(tx, {
          userId: account.id,
          purpose: 'verify',
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + VERIFY_TOKEN_TTL_MS),
        });
        await this.app.audit.record(
          ctx,
          { action: 'auth.verification_resent', userId: account.id, hospitalId: null, details: { email } },
          tx,
        );
      });
      await this.app.mailer.send(verificationMail(this.app.config.publicUrl, account, account.id, token));
    });
  }
}
