import { createHash, randomBytes } from 'node:crypto';
import type { TWaitingByHospital } from '@greensen/shared/contracts/profile';
import { roleLabel } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext } from '../../lib/context.js';
import {
  ApiError,
  badRequest,
  conflict,
  isUniqueViolation,
  tooManyRequests,
  unauthorized,
} from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { dummyHash, hashSecret, verifySecret } from '../../lib/passwords.js';
import { REFRESH_TOKEN_TTL_S, signAccessToken } from '../../lib/tokens.js';
import { notifyAccountWaiting, withNotifications } from '../notifications/notifications.service.js';
import { type AuthUser, loadAuthUser, waitingByHospital } from '../users/users.repository.js';
import { resetMail, verificationMail } from './auth.mails.js';
import * as repo from './auth.repository.js';
import type { TUser } from './auth.schemas.js';

export const VERIFY_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
/** Per-account limit of login failures, registrations, resends and reset requests. */
export const ACCOUNT_LIMIT = { max: 10, windowMs: 15 * 60 * 1000 } as const;
/**
 * Sign-in throttling (docs/security.md): failures of one account from one address are limited tightly
 * (`perSource`), so that an attacker there is stopped at once while the owner signs in from elsewhere; failures of
 * one account from all addresses have a higher ceiling (`perAccount`), past which only addresses that opened a
 * session of this account in the last `knownSourceDays` days get through — the owner's workstation keeps working
 * while an attack spread over many addresses is refused.
 */
export const LOGIN_LIMITS = {
  perSource: 10,
  perAccount: 50,
  windowMs: 15 * 60 * 1000,
  knownSourceDays: 30,
} as const;
/** Wrong PINs or passwords in a row before a locked session is closed. */
export const MAX_UNLOCK_FAILURES = 5;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A random secret of 256 bits, URL-safe. Only its SHA-256 is stored. */
export const newSecretToken = () => randomBytes(32).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface TokenPair {
  access: string;
  refresh: string;
}

export type UnlockResult = { ok: true } | { ok: false; attemptsLeft: number };

/** The user body of every auth answer (issue 3), plus has_pin. */
export function userBody(user: AuthUser, lang: Lang): TUser {
  const hospitals = new Map<string, { id: string; name: string; code: string }>();
  const departments = new Map<string, { id: string; name: string; hospital: string }>();
  const roles = new Map<string, { code: string; name: string }>();
  const activeRoles: TUser['active_roles'] = [];
  for (const m of user.memberships) {
    hospitals.set(m.hospitalId, { id: m.hospitalId, name: m.hospitalName, code: m.hospitalCode });
    if (m.departmentId)
      departments.set(m.departmentId, {
        id: m.departmentId,
        name: m.departmentName ?? '',
        hospital: m.hospitalId,
      });
    roles.set(m.roleCode, { code: m.roleCode, name: roleLabel(m.roleCode, lang) });
    activeRoles.push({ role_code: m.roleCode, hospital: m.hospitalId, department: m.departmentId });
  }
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    full_name: fullName || user.username,
    profile: {
      first_name: user.firstName,
      last_name: user.lastName,
      language_preference: user.languagePreference === 'fr' ? 'fr' : 'en',
    },
    hospitals: [...hospitals.values()],
    departments: [...departments.values()],
    active_roles: activeRoles,
    roles: [...roles.values()],
    has_pin: user.hasPin,
  };
}

/**
 * Accounts and sessions. A session is a refresh-token family: login opens one, every refresh rotates its token,
 * a rotated token presented again revokes the family, logout and resets revoke it. Access tokens carry the
 * session id (`sid`) so that they die with it (plugins/access.ts).
 */
export class AuthService {
  private readonly background = new Set<Promise<void>>();

  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.db;
  }

  /** What waits for the user in each hospital she works in (counts only; issue 25). */
  async waitingByHospital(user: AuthUser): Promise<TWaitingByHospital> {
    const ids = [...new Set(user.memberships.map((m) => m.hospitalId))];
    return { results: await waitingByHospital(this.db, user.id, ids) };
  }

  // Sessions ------------------------------------------------------------------------------------------

  async login(ctx: ServiceContext, email: string, password: string) {
    const { perSource, perAccount, windowMs, knownSourceDays } = LOGIN_LIMITS;
    const accountKey = `acct:login:${email}`;
    const sourceKey = `acct:login:${email}:${ctx.ip ?? 'unknown'}`;
    await this.app.limits.check(sourceKey, perSource, windowMs);
    const accountFailures = (await this.app.limits.counters.read(accountKey, windowMs)).current;
    if (
      accountFailures >= perAccount &&
      !(await repo.signedInFrom(this.db, email, ctx.ip, knownSourceDays))
    ) {
      await this.app.audit.record(ctx, {
        action: 'auth.login_throttled',
        outcome: 'denied',
        hospitalId: null,
        details: { email, failures: accountFailures },
      });
      throw tooManyRequests();
    }
    const account = await repo.findAccountByEmail(this.db, email);
    // Unknown email: verify against a dummy hash so that both answers take the same time.
    const passwordOk = await verifySecret(account?.passwordHash ?? (await dummyHash()), password);
    if (!account || !passwordOk || !account.isActive) {
      await this.app.limits.counters.incr(sourceKey, windowMs);
      await this.app.limits.counters.incr(accountKey, windowMs);
      const reason = !account ? 'unknown_email' : !passwordOk ? 'wrong_password' : 'inactive';
      await this.app.audit.record(ctx, {
        action: 'auth.login',
        outcome: 'failure',
        userId: account?.id ?? null,
        hospitalId: null,
        details: { email, reason },
      });
      throw unauthorized('login.invalid', 'invalid_credentials');
    }
    if (!account.emailVerifiedAt) {
      await this.app.audit.record(ctx, {
        action: 'auth.login',
        outcome: 'failure',
        userId: account.id,
        hospitalId: null,
        details: { email, reason: 'email_not_verified' },
      });
      throw new ApiError(403, 'login.email_not_verified', { code: 'email_not_verified' });
    }
    const opened = await this.db.transaction(async (tx) => {
      const session = await this.openSession(tx, ctx, account.id, account.tokenVersion);
      await repo.recordLogin(tx, account.id);
      await this.app.audit.record(
        ctx,
        {
          action: 'auth.login',
          userId: account.id,
          hospitalId: null,
          resourceType: 'session',
          resourceId: session.sessionId,
          details: { email },
        },
        tx,
      );
      return session;
    });
    const pair = await this.pair(account.id, account.tokenVersion, opened);
    const user = await loadAuthUser(this.db, account.id);
    return { ...pair, user: user! };
  }

  async refresh(ctx: ServiceContext, refresh: string): Promise<TokenPair> {
    const hash = sha256(refresh);
    const outcome = await this.db.transaction(async (tx) => {
      const consumed = await repo.consumeRefreshToken(tx, hash);
      if (!consumed) {
        const known = await repo.findRefreshToken(tx, hash);
        if (known?.usedAt && !known.sessionRevokedAt) {
          // A rotated token came back: someone holds a copy. End the whole family, the newest token too.
          await repo.revokeSession(tx, known.sessionId, 'reuse');
          await this.app.audit.record(
            ctx,
            {
              action: 'auth.refresh_reuse',
              outcome: 'denied',
              userId: known.userId,
              hospitalId: null,
              resourceType: 'session',
              resourceId: known.sessionId,
            },
            tx,
          );
        }
        return null;
      }
      const { token, session } = consumed;
      if (
        session.revokedAt ||
        !session.userActive ||
        session.tokenVersion !== session.userTokenVersion ||
        token.expiresAt.getTime() <= Date.now()
      ) {
        return null;
      }
      const next = newSecretToken();
      const nextId = await repo.insertRefreshToken(tx, {
        sessionId: session.id,
        tokenHash: sha256(next),
        expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
      });
      await repo.linkRotation(tx, token.id, nextId, session.id);
      return { userId: session.userId, tokenVersion: session.userTokenVersion, sessionId: session.id, next };
    });
    if (!outcome) throw unauthorized('session.invalid', 'token_not_valid');
    return this.pair(outcome.userId, outcome.tokenVersion, {
      sessionId: outcome.sessionId,
      refresh: outcome.next,
    });
  }

  /** Revokes the session of `refresh` (when it is the caller's) and the session of the access token. */
  async logout(ctx: ServiceContext, refresh: string | undefined) {
    const user = ctx.user;
    const result = await this.db.transaction(async (tx) => {
      const ended: string[] = [];
      let userId = user?.id ?? null;
      if (refresh) {
        const known = await repo.findRefreshToken(tx, sha256(refresh));
        const mine = known && (!user || known.userId === user.id);
        if (known && mine && (await repo.revokeSession(tx, known.sessionId, 'logout'))) {
          ended.push(known.sessionId);
          userId ??= known.userId;
        }
      }
      if (ctx.sessionId && (await repo.revokeSession(tx, ctx.sessionId, 'logout'))) ended.push(ctx.sessionId);
      await this.app.audit.record(
        ctx,
        { action: 'auth.logout', userId, hospitalId: null, details: { sessions: ended } },
        tx,
      );
      return { userId, ended };
    });
    // Sockets opened under the ended sessions close on every instance.
    if (result.userId) {
      for (const sessionId of result.ended)
        await this.app.realtime.disconnectUser(result.userId, { sessionId });
    }
  }

  // Registration and verification ---------------------------------------------------------------------

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
    this.inBackground('resend verification', async () => {
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

  // Passwords -----------------------------------------------------------------------------------------

  /** Same answer for known and unknown addresses; the work happens after the answer. */
  async forgotPassword(ctx: ServiceContext, email: string) {
    await this.app.limits.hit(`acct:forgot:${email}`, ACCOUNT_LIMIT.max, ACCOUNT_LIMIT.windowMs);
    this.inBackground('password reset request', async () => {
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
        session = await this.openSession(tx, ctx, userId, tokenVersion);
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
    return this.pair(userId, tokenVersion, session);
  }

  // Profile -------------------------------------------------------------------------------------------

  async updateProfile(
    userId: string,
    profile: {
      language_preference?: 'fr' | 'en' | undefined;
      first_name?: string | undefined;
      last_name?: string | undefined;
    },
  ): Promise<AuthUser> {
    await repo.updateProfile(this.db, userId, {
      ...(profile.language_preference ? { languagePreference: profile.language_preference } : {}),
      ...(profile.first_name !== undefined ? { firstName: profile.first_name } : {}),
      ...(profile.last_name !== undefined ? { lastName: profile.last_name } : {}),
    });
    return (await loadAuthUser(this.db, userId))!;
  }

  // Locked session: PIN or password -------------------------------------------------------------------

  async setPin(ctx: ServiceContext, pin: string, password: string) {
    const userId = actingUser(ctx).id;
    const account = await repo.findAccountById(this.db, userId);
    if (!account || !(await verifySecret(account.passwordHash, password)))
      throw badRequest({ password: ['password.wrong'] });
    const pinHash = await hashSecret(pin);
    await this.db.transaction(async (tx) => {
      await repo.setPinHash(tx, userId, pinHash);
      await this.app.audit.record(ctx, { action: 'auth.pin_set', hospitalId: null }, tx);
    });
  }

  async removePin(ctx: ServiceContext) {
    await this.db.transaction(async (tx) => {
      await repo.setPinHash(tx, actingUser(ctx).id, null);
      await this.app.audit.record(ctx, { action: 'auth.pin_removed', hospitalId: null }, tx);
    });
  }

  /**
   * Unlocks a locked session with the PIN or the password. Success resets the failure count; the fifth
   * failure in a row closes this session (401 pin_locked) and nothing else.
   */
  async unlock(ctx: ServiceContext, method: 'pin' | 'password', secret: string): Promise<UnlockResult> {
    const userId = actingUser(ctx).id;
    const account = await repo.findAccountById(this.db, userId);
    if (!account) throw unauthorized();
    const hash = method === 'pin' ? account.pinHash : account.passwordHash;
    if (!hash) throw conflict('pin.not_set');
    if (await verifySecret(hash, secret)) {
      await repo.resetUnlockFailures(this.db, userId);
      return { ok: true };
    }
    const failures = await repo.addUnlockFailure(this.db, userId);
    if (failures < MAX_UNLOCK_FAILURES) return { ok: false, attemptsLeft: MAX_UNLOCK_FAILURES - failures };
    await this.db.transaction(async (tx) => {
      await repo.resetUnlockFailures(tx, userId);
      if (ctx.sessionId) await repo.revokeSession(tx, ctx.sessionId, 'pin_locked');
      await this.app.audit.record(
        ctx,
        {
          action: 'auth.pin_lockout',
          outcome: 'denied',
          hospitalId: null,
          resourceType: 'session',
          resourceId: ctx.sessionId,
          details: { method, failures },
        },
        tx,
      );
    });
    throw new ApiError(401, 'pin.locked', { code: 'pin_locked' });
  }

  // Helpers -------------------------------------------------------------------------------------------

  /** Waits for the work done after answering (resend, forgot-password) and for mail deliveries. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.app.mailer.idle();
  }

  private inBackground(label: string, work: () => Promise<void>) {
    const job = work().catch((err: unknown) => this.app.log.error({ err }, `${label} failed`));
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  private async openSession(tx: Queryable, ctx: ServiceContext, userId: string, tokenVersion: number) {
    const sessionId = await repo.insertSession(tx, {
      userId,
      tokenVersion,
      userAgent: ctx.userAgent,
      ip: ctx.ip ?? null,
    });
    const refresh = newSecretToken();
    await repo.insertRefreshToken(tx, {
      sessionId,
      tokenHash: sha256(refresh),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
    });
    return { sessionId, refresh };
  }

  private async pair(
    userId: string,
    tokenVersion: number,
    session: { sessionId: string; refresh: string },
  ): Promise<TokenPair> {
    const access = await signAccessToken(this.app.config.jwtSecret, {
      userId,
      tokenVersion,
      sessionId: session.sessionId,
    });
    return { access, refresh: session.refresh };
  }
}

/** A username not taken yet, from the local part of the email (registration, invitations). */
export async function freeUsername(db: Queryable, email: string): Promise<string> {
  let base = (email.split('@')[0] ?? '').replace(/[^\w.@+-]/g, '').slice(0, 140);
  if (base.length < 3) base = `user${base}`;
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = attempt === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
    if (!(await repo.usernameTaken(db, candidate))) return candidate;
  }
  return `${base}-${randomBytes(8).toString('hex')}`;
}
