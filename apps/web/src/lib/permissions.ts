/**
 * What the signed-in user may do in the current hospital, to hide the actions they may not take
 * (DESIGN §4: the server enforces the same rules; a 403 still shows the access-denied notice).
 * The role groups per action mirror the server routes of issue 6.
 */
import { canAccessModule } from '@greensen/shared/domain/access';
import { type AppEnvironment, DEFAULT_ENVIRONMENT, type ModuleName } from '@greensen/shared/domain/modules';
import { type DashboardGroup, userRoleGroups } from '@greensen/shared/domain/roles';
import { useAuthStore } from '../stores/auth';
import { rolesInHospital, useUserStore } from '../stores/user';
import { useAppConfig } from './app-config';

export type Action =
  | 'patient.register'
  | 'patient.archive'
  | 'admission.create'
  | 'admission.status'
  | 'admission.cancel'
  | 'triage.record'
  | 'patient.assign'
  | 'consultation.start';

const CARE: readonly DashboardGroup[] = ['nurse', 'doctor', 'head_doctor', 'midwife'];

export const ACTION_GROUPS: Readonly<Record<Action, readonly DashboardGroup[]>> = {
  'patient.register': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'patient.archive': ['secretary', 'queue_manager', 'head_doctor', 'admin'],
  'admission.create': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'admission.status': ['doctor', 'head_doctor', 'midwife', 'queue_manager'],
  'admission.cancel': ['secretary', 'queue_manager', ...CARE],
  'triage.record': ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
  'patient.assign': ['secretary', 'queue_manager', 'head_doctor'],
  'consultation.start': ['doctor', 'head_doctor', 'midwife'],
};

/** The module an action also needs (refused by environment or role restriction otherwise). */
const ACTION_MODULE: Partial<Record<Action, ModuleName>> = {
  'consultation.start': 'consultations',
  'patient.assign': 'admissions',
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
): Permissions {
  const roles = rolesInHospital(user, hospitalId);
  const groups = user ? userRoleGroups(roles) : [];
  return {
    groups,
    userId: user?.id ?? null,
    can: (action) => {
      if (!groups.some((group) => ACTION_GROUPS[action].includes(group))) return false;
      const moduleName = ACTION_MODULE[action];
      return moduleName ? canAccessModule({ moduleName, environment, user: roles }).allowed : true;
    },
  };
}

export function usePermissions(): Permissions {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const environment = useAppConfig()?.environment ?? DEFAULT_ENVIRONMENT;
  return permissionsFor(user, hospitalId, environment);
}
