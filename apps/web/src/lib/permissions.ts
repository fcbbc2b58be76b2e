/**
 * What the signed-in user may do in the current hospital, to hide the actions they may not take
 * (DESIGN §4: the server enforces the same rules; a 403 still shows the access-denied notice).
 * The role groups per action come from shared: the server's routes declare the same lists.
 */
import { canAccessModule } from '@greensen/shared/domain/access';
import { type AppEnvironment, DEFAULT_ENVIRONMENT, type ModuleName } from '@greensen/shared/domain/modules';
import { ACTION_GROUPS, type Action } from '@greensen/shared/domain/permissions';
import { type DashboardGroup, userRoleGroups } from '@greensen/shared/domain/roles';
import { useAuthStore } from '../stores/auth';
import { rolesInHospital, useUserStore } from '../stores/user';
import { useModuleScope } from './app-config';

/** The module an action also needs (refused by environment or role restriction otherwise). */
const ACTION_MODULE: Partial<Record<Action, ModuleName>> = {
  'consultation.start': 'consultations',
  'consultation.create': 'consultations',
  'consultation.edit': 'consultations',
  'consultation.addendum': 'consultations',
  'patient.assign': 'admissions',
  'prescription.write': 'pharmacy',
  'pharmacy.manage': 'pharmacy',
};

/**
 * Modules whose whole content is one action's (the server refuses every call of the module to the other groups):
 * the navigation hides them and the module guard refuses them like a role restriction. Nursing records (issue 20)
 * are the care team's: secretaries and administrators have no `care.read`.
 */
const MODULE_READ_ACTION: Partial<Record<ModuleName, Action>> = { care: 'care.read' };

/** Whether the user's role groups in the hospital lack the action a module is made of (see MODULE_READ_ACTION). */
export function moduleActionRefused(
  user: Parameters<typeof rolesInHospital>[0],
  hospitalId: string | null,
  moduleName: ModuleName,
): boolean {
  const action = MODULE_READ_ACTION[moduleName];
  if (!action || !user) return false;
  const groups = userRoleGroups(rolesInHospital(user, hospitalId));
  return !groups.some((group) => ACTION_GROUPS[action].includes(group));
}

export interface Permissions {
  groups: DashboardGroup[];
  can: (action: Action) => boolean;
  userId: string | null;
}

export function permissionsFor(
  user: Parameters<typeof rolesInHospital>[0],
  hospitalId: string | null,
  environment: AppEnvironment = DEFAULT_ENVIRONMENT,
  extraModules: readonly ModuleName[] = [],
): Permissions {
  const roles = rolesInHospital(user, hospitalId);
  const groups = user ? userRoleGroups(roles) : [];
  return {
    groups,
    userId: user?.id ?? null,
    can: (action) => {
      if (!groups.some((group) => ACTION_GROUPS[action].includes(group))) return false;
      const moduleName = ACTION_MODULE[action];
      return moduleName
        ? canAccessModule({ moduleName, environment, extraModules, user: roles }).allowed
        : true;
    },
  };
}

export function usePermissions(): Permissions {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const { environment, extraModules } = useModuleScope();
  return permissionsFor(user, hospitalId, environment, extraModules);
}

/**
 * Whether the user may open `moduleName` in the current hospital (environment, extra modules, role): pieces shown
 * outside a module's pages check it before calling the module's API (a 403 would send the user home).
 */
export function useModuleAllowed(moduleName: ModuleName): boolean {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const { environment, extraModules } = useModuleScope();
  return (
    canAccessModule({ moduleName, environment, extraModules, user: rolesInHospital(user, hospitalId) })
      .allowed && !moduleActionRefused(user, hospitalId, moduleName)
  );
}
