import { createHash, randomBytes } from 'node:crypto';
import type { TWaitingByHospital } from '@greensen/shared/contracts/profile';
import { roleLabel } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import type { ServiceContext } from '../../lib/context.js';
import { ApiError, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { Lang } from '../../lib/i18n.js';
import { dummyHash, verifySecret } from '../../lib/passwords.js';
import { REFRESH_TOKEN_TTL_S, signAccessToken } from '../../lib/tokens.js';
import { type AuthUser, loadAuthUser, waitingByHospital } from '../users/users.repository.js';
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
/** An id as a mailed link carries it (verification, reset). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A random secret of 256 bits, URL-safe. Only its SHA-256 is stored. */
export const newSecretToken = () => randomBytes(32).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface TokenPair {
  access: string;
  refresh: string;
}

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
 * Sessions and the profile. A session is a refresh-token family: login opens one, every refresh rotates its
 * token, a rotated token presented again revokes the family, logout and resets revoke it. Access tokens carry the
 * session id (`sid`) so that they die with it (plugins/access.ts). Registration, passwords and the PIN are
 * `registration.service.ts`, `passwords.service.ts` and `pin.service.ts`; their work after the answer runs here
 * (`inBackground`), so that `idle()` waits for all of it.
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

  // Helpers -------------------------------------------------------------------------------------------

  /** Waits for the work done after answering (resend, forgot-password) and for mail deliveries. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.app.mailer.idle();
  }

  /** Work done after answering (resend, forgot-password): `idle()` waits for it. */
  inBackground(label: string, work: () => Promise<void>) {
    const job = work().catch((err: unknown) => this.app.log.error({ err }, `${label} failed`));
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  /** A new session of the user and its first refresh token. */
  async openSession(tx: Queryable, ctx: ServiceContext, userId: string, tokenVersion: number) {
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

  /** The access token of a session and its refresh token. */
  async pair(
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
