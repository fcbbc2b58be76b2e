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
  /** The hospital the person last worked in (listed first in `memberships`). */
  lastHospitalId: string | null;
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
        lastHospitalId: users.lastHospitalId,
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
    // The hospital the person last worked in first (issue 25), then by code.
    .orderBy(
      sql`${hospitals.id} = ${users.lastHospitalId} desc nulls last`,
      hospitals.code,
      memberships.createdAt,
    );
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
    lastHospitalId: u.lastHospitalId,
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

/**
 * Remembers the hospital a person works in (issue 25), on hospital-scoped requests. It writes when the user as
 * loaded (possibly from the auth cache) names another hospital, at most once a minute per person and hospital in
 * this process while the cache catches up: a day of requests costs about one update per change of hospital.
 */
const recentWrites = new Map<string, number>();
export async function rememberHospital(db: Queryable, user: AuthUser, hospitalId: string) {
  if (user.lastHospitalId === hospitalId) return;
  const key = `${user.id}:${hospitalId}`;
  const now = Date.now();
  if (now - (recentWrites.get(key) ?? 0) < 60_000) return;
  if (recentWrites.size > 50_000) recentWrites.clear();
  recentWrites.set(key, now);
  await db.execute(
    sql`update users set last_hospital_id = ${hospitalId} where id = ${user.id} and last_hospital_id is distinct from ${hospitalId}`,
  );
}

/**
 * What waits for a user in each of her hospitals (issue 25): her open consultation executions, the validated
 * abnormal results of her exam orders she has not acknowledged, her unread notifications. Counts only, each from
 * an index (`executions_doctor_status_idx`, `exam_orders_requester_idx`, the unread notifications' index).
 */
export async function waitingByHospital(db: Queryable, userId: string, hospitalIds: readonly string[]) {
  if (hospitalIds.length === 0) return [];
  const res = await db.execute<{
    hospital: string;
    waiting_patients: number;
    abnormal_results: number;
    unread_notifications: number;
  }>(sql`select h.id as hospital,
      (select count(*) from executions e where e.doctor_id = ${userId} and e.hospital_id = h.id
        and e.status in ('assigned', 'in_progress'))::int as waiting_patients,
      (select count(*) from exam_orders o where o.requested_by = ${userId} and o.hospital_id = h.id
        and o.status = 'validated' and o.abnormal and o.acknowledged_at is null)::int as abnormal_results,
      (select count(*) from notifications n where n.recipient_id = ${userId} and n.hospital_id = h.id
        and n.deleted_at is null and not n.is_read)::int as unread_notifications
    from hospitals h
    where h.id in (${sql.join(
      hospitalIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  return res.rows.map((r) => ({
    hospital: r.hospital,
    waiting_patients: Number(r.waiting_patients),
    abnormal_results: Number(r.abnormal_results),
    unread_notifications: Number(r.unread_notifications),
  }));
}
