/**
 * What the signed-in user may do in billing (issue 21, decision 0027), to hide what they may not: billing staff are
 * the members of a department of kind `billing` in the groups of `BILLING_STAFF_GROUPS` (the cash desk, invoices,
 * payments); the management (`BILLING_MANAGER_GROUPS`) reads everything, manages payers and issues credit notes.
 * The server checks the same rules on every route.
 */
import { BILLING_MANAGER_GROUPS, BILLING_STAFF_GROUPS } from '@greensen/shared/domain/permissions';
import { roleGroup } from '@greensen/shared/domain/roles';
import { useAuthStore } from '../../stores/auth';
import { rolesInHospital, useUserStore } from '../../stores/user';
import { type Department, useDepartments } from '../clinical/api/list-departments';
import { type Permissions, usePermissions } from '../permissions';

export interface BillingRights {
  /** Works at the cash desk: assembles, edits and issues invoices, takes payments (with an open session). */
  staff: boolean;
  /** Head doctor or administrator: reads every invoice, session and statement. */
  manager: boolean;
  /** Invoices, receipts, statements. */
  read: boolean;
  /** Credit notes. */
  credit: boolean;
  /** The catalogue's acts and tariffs, the payers. */
  manage: boolean;
  /** A patient's balance. */
  balance: boolean;
  /** False until the departments are known (the staff rule needs their kinds). */
  ready: boolean;
}

/**
 * The rights of `user` in `hospitalId` with `permissions` (its groups and actions), once the hospital's departments
 * are known (`departments`, undefined while they are asked for: not `ready`). The page's hook and the app's start
 * (billing's first queries, issue 38) decide with it.
 */
export function billingRightsOf(
  user: Parameters<typeof rolesInHospital>[0],
  hospitalId: string | null,
  { can, groups }: Pick<Permissions, 'can' | 'groups'>,
  departments: readonly Pick<Department, 'id' | 'kind'>[] | undefined,
): BillingRights {
  const billingDepartments = new Set(
    (departments ?? []).filter((d) => d.kind === 'billing').map((d) => d.id),
  );
  const staff = rolesInHospital(user, hospitalId).active_roles.some(
    (role) =>
      role.department != null &&
      billingDepartments.has(role.department) &&
      BILLING_STAFF_GROUPS.includes(roleGroup(role.role_code)),
  );
  const manager = groups.some((group) => BILLING_MANAGER_GROUPS.includes(group));
  return {
    staff: staff && can('billing.work'),
    manager,
    read: (staff || manager) && can('billing.read'),
    credit: (staff || manager) && can('billing.credit'),
    manage: can('billing.manage'),
    balance: can('billing.balance'),
    ready: departments !== undefined,
  };
}

export function useBillingRights(): BillingRights {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const departments = useDepartments();
  return billingRightsOf(
    user,
    hospitalId,
    usePermissions(),
    departments.isPending ? undefined : (departments.data?.results ?? []),
  );
}
