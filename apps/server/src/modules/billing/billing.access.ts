// SQL outside a repository: the billing staff rule as one predicate (billingRoles) other statements carry.
import { BILLING_MANAGER_GROUPS, BILLING_STAFF_GROUPS } from '@greensen/shared/domain/permissions';
import { roleGroup } from '@greensen/shared/domain/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';

/**
 * Billing staff (decision 0027): an active membership of an active department of kind `billing` of the hospital,
 * with a role of the secretary, queue-manager, nurse or head-doctor group. One query.
 */
export async function isBillingStaff(q: Queryable, ctx: ServiceContext): Promise<boolean> {
  const res = await q.execute<{ roles: string | null }>(sql`select ${billingRoles(ctx)} as roles`);
  return hasBillingStaffRole(res.rows[0]?.roles ?? null);
}

/**
 * The caller's roles in the hospital's active billing departments, as one comma-separated text (null: none): a
 * scalar subquery another statement can carry (the assembly reads it with its encounter).
 */
export function billingRoles(ctx: ServiceContext): SQL {
  const user = actingUser(ctx);
  const hospital = scopedHospital(ctx);
  return sql`(select string_agg(m.role_code, ',') from memberships m
    join departments d on d.id = m.department_id and d.kind = 'billing' and d.is_active
    where m.hospital_id = ${hospital.id} and m.user_id = ${user.id} and m.is_active)`;
}

/** Whether `billingRoles`'s answer holds a role of billing staff. */
export function hasBillingStaffRole(roles: string | null): boolean {
  return (roles ?? '')
    .split(',')
    .some((code) => code !== '' && BILLING_STAFF_GROUPS.includes(roleGroup(code)));
}

/** The cash desk's work (assemble, edit, issue, payments): billing staff only, else 403. */
export async function requireBillingStaff(q: Queryable, ctx: ServiceContext): Promise<void> {
  if (!(await isBillingStaff(q, ctx))) throw forbidden('billing.not_billing_staff');
}

/** Reads, reports and credit notes: the head doctor and administrators, or billing staff; else 403. */
export async function requireBillingReader(q: Queryable, ctx: ServiceContext): Promise<void> {
  const groups = scopedHospital(ctx).groups;
  if (groups.some((g) => BILLING_MANAGER_GROUPS.includes(g))) return;
  await requireBillingStaff(q, ctx);
}

/** Whether the caller is the head doctor or an administrator of the hospital. */
export function isBillingManager(ctx: ServiceContext): boolean {
  return scopedHospital(ctx).groups.some((g) => BILLING_MANAGER_GROUPS.includes(g));
}

/** A database error's SQLSTATE (through driver wrappers), or null. */
export function sqlState(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
