/**
 * Staff of a hospital in SQL (issue 15, decision 0020). Every query starts from the hospital's memberships
 * (index `memberships_hospital_user_idx`): a person of another hospital is never read, not even counted.
 */
import type { StaffLastLogin, StaffStatus, TStaffMembership } from '@greensen/shared/contracts/staff';
import { ROLE_CODES, ROLE_GROUPS } from '@greensen/shared/domain/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { containsPattern, sqlList } from '../../lib/queries.js';

export const ADMIN_ROLE_CODES = ROLE_CODES.filter((code) => ROLE_GROUPS[code] === 'admin');

export interface StaffFilters {
  search?: string | undefined;
  role?: string | undefined;
  department?: string | undefined;
  active?: boolean | undefined;
  last_login?: StaffLastLogin | undefined;
  ordering: 'name' | '-name' | 'last_login' | '-last_login';
}

interface PersonRow {
  [column: string]: unknown;
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  email_verified: boolean;
  member_active: boolean;
  last_login_at: Date | string | null;
  language_preference: string;
  has_pin: boolean;
  failed_unlock_attempts: number;
  created_at: Date | string;
}

interface MembershipRow {
  [column: string]: unknown;
  id: string;
  user_id: string;
  role_code: string;
  is_active: boolean;
  created_at: Date | string;
  d_id: string | null;
  d_code: string | null;
  d_name: string | null;
}

/** The hospital's people: one row per user with a membership there, active or not. */
const staffOf = (hospitalId: string) => sql`(
  select m.user_id, bool_or(m.is_active) as member_active
    from memberships m where m.hospital_id = ${hospitalId} group by m.user_id) s
  join users u on u.id = s.user_id`;

const PERSON_COLUMNS = sql`u.id, u.email, u.first_name, u.last_name, u.is_active,
  u.email_verified_at is not null as email_verified, s.member_active, u.last_login_at, u.language_preference,
  u.pin_hash is not null as has_pin, u.failed_unlock_attempts, u.created_at`;

function conditions(hospitalId: string, f: StaffFilters): SQL {
  const where: SQL[] = [sql`true`];
  if (f.search) {
    const pattern = containsPattern(f.search);
    where.push(
      sql`unaccent(u.first_name || ' ' || u.last_name || ' ' || u.last_name || ' ' || u.first_name || ' ' || u.email) ilike unaccent(${pattern})`,
    );
  }
  const membershipWhere: SQL[] = [];
  if (f.role) membershipWhere.push(sql`m2.role_code = ${f.role}`);
  if (f.department) membershipWhere.push(sql`m2.department_id = ${f.department}`);
  if (membershipWhere.length)
    where.push(sql`exists (select 1 from memberships m2 where m2.hospital_id = ${hospitalId}
      and m2.user_id = u.id and m2.is_active and ${sql.join(membershipWhere, sql` and `)})`);
  if (f.active === true) where.push(sql`u.is_active and s.member_active`);
  if (f.active === false) where.push(sql`not (u.is_active and s.member_active)`);
  switch (f.last_login) {
    case 'never':
      where.push(sql`u.last_login_at is null`);
      break;
    case 'within_7d':
      where.push(sql`u.last_login_at >= now() - interval '7 days'`);
      break;
    case 'within_30d':
      where.push(sql`u.last_login_at >= now() - interval '30 days'`);
      break;
    case 'over_30d':
      where.push(sql`u.last_login_at < now() - interval '30 days'`);
      break;
  }
  return sql.join(where, sql` and `);
}

const ORDERINGS: Record<StaffFilters['ordering'], SQL> = {
  name: sql`lower(u.last_name), lower(u.first_name), u.id`,
  '-name': sql`lower(u.last_name) desc, lower(u.first_name) desc, u.id`,
  last_login: sql`u.last_login_at asc nulls first, u.id`,
  '-last_login': sql`u.last_login_at desc nulls last, u.id`,
};

export function statusOf(p: Pick<PersonRow, 'is_active' | 'member_active' | 'email_verified'>): StaffStatus {
  if (!p.is_active || !p.member_active) return 'inactive';
  return p.email_verified ? 'active' : 'invited';
}

function toMembership(r: MembershipRow): TStaffMembership {
  return {
    id: r.id,
    role_code: r.role_code,
    department: r.d_id ? { id: r.d_id, code: r.d_code ?? '', name: r.d_name ?? '' } : null,
    is_active: r.is_active,
    created_at: isoRequired(r.created_at),
  };
}

function toPerson(p: PersonRow, memberships: TStaffMembership[]) {
  return {
    id: p.id,
    email: p.email,
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: fullName(p.first_name, p.last_name) || p.email,
    status: statusOf(p),
    last_login_at: iso(p.last_login_at),
    roles: memberships
      .filter((m) => m.is_active)
      .map((m) => ({ role_code: m.role_code, department: m.department })),
  };
}

/** The memberships in the hospital of the given people, oldest first (what drives the dashboard). */
async function membershipsOf(q: Queryable, hospitalId: string, userIds: string[]) {
  if (userIds.length === 0) return new Map<string, TStaffMembership[]>();
  const res = await q.execute<MembershipRow>(sql`
    select m.id, m.user_id, m.role_code, m.is_active, m.created_at, d.id as d_id, d.code as d_code, d.name as d_name
      from memberships m left join departments d on d.id = m.department_id
     where m.hospital_id = ${hospitalId} and m.user_id in (${sqlList(userIds)})
     order by m.created_at, m.id`);
  const byUser = new Map<string, TStaffMembership[]>();
  for (const r of res.rows) {
    const list = byUser.get(r.user_id) ?? [];
    list.push(toMembership(r));
    byUser.set(r.user_id, list);
  }
  return byUser;
}

/** A page of the hospital's staff with their active roles there. */
export async function listStaff(
  q: Queryable,
  hospitalId: string,
  f: StaffFilters,
  limit: number,
  offset: number,
) {
  const where = conditions(hospitalId, f);
  const rows = await q.execute<PersonRow>(sql`
    select ${PERSON_COLUMNS} from ${staffOf(hospitalId)}
     where ${where} order by ${ORDERINGS[f.ordering]} limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from ${staffOf(hospitalId)} where ${where}`,
  );
  const memberships = await membershipsOf(
    q,
    hospitalId,
    rows.rows.map((r) => r.id),
  );
  return {
    count: Number(counted.rows[0]?.n ?? 0),
    rows: rows.rows.map((p) => toPerson(p, memberships.get(p.id) ?? [])),
  };
}

/** One person of the hospital with every membership there, or null (not a member of this hospital). */
export async function findStaff(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<PersonRow>(sql`
    select ${PERSON_COLUMNS} from ${staffOf(hospitalId)} where u.id = ${userId}`);
  const p = res.rows[0];
  if (!p) return null;
  const memberships = (await membershipsOf(q, hospitalId, [p.id])).get(p.id) ?? [];
  return {
    ...toPerson(p, memberships),
    language_preference: p.language_preference === 'en' ? ('en' as const) : ('fr' as const),
    has_pin: p.has_pin,
    failed_unlock_attempts: Number(p.failed_unlock_attempts),
    created_at: isoRequired(p.created_at),
    memberships,
    is_account_active: p.is_active,
    email_verified: p.email_verified,
  };
}
export type StaffPerson = NonNullable<Awaited<ReturnType<typeof findStaff>>>;

/**
 * Locks the hospital's row for the rest of the transaction: the writes that may remove an administrator run one
 * at a time per hospital, so that two of them can never each leave the other as the last one and both pass.
 */
export async function lockHospital(q: Queryable, hospitalId: string) {
  await q.execute(sql`select id from hospitals where id = ${hospitalId} for update`);
}

/** People who administer the hospital now: an active, verified account with an active administrator role. */
export async function activeAdministrators(q: Queryable, hospitalId: string): Promise<number> {
  const res = await q.execute<{ n: number }>(sql`
    select count(distinct m.user_id)::int as n from memberships m join users u on u.id = m.user_id
     where m.hospital_id = ${hospitalId} and m.is_active and u.is_active and u.email_verified_at is not null
       and m.role_code in (${sqlList(ADMIN_ROLE_CODES)})`);
  return Number(res.rows[0]?.n ?? 0);
}

/** Active memberships of the user in active hospitals other than `except`. */
export async function otherActiveMemberships(q: Queryable, userId: string, except: string) {
  const res = await q.execute<{ n: number }>(sql`
    select count(*)::int as n from memberships m join hospitals h on h.id = m.hospital_id
     where m.user_id = ${userId} and m.is_active and h.is_active and m.hospital_id <> ${except}`);
  return Number(res.rows[0]?.n ?? 0);
}

/** Switches every membership of the user in the hospital on or off; returns how many changed. */
export async function setMembershipsActive(
  q: Queryable,
  hospitalId: string,
  userId: string,
  active: boolean,
): Promise<number> {
  const res = await q.execute<{ id: string }>(sql`
    update memberships set is_active = ${active}, updated_at = now()
     where hospital_id = ${hospitalId} and user_id = ${userId} and is_active <> ${active} returning id`);
  return res.rows.length;
}

/** An active department of the hospital, or null. */
export async function activeDepartment(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ id: string; is_active: boolean }>(
    sql`select id, is_active from departments where id = ${id} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** The membership (user, hospital, department, role) whatever its state, or null. */
export async function findSameMembership(
  q: Queryable,
  v: { userId: string; hospitalId: string; departmentId: string | null; roleCode: string },
) {
  const res = await q.execute<{ id: string; is_active: boolean }>(sql`
    select id, is_active from memberships
     where user_id = ${v.userId} and hospital_id = ${v.hospitalId} and role_code = ${v.roleCode}
       and coalesce(department_id, '00000000-0000-0000-0000-000000000000'::uuid)
         = coalesce(${v.departmentId}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)`);
  return res.rows[0] ?? null;
}

/** A membership of the user in the hospital, or null. */
export async function findMembership(q: Queryable, hospitalId: string, userId: string, id: string) {
  const res = await q.execute<{ id: string; is_active: boolean; role_code: string }>(sql`
    select id, is_active, role_code from memberships
     where id = ${id} and hospital_id = ${hospitalId} and user_id = ${userId}`);
  return res.rows[0] ?? null;
}
