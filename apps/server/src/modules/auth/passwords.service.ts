import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { hashSecret, verifySecret } from '../../lib/passwords.js';
import { REFRESH_TOKEN_TTL_S } from '../../lib/tokens.js';
import { resetMail } from './auth.mails.js';
import * as repo from './auth.repository.js';
import {
  ACCOUNT_LIMIT,
  type AuthService,
  newSecretToken,
  RESET_TOKEN_TTL_MS,
  sha256,
  type TokenPair,
  UUID_RE,
} from './auth.service.js';

/**
 * Passwords (issue 3, issue 25): the mailed reset link, the reset that ends every session, and the change by the
 * signed-in user that keeps only the session it was made from.
 */
export class PasswordService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: AuthService,
  ) {}

  private get db() {
    return this.app.db;
  }

  /** Same answer for known and unknown addresses; the work happens after the answer. */
  async forgotPassword(ctx: ServiceContext, email: string) {
    await this.app.limits.hit(`acct:forgot:${email}`, ACCOUNT_LIMIT.max, ACCOUNT_LIMIT.windowMs);
    this.auth.inBackground('password reset request', async () => {
      const account = await repo.findAccountByEmail(this.db, email);
      if (!account?.isActive) {
        await this.app.audit.record(ctx, {
          action: 'auth.password_reset_requested',
          outcome: 'failure',
          userId: account?.id ?? null,
          hospitalId: null,
          details: { email, reason: account ? 'inactive' : 'unknown_email' },
        });
        return;
      }
      const token = newSecretToken();
      await this.db.transaction(async (tx) => {
        // A new link replaces the previous ones.
        await repo.invalidateEmailTokens(tx, account.id, 'reset');
        await repo.insertEmailToken(tx, {
          userId: account.id,
          purpose: 'reset',
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'auth.password_reset_requested',
            userId: account.id,
            hospitalId: null,
            details: { email },
          },
          tx,
        );
      });
      await this.app.mailer.send(resetMail(this.app.config.publicUrl, account, account.id, token));
    });
  }

  /** Sets the new password from a reset link and ends every session of the user. */
  async resetPassword(
    ctx: ServiceContext,
    body: { token: string; uid?: string | undefined; new_password: string },
  ) {
    let { token, uid } = body;
    const dot = token.indexOf('.');
    if (dot > 0 && (!uid || token.slice(0, dot).toLowerCase() === uid.toLowerCase())) {
      // The link's single segment `{uid}.{token}`.
      uid = token.slice(0, dot);
      token = token.slice(dot + 1);
    }
    const invalid = async () => {
      await this.app.audit.record(ctx, {
        action: 'auth.password_reset',
        outcome: 'failure',
        userId: uid && UUID_RE.test(uid) ? uid.toLowerCase() : null,
        hospitalId: null,
      });
      return badRequest({ token: ['reset.invalid_token'] });
    };
    if (!uid || !UUID_RE.test(uid)) throw await invalid();
    const userId = uid.toLowerCase();
    const hash = sha256(token);
    if (!(await repo.emailTokenUsable(this.db, userId, 'reset', hash))) throw await invalid();
    const passwordHash = await hashSecret(body.new_password);
    const done = await this.db.transaction(async (tx) => {
      if (!(await repo.consumeEmailToken(tx, userId, 'reset', hash))) return false;
      await repo.setPassword(tx, userId, passwordHash);
      await repo.invalidateEmailTokens(tx, userId, 'reset');
      const revoked = await repo.revokeUserSessions(tx, userId, 'password_reset');
      await this.app.audit.record(
        ctx,
        { action: 'auth.password_reset', userId, hospitalId: null, details: { sessions_revoked: revoked } },
        tx,
      );
      return true;
    });
    if (!done) throw await invalid();
    await this.app.realtime.disconnectUser(userId);
  }

  /**
   * New password for the signed-in user. Every other session ends; this one goes on with the fresh pair that
   * comes back, and nothing issued before the change works any more: the token version moves (every older
   * access token, this session's included, stops working) and this session's older refresh tokens are retired.
   * Changing one's password is how one shuts out whoever holds a copy of them (issue 25).
   */
  async changePassword(ctx: ServiceContext, current: string, next: string): Promise<TokenPair> {
    const userId = actingUser(ctx).id;
    const currentSession = ctx.sessionId;
    await this.app.limits.hit(`acct:change-password:${userId}`, ACCOUNT_LIMIT.max, ACCOUNT_LIMIT.windowMs);
    const account = await repo.findAccountById(this.db, userId);
    if (!account || !(await verifySecret(account.passwordHash, current)))
      throw badRequest({ current_password: ['password.wrong'] });
    const passwordHash = await hashSecret(next);
    const { tokenVersion, session } = await this.db.transaction(async (tx) => {
      const tokenVersion = await repo.setPassword(tx, userId, passwordHash);
      const revoked = await repo.revokeUserSessions(tx, userId, 'password_change', currentSession);
      let session: { sessionId: string; refresh: string };
      if (currentSession) {
        await repo.setSessionTokenVersion(tx, currentSession, tokenVersion);
        await repo.retireRefreshTokens(tx, currentSession);
        const refresh = newSecretToken();
        await repo.insertRefreshToken(tx, {
          sessionId: currentSession,
          tokenHash: sha256(refresh),
          expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
        });
        session = { sessionId: currentSession, refresh };
      } else {
        session = await this.auth.openSession(tx, ctx, userId, tokenVersion);
      }
      await this.app.audit.record(
        ctx,
        {
          action: 'auth.password_changed',
          hospitalId: null,
          resourceType: 'session',
          resourceId: session.sessionId,
          details: { sessions_revoked: revoked },
        },
        tx,
      );
      return { tokenVersion, session };
    });
    return this.auth.pair(userId, tokenVersion, session);
  }
}
