import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

// The SQL of the personal iCalendar links and their feed (issue 22); the rules are in calendar-feed.service.ts.

/** A user's link in the hospital that is not revoked, or null. */
export async function activeIcsLink(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ created_at: Date | string; last_used_at: Date | string | null }>(
    sql`select created_at, last_used_at from ics_links
      where hospital_id = ${hospitalId} and user_id = ${userId} and revoked_at is null`,
  );
  return res.rows[0] ?? null;
}

/** Revokes a user's links in the hospital (they stop working at once). */
export async function revokeIcsLinks(q: Queryable, hospitalId: string, userId: string) {
  await q.execute(sql`update ics_links set revoked_at = now()
    where hospital_id = ${hospitalId} and user_id = ${userId} and revoked_at is null`);
}

export async function insertIcsLink(
  q: Queryable,
  l: { id: string; hospitalId: string; userId: string; tokenHash: string },
) {
  await q.execute(sql`insert into ics_links (id, hospital_id, user_id, token_hash)
    values (${l.id}, ${l.hospitalId}, ${l.userId}, ${l.tokenHash})`);
}

/**
 * The link of a token's hash with its owner and hospital, while it is not revoked and the owner has an active
 * membership of the hospital (the owner's account may be inactive: `is_active`).
 */
export async function findIcsLinkByHash(q: Queryable, tokenHash: string) {
  const link = await q.execute<{
    id: string;
    hospital_id: string;
    user_id: string;
    language_preference: string;
    first_name: string;
    last_name: string;
    h_name: string;
    is_active: boolean;
  }>(sql`select l.id, l.hospital_id, l.user_id, u.language_preference, u.first_name, u.last_name,
      h.name as h_name, u.is_active
    from ics_links l join users u on u.id = l.user_id join hospitals h on h.id = l.hospital_id
    where l.token_hash = ${tokenHash} and l.revoked_at is null
      and exists (select 1 from memberships m where m.user_id = l.user_id and m.hospital_id = l.hospital_id
        and m.is_active)`);
  return link.rows[0] ?? null;
}

export async function touchIcsLink(q: Queryable, id: string) {
  await q.execute(sql`update ics_links set last_used_at = now() where id = ${id}`);
}

/** A provider's appointments not cancelled starting in `[from, to)`, in time order (at most 5,000). */
export async function feedAppointments(
  q: Queryable,
  hospitalId: string,
  providerId: string,
  from: Date,
  to: Date,
) {
  const rows = await q.execute<{
    id: string;
    start_at: Date | string;
    end_at: Date | string;
    appointment_type: string;
    status: string;
    record_number: string;
    d_name: string;
  }>(sql`select a.id, a.start_at, a.end_at, a.appointment_type, a.status, p.record_number, d.name as d_name
    from appointments a join patients p on p.id = a.patient_id join departments d on d.id = a.department_id
    where a.hospital_id = ${hospitalId} and a.provider_id = ${providerId} and a.status <> 'cancelled'
      and a.start_at >= ${from.toISOString()}::timestamptz
      and a.start_at < ${to.toISOString()}::timestamptz
    order by a.start_at limit 5000`);
  return rows.rows;
}
