import type { TNotification, TNotificationStatus } from '@greensen/shared/contracts/notifications';
import { ROLE_GROUPS } from '@greensen/shared/domain/roles';
import { and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../../db/client.js';
import { hospitals, memberships, notifications, users } from '../../db/schema/index.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;

/** The API shape of a notification (list item and socket message). */
export function toNotificationDto(row: NotificationRow): TNotification {
  return {
    id: row.id,
    notification_type: row.notificationType,
    title: row.title,
    message: row.message,
    data: row.data ?? {},
    initiated_by: row.initiatedBy,
    is_read: row.isRead,
    read_at: row.readAt ? row.readAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    hospital: row.hospitalId,
  };
}

interface Owner {
  userId: string;
  hospitalId: string;
}

/** The live (not deleted) notifications of a user in a hospital. */
const ownedBy = ({ userId, hospitalId }: Owner) =>
  and(
    eq(notifications.recipientId, userId),
    eq(notifications.hospitalId, hospitalId),
    isNull(notifications.deletedAt),
  );

const statusFilter = (status: TNotificationStatus) =>
  status === 'unread'
    ? eq(notifications.isRead, false)
    : status === 'read'
      ? eq(notifications.isRead, true)
      : undefined;

export async function listNotifications(
  db: Queryable,
  owner: Owner & { status: TNotificationStatus; limit: number; offset: number },
): Promise<{ rows: NotificationRow[]; total: number }> {
  const where = and(ownedBy(owner), statusFilter(owner.status));
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(owner.limit)
      .offset(owner.offset),
    db.select({ n: count() }).from(notifications).where(where),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function unreadCount(db: Queryable, owner: Owner): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(ownedBy(owner), eq(notifications.isRead, false)));
  return row?.n ?? 0;
}

/** Marks the given (or, with null, every) unread notification read; returns the ids it changed. */
export async function markRead(db: Queryable, owner: Owner & { ids: readonly string[] | null }) {
  if (owner.ids && owner.ids.length === 0) return [];
  const rows = await db
    .update(notifications)
    .set({ isRead: true, readAt: new Date() })
    .where(
      and(
        ownedBy(owner),
        eq(notifications.isRead, false),
        owner.ids ? inArray(notifications.id, [...owner.ids]) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return rows.map((r) => r.id);
}

/** Soft-deletes one notification of the owner; false when there is none with that id. */
export async function softDelete(db: Queryable, owner: Owner & { id: string }): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ deletedAt: new Date() })
    .where(and(ownedBy(owner), eq(notifications.id, owner.id)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

/**
 * Inserts the notifications of one event in one statement with one parameter (the rows as a JSON array),
 * whatever the number of recipients: as `values(rows)` the statement had ten parameters a row, and building it
 * took 100–200 ms for 200 recipients on the bench machine — the whole delay of a notification to every nurse
 * (issue 16, scenario 10). Ids are UUID v7 made here, in the rows' order, as the column's default would.
 */
export async function insertNotifications(db: Queryable, rows: NewNotificationRow[]) {
  if (rows.length === 0) return [];
  return insertNotificationsStatement(db, rows);
}

/** The statement of `insertNotifications` (not run). */
export function insertNotificationsStatement(db: Queryable, rows: NewNotificationRow[]) {
  const records = rows.map((r) => ({
    id: r.id ?? uuidv7(),
    recipient_id: r.recipientId,
    hospital_id: r.hospitalId,
    notification_type: r.notificationType,
    title: r.title,
    message: r.message ?? '',
    data: r.data ?? {},
    initiated_by: r.initiatedBy ?? null,
  }));
  // Every column of the table, in its order (the insert lists them all).
  return db
    .insert(notifications)
    .select(
      sql`select r.id, r.recipient_id, r.hospital_id, r.notification_type::notification_type, r.title, r.message,
          r.data, r.initiated_by, false, null::timestamptz, now(), null::timestamptz
        from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(id uuid, recipient_id uuid,
          hospital_id uuid, notification_type text, title text, message text, data jsonb, initiated_by uuid)
        order by r.id`,
    )
    .returning();
}

/** Language preference of each existing user among `ids` (one array parameter, however many users). */
export async function languagesOf(db: Queryable, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: users.id, language: users.languagePreference })
    .from(users)
    .where(sql`${users.id} = any(${`{${ids.join(',')}}`}::uuid[])`);
  return new Map(rows.map((r) => [r.id, r.language]));
}

const ADMIN_ROLE_CODES = Object.entries(ROLE_GROUPS)
  .filter(([, group]) => group === 'admin')
  .map(([code]) => code);

/** Active administrators of every active hospital (role group admin), except `exceptUserId`. */
export async function hospitalAdministrators(db: Queryable, exceptUserId: string) {
  const rows = await db
    .selectDistinct({ hospitalId: memberships.hospitalId, userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(hospitals, eq(hospitals.id, memberships.hospitalId))
    .where(
      and(
        eq(memberships.isActive, true),
        eq(users.isActive, true),
        eq(hospitals.isActive, true),
        ne(users.id, exceptUserId),
        inArray(sql`upper(${memberships.roleCode})`, ADMIN_ROLE_CODES),
      ),
    );
  const byHospital = new Map<string, string[]>();
  for (const r of rows) byHospital.set(r.hospitalId, [...(byHospital.get(r.hospitalId) ?? []), r.userId]);
  return byHospital;
}
