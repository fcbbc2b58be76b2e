import { and, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { authSessions, emailTokens, refreshTokens, users } from '../../db/schema/index.js';
import { deleteInBatches, PURGE_BATCH } from '../../lib/queries.js';

export type EmailTokenPurpose = 'verify' | 'reset';

export interface AccountRow {
  id: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  pinHash: string | null;
  languagePreference: string;
  isActive: boolean;
  emailVerifiedAt: Date | null;
  tokenVersion: number;
}

const accountColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  passwordHash: users.passwordHash,
  pinHash: users.pinHash,
  languagePreference: users.languagePreference,
  isActive: users.isActive,
  emailVerifiedAt: users.emailVerifiedAt,
  tokenVersion: users.tokenVersion,
};

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | null> {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function findAccountById(db: Queryable, id: string): Promise<AccountRow | null> {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function usernameTaken(db: Queryable, username: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  return row !== undefined;
}

export async function insertAccount(
  db: Queryable,
  values: {
    email: string;
    username: string;
    firstName: string;
    lastName: string;
    passwordHash: string;
    languagePreference: string;
  },
): Promise<{ id: string }> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row!;
}

export async function recordLogin(db: Queryable, userId: string) {
  await db
    .update(users)
    .set({ lastLoginAt: new Date(), failedUnlockAttempts: 0 })
    .where(eq(users.id, userId));
}

/** New password: every token of the user stops working (token_version + 1). */
export async function setPassword(db: Queryable, userId: string, passwordHash: string) {
  const [row] = await db
    .update(users)
    .set({
      passwordHash,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      failedUnlockAttempts: 0,
      // Following a mailed reset link proves the address as well as a verification link does.
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
    })
    .where(eq(users.id, userId))
    .returning({ tokenVersion: users.tokenVersion });
  return row!.tokenVersion;
}

export async function markEmailVerified(db: Queryable, userId: string) {
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
    .where(eq(users.id, userId));
}

export async function updateProfile(
  db: Queryable,
  userId: string,
  values: { languagePreference?: string; firstName?: string; lastName?: string },
) {
  if (Object.keys(values).length === 0) return;
  await db.update(users).set(values).where(eq(users.id, userId));
}

export async function setPinHash(db: Queryable, userId: string, pinHash: string | null) {
  await db.update(users).set({ pinHash, failedUnlockAttempts: 0 }).where(eq(users.id, userId));
}

/** One more failed unlock; returns the new count (atomic). */
export async function addUnlockFailure(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ failedUnlockAttempts: sql`${users.failedUnlockAttempts} + 1` })
    .where(eq(users.id, userId))
    .returning({ n: users.failedUnlockAttempts });
  return row?.n ?? 0;
}

export async function resetUnlockFailures(db: Queryable, userId: string) {
  await db
    .update(users)
    .set({ failedUnlockAttempts: 0 })
    .where(and(eq(users.id, userId), ne(users.failedUnlockAttempts, 0)));
}

// Sessions and refresh tokens ---------------------------------------------------------------------------

export async function insertSession(
  db: Queryable,
  values: { userId: string; tokenVersion: number; userAgent: string | null; ip: string | null },
): Promise<string> {
  const [row] = await db.insert(authSessions).values(values).returning({ id: authSessions.id });
  return row!.id;
}

export async function insertRefreshToken(
  db: Queryable,
  values: { sessionId: string; tokenHash: string; expiresAt: Date },
): Promise<string> {
  const [row] = await db.insert(refreshTokens).values(values).returning({ id: refreshTokens.id });
  return row!.id;
}

/** Whether the account of `email` opened a session from `ip` in the last `days` days (sign-in throttling). */
export async function signedInFrom(db: Queryable, email: string, ip: string | null, days: number) {
  if (!ip) return false;
  const since = new Date(Date.now() - days * 24 * 3600 * 1000);
  const rows = await db
    .select({ id: authSessions.id })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(users.email, email), eq(authSessions.ip, ip), gte(authSessions.createdAt, since)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Retires the session's refresh tokens not used yet (they expire now): presented later, they are refused like an
 * expired token, without the reuse alarm that would end the session.
 */
export async function retireRefreshTokens(db: Queryable, sessionId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ expiresAt: new Date() })
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.usedAt)));
}

/**
 * Marks a refresh token used, atomically: only one caller can ever consume a given token. Returns the token
 * with its session and user, or null when the token is unknown or was already used.
 */
export async function consumeRefreshToken(db: Queryable, tokenHash: string) {
  const [token] = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt)))
    .returning({
      id: refreshTokens.id,
      sessionId: refreshTokens.sessionId,
      expiresAt: refreshTokens.expiresAt,
    });
  if (!token) return null;
  const [session] = await db
    .select({
      id: authSessions.id,
      userId: authSessions.userId,
      tokenVersion: authSessions.tokenVersion,
      revokedAt: authSessions.revokedAt,
      userActive: users.isActive,
      userTokenVersion: users.tokenVersion,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(eq(authSessions.id, token.sessionId));
  return session ? { token, session } : null;
}

export async function findRefreshToken(db: Queryable, tokenHash: string) {
  const [row] = await db
    .select({
      id: refreshTokens.id,
      usedAt: refreshTokens.usedAt,
      sessionId: refreshTokens.sessionId,
      userId: authSessions.userId,
      sessionRevokedAt: authSessions.revokedAt,
    })
    .from(refreshTokens)
    .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export async function linkRotation(db: Queryable, tokenId: string, replacedBy: string, sessionId: string) {
  await db.update(refreshTokens).set({ replacedBy }).where(eq(refreshTokens.id, tokenId));
  await db.update(authSessions).set({ lastUsedAt: new Date() }).where(eq(authSessions.id, sessionId));
}

/** The session survives a token-version change (password change from this session). */
export async function setSessionTokenVersion(db: Queryable, sessionId: string, tokenVersion: number) {
  await db.update(authSessions).set({ tokenVersion }).where(eq(authSessions.id, sessionId));
}

/** Revokes one session; true when it was still active. */
export async function revokeSession(db: Queryable, sessionId: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id });
  return rows.length > 0;
}

/** Revokes every active session of a user (but `exceptSessionId`); returns how many. */
export async function revokeUserSessions(
  db: Queryable,
  userId: string,
  reason: string,
  exceptSessionId?: string | null,
): Promise<number> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(
      and(
        eq(authSessions.userId, userId),
        isNull(authSessions.revokedAt),
        exceptSessionId ? ne(authSessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: authSessions.id });
  return rows.length;
}

// Mailed tokens ---------------------------------------------------------------------------------------

export async function insertEmailToken(
  db: Queryable,
  values: { userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date },
) {
  await db.insert(emailTokens).values(values);
}

/** Ends the still-unused tokens of one purpose (a new reset link replaces the previous ones). */
export async function invalidateEmailTokens(db: Queryable, userId: string, purpose: EmailTokenPurpose) {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

const usableToken = (userId: string, purpose: EmailTokenPurpose, tokenHash: string) =>
  and(
    eq(emailTokens.tokenHash, tokenHash),
    eq(emailTokens.userId, userId),
    eq(emailTokens.purpose, purpose),
    isNull(emailTokens.usedAt),
    gt(emailTokens.expiresAt, sql`now()`),
  );

export async function emailTokenUsable(
  db: Queryable,
  userId: string,
  purpose: EmailTokenPurpose,
  tokenHash: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(usableToken(userId, purpose, tokenHash))
    .limit(1);
  return row !== undefined;
}

/** Uses a mailed token once, atomically; false when it is unknown, of another user, used or expired. */
export async function consumeEmailToken(
  db: Queryable,
  userId: string,
  purpose: EmailTokenPurpose,
  tokenHash: string,
): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(usableToken(userId, purpose, tokenHash))
    .returning({ id: emailTokens.id });
  return rows.length > 0;
}

/**
 * Deletes what can no longer be used (the hourly `maintenance.purge` job): mail links and refresh tokens past
 * their expiry (refused anyway), then sessions left without any refresh token that nobody used for a refresh
 * token's lifetime (their access tokens expired long ago).
 */
export async function purgeExpiredAuth(q: Queryable, now: Date, sessionIdleBefore: Date) {
  const at = now.toISOString();
  const email_tokens = await deleteInBatches(
    q,
    sql`delete from email_tokens where id in (
      select id from email_tokens where expires_at < ${at}::timestamptz limit ${PURGE_BATCH}) returning id`,
  );
  const refresh_tokens = await deleteInBatches(
    q,
    sql`delete from refresh_tokens where id in (
      select id from refresh_tokens where expires_at < ${at}::timestamptz limit ${PURGE_BATCH}) returning id`,
  );
  const sessions = await deleteInBatches(
    q,
    sql`delete from auth_sessions where id in (
      select s.id from auth_sessions s
      where s.last_used_at < ${sessionIdleBefore.toISOString()}::timestamptz
        and not exists (select 1 from refresh_tokens t where t.session_id = s.id)
      limit ${PURGE_BATCH}) returning id`,
  );
  return { email_tokens, refresh_tokens, sessions };
}
