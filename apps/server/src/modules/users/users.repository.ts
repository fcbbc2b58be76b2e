import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { authSessions, departments, hospitals, memberships, users } from '../../db/schema/index.js';

export interface AuthMembership {
  hospitalId: string;
  hospitalName: string;
  hospitalCode: string;
  departmentId: string | null;
  departmentName: string | null;
  roleCode: string;
}

export interface AuthUser {
  id: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  languagePreference: string;
  isActive: boolean;
  emailVerified: boolean;
  tokenVersion: number;
  hasPin: boolean;
  memberships: AuthMembership[];
}

/** The user and their active memberships in active hospitals, in one query. */
export async function loadAuthUser(db: Queryable, userId: string): Promise<AuthUser | null> {
  return (await loadAuthUserInSession(db, userId, null))?.user ?? null;
}

/**
 * The user, their memberships and — when `sessionId` is given — whether that session (refresh-token family)
 * is still active, in one query (the session is joined by its primary key).
 */
export async function loadAuthUserInSession(
  db: Queryable,
  userId: string,
  sessionId: string | null,
): Promise<{ user: AuthUser; sessionActive: boolean } | null> {
  const rows = await db
    .select({
      user: {
        id: users.id,
        email: users.email,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        languagePreference: users.languagePreference,
        isActive: users.isActive,
        emailVerifiedAt: users.emailVerifiedAt,
        tokenVersion: users.tokenVersion,
        pinHash: users.pinHash,
      },
      hospitalId: hospitals.id,
      hospitalName: hospitals.name,
      hospitalCode: hospitals.code,
      departmentId: departments.id,
      departmentName: departments.name,
      roleCode: memberships.roleCode,
      sessionId: authSessions.id,
      sessionRevokedAt: authSessions.revokedAt,
    })
    .from(users)
    .leftJoin(
      authSessions,
      sessionId ? and(eq(authSessions.id, sessionId), eq(authSessions.userId, users.id)) : sql`false`,
    )
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.isActive, true)))
    .leftJoin(hospitals, and(eq(hospitals.id, memberships.hospitalId), eq(hospitals.isActive, true)))
    .leftJoin(departments, eq(departments.id, memberships.departmentId))
    .where(eq(users.id, userId))
    .orderBy(hospitals.code, memberships.createdAt);
  const first = rows[0];
  if (!first) return null;
  const u = first.user;
  const user: AuthUser = {
    id: u.id,
    email: u.email,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    languagePreference: u.languagePreference,
    isActive: u.isActive,
    emailVerified: u.emailVerifiedAt !== null,
    tokenVersion: u.tokenVersion,
    hasPin: u.pinHash !== null,
    memberships: rows.flatMap((r) =>
      r.hospitalId && r.hospitalName && r.hospitalCode && r.roleCode
        ? [
            {
              hospitalId: r.hospitalId,
              hospitalName: r.hospitalName,
              hospitalCode: r.hospitalCode,
              departmentId: r.departmentId,
              departmentName: r.departmentName,
              roleCode: r.roleCode,
            },
          ]
        : [],
    ),
  };
  return { user, sessionActive: first.sessionId !== null && first.sessionRevokedAt === null };
}
