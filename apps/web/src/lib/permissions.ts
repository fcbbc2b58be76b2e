/**
 * What the signed-in user may do in the current hospital, to hide the actions they may not take
 * (DESIGN §4: the server enforces the same rules; a 403 still shows the access-denied notice).
 * The role groups per action come from shared: the server's routes declare the same lists.
 */
import { type AccessDecision, canAccessModule, canOpenModule } from '@greensen/shared/domain/access';
import { type AppEnvironment, DEFAULT_ENVIRONMENT, type ModuleName } from '@greensen/shared/domain/modules';
import { ACTION_GROUPS, type Action } from '@greensen/shared/domain/permissions';
import { type DashboardGroup, userRoleGroups } from '@greensen/shared/domain/roles';
import { useAuthStore } from '../stores/auth';
import { rolesInHospital, useUserStore } from '../stores/user';
import { type ModuleScope, useModuleScope } from './app-config';

/** The module an action also needs (refused by environment or role restriction otherwise). */
const ACTION_MODULE: Partial<Record<Action, ModuleName>> = {
  'consultation.start': 'consultations',
  'stats.read': 'analytics',
  'stats.drilldown': 'analytics',
  'consultation.create': 'consultations',
  'consultation.edit': 'consultations',
  'consultation.addendum': 'consultations',
  'patient.assign': 'admissions',
  'prescription.write': 'pharmacy',
  'pharmacy.manage': 'pharmacy',
};

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
 * Whether the user may open `moduleName` in the current hospital (environment, extra modules, role, the module ×
 * role table): pieces shown outside a module's pages check it before showing the module's content or links.
 */
export function useModuleAllowed(moduleName: ModuleName): boolean {
  return useModuleAccess(moduleName).allowed;
}

/** The module guard's decision for `moduleName`, with the specification's refusal text when it refuses. */
export function useModuleAccess(moduleName: ModuleName): AccessDecision {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  return moduleAccessFor(moduleName, user, hospitalId, useModuleScope());
}

/** `useModuleAccess`'s decision outside React (a page's first queries, known before it renders). */
export function moduleAccessFor(
  moduleName: ModuleName,
  user: Parameters<typeof rolesInHospital>[0],
  hospitalId: string | null,
  { environment, extraModules }: ModuleScope,
): AccessDecision {
  return canOpenModule({ moduleName, environment, extraModules, user: rolesInHospital(user, hospitalId) });
}
