/**
 * Staff of a hospital in SQL (issue 15, decision 0020). Every query starts from the hospital's memberships
 * (index `memberships_hospital_user_idx`): a person of another hospital is never read, not even counted.
 */
import type { StaffLastLogin, StaffStatus, TStaffMembership } from '@greensen/shared/contracts/staff';
import { ROLE_CODES, ROLE_GROUPS } from '@greensen/shared/domain/roles';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { memberships, users } from '../../db/schema/index.js';
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

type PersonRow = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  email_verified: boolean;
  member_active: boolean;
  accepted: boolean;
  invitation_live: boolean;
  last_login_at: Date | string | null;
  language_preference: string;
  has_pin: boolean;
  failed_unlock_attempts: number;
  created_at: Date | string;
};

type MembershipRow = {
  id: string;
  user_id: string;
  role_code: string;
  is_active: boolean;
  created_at: Date | string;
  d_id: string | null;
  d_code: string | null;
  d_name: string | null;
};

/**
 * The hospital's people: one row per user with a membership there, active or not. `accepted`: the person accepted
 * at least one membership here (issue 36, decision 0060); until then the hospital sees only what its administrator
 * typed in the invitation — never the account's own name, sign-in or PIN, so that an invitation tells nothing about
 * whether the address already had an account.
 */
const staffOf = (hospitalId: string) => sql`(
  select m.user_id, bool_or(m.is_active) as member_active, bool_or(m.accepted_at is not null) as accepted,
    bool_or(m.invitation_token_hash is not null and m.invitation_expires_at > now()) as invitation_live,
    (array_agg(m.invitation order by m.created_at desc) filter (where m.invitation is not null))[1] as invitation,
    min(m.created_at) as joined_at
    from memberships m where m.hospital_id = ${hospitalId} group by m.user_id) s
  join users u on u.id = s.user_id`;

/** What the hospital may see of the person: the account's own facts once accepted, the invitation's before. */
const FIRST_NAME = sql`(case when s.accepted then u.first_name else coalesce(s.invitation->>'first_name', '') end)`;
const LAST_NAME = sql`(case when s.accepted then u.last_name else coalesce(s.invitation->>'last_name', '') end)`;
const LAST_LOGIN = sql`(case when s.accepted then u.last_login_at end)`;

const PERSON_COLUMNS = sql`u.id, u.email, ${FIRST_NAME} as first_name, ${LAST_NAME} as last_name, u.is_active,
  u.email_verified_at is not null as email_verified, s.member_active, s.accepted, s.invitation_live,
  ${LAST_LOGIN} as last_login_at,
  (case when s.accepted then u.language_preference else coalesce(s.invitation->>'language', 'fr') end)
    as language_preference,
  s.accepted and u.pin_hash is not null as has_pin,
  (case when s.accepted then u.failed_unlock_attempts else 0 end) as failed_unlock_attempts,
  (case when s.accepted then u.created_at else s.joined_at end) as created_at`;

function conditions(hospitalId: string, f: StaffFilters): SQL {
  const where: SQL[] = [sql`true`];
  if (f.search) {
    const pattern = containsPattern(f.search);
    where.push(
      sql`unaccent(${FIRST_NAME} || ' ' || ${LAST_NAME} || ' ' || ${LAST_NAME} || ' ' || ${FIRST_NAME} || ' ' || u.email) ilike unaccent(${pattern})`,
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
      where.push(sql`${LAST_LOGIN} is null`);
      break;
    case 'within_7d':
      where.push(sql`${LAST_LOGIN} >= now() - interval '7 days'`);
      break;
    case 'within_30d':
      where.push(sql`${LAST_LOGIN} >= now() - interval '30 days'`);
      break;
    case 'over_30d':
      where.push(sql`${LAST_LOGIN} < now() - interval '30 days'`);
      break;
  }
  return sql.join(where, sql` and `);
}

const ORDERINGS: Record<StaffFilters['ordering'], SQL> = {
  name: sql`lower(${LAST_NAME}), lower(${FIRST_NAME}), u.id`,
  '-name': sql`lower(${LAST_NAME}) desc, lower(${FIRST_NAME}) desc, u.id`,
  last_login: sql`${LAST_LOGIN} asc nulls first, u.id`,
  '-last_login': sql`${LAST_LOGIN} desc nulls last, u.id`,
};

export function statusOf(
  p: Pick<PersonRow, 'is_active' | 'member_active' | 'email_verified' | 'accepted' | 'invitation_live'>,
): StaffStatus {
  // An invitation not accepted: invited while its link works, else inactive (cancelled or expired).
  if (!p.accepted) return p.invitation_live ? 'invited' : 'inactive';
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
    accepted: p.accepted,
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

/** Switches every membership of the user in the hospital on or off; returns how many changed. */
export async function setMembershipsActive(
  q: Queryable,
  hospitalId: string,
  userId: string,
  active: boolean,
): Promise<number> {
  const res = await q.execute<{ id: string }>(sql`
    update memberships set is_active = ${active}, updated_at = now()
     where hospital_id = ${hospitalId} and user_id = ${userId} and is_active <> ${active}
       and accepted_at is not null returning id`);
  return res.rows.length;
}

/** Ends the person's invitations to the hospital that were not accepted (their links stop working). */
export async function cancelInvitations(
  q: Queryable,
  hospitalId: string,
  userId: string,
  membershipId?: string,
) {
  const res = await q.execute<{ id: string }>(sql`
    update memberships set invitation_token_hash = null, invitation_expires_at = null, updated_at = now()
     where hospital_id = ${hospitalId} and user_id = ${userId} and accepted_at is null
       and invitation_token_hash is not null ${membershipId ? sql`and id = ${membershipId}` : sql``}
     returning id`);
  return res.rows.length;
}

/** Gives the person's unaccepted memberships of the hospital a new invitation token (the old links stop). */
export async function renewInvitations(
  q: Queryable,
  hospitalId: string,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
) {
  // One token per membership: the first (oldest) carries the link; the others are accepted with it.
  const res = await q.execute<{ id: string }>(sql`
    update memberships set invitation_token_hash = case when id = (
        select id from memberships where hospital_id = ${hospitalId} and user_id = ${userId} and accepted_at is null
         order by created_at, id limit 1) then ${tokenHash} else null end,
      invitation_expires_at = ${expiresAt.toISOString()}::timestamptz, updated_at = now()
     where hospital_id = ${hospitalId} and user_id = ${userId} and accepted_at is null returning id`);
  return res.rows.length;
}

/** The pending invitation of a token, still valid, with its hospital (locked for the acceptance), or null. */
export async function findInvitation(q: Queryable, tokenHash: string, lock = false) {
  const res = await q.execute<{
    id: string;
    user_id: string;
    hospital_id: string;
    hospital_name: string;
    role_code: string;
    email: string;
    email_verified: boolean;
  }>(sql`
    select m.id, m.user_id, m.hospital_id, h.name as hospital_name, m.role_code, u.email,
      u.email_verified_at is not null as email_verified
      from memberships m join hospitals h on h.id = m.hospital_id join users u on u.id = m.user_id
     where m.invitation_token_hash = ${tokenHash} and m.invitation_expires_at > now() and m.accepted_at is null
       and h.is_active ${lock ? sql`for update of m` : sql``}`);
  return res.rows[0] ?? null;
}

/** Accepts every unaccepted membership of the person in the hospital (the invitation's and its siblings). */
export async function acceptInvitations(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ id: string }>(sql`
    update memberships set accepted_at = now(), is_active = true, invitation_token_hash = null,
      invitation_expires_at = null, invitation = null, updated_at = now()
     where hospital_id = ${hospitalId} and user_id = ${userId} and accepted_at is null returning id`);
  return res.rows.length;
}

/**
 * How many hospitals the person works in (an active membership) that `callerId` does not administer (issue 36):
 * zero means the caller administers every hospital of the person, who is theirs to act on as a person.
 */
export async function hospitalsNotAdministered(q: Queryable, userId: string, callerId: string) {
  const res = await q.execute<{ n: number }>(sql`
    select count(distinct m.hospital_id)::int as n from memberships m
     where m.user_id = ${userId} and m.is_active
       and not exists (select 1 from memberships a where a.user_id = ${callerId} and a.hospital_id = m.hospital_id
         and a.is_active and a.role_code in (${sqlList(ADMIN_ROLE_CODES)}))`);
  return Number(res.rows[0]?.n ?? 0);
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

/** Disables an account: its tokens stop at once (a version one higher) and it signs in no more. */
export async function disableAccount(q: Queryable, userId: string) {
  await q
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date(), isActive: false })
    .where(eq(users.id, userId));
}

/**
 * Enables an account again (its tokens of before stay dead: `disableAccount` moved their version). With
 * `onlyIfDisabled`, an account that is active already is left untouched (its `updated_at` too).
 */
export async function enableAccount(q: Queryable, userId: string, onlyIfDisabled = false) {
  await q
    .update(users)
    .set({ isActive: true, updatedAt: new Date() })
    .where(onlyIfDisabled ? and(eq(users.id, userId), eq(users.isActive, false)) : eq(users.id, userId));
}

/** A new membership (an invitation's, inactive until accepted, or an accepted one); returns its id. */
export async function insertMembership(
  q: Queryable,
  values: typeof memberships.$inferInsert,
): Promise<string> {
  const [row] = await q.insert(memberships).values(values).returning({ id: memberships.id });
  return row!.id;
}

/** Switches one membership on or off. */
export async function setMembershipActive(q: Queryable, id: string, active: boolean) {
  await q.update(memberships).set({ isActive: active, updatedAt: new Date() }).where(eq(memberships.id, id));
}

/** A member's active memberships in the hospital: her roles and their departments (null: all of them). */
export async function activeMembershipsOf(
  q: Queryable,
  hospitalId: string,
  userId: string,
): Promise<{ role_code: string; department_id: string | null }[]> {
  const res = await q.execute<{ role_code: string; department_id: string | null }>(
    sql`select role_code, department_id from memberships
      where hospital_id = ${hospitalId} and user_id = ${userId} and is_active`,
  );
  return res.rows;
}
