/**
 * Module access (spec §5): the module of the path (longest prefix) is checked with the environment (and the
 * installation's extra modules) of /api/config/ and the user's roles in the current hospital. A refusal goes to
 * /?access_denied=true&message=<refusal text>.
 */
import {
  accessDeniedRedirect,
  canAccessModule,
  DEFAULT_REFUSAL,
  roleRefusal,
} from '@greensen/shared/domain/access';
import type { Language } from '@greensen/shared/domain/constants';
import { type AppEnvironment, type ModuleName, moduleForPath } from '@greensen/shared/domain/modules';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useModuleScope } from '../../lib/app-config';
import { languageFromPath, localizePath } from '../../lib/language';
import { moduleActionRefused } from '../../lib/permissions';
import { useAuthStore } from '../../stores/auth';
import { rolesInHospital, type User, useUserStore } from '../../stores/user';

/** Where the user must go for this path, or null when access is allowed. */
export function moduleRedirect(input: {
  pathname: string;
  environment: AppEnvironment;
  extraModules?: readonly ModuleName[];
  user: User | null;
  hospitalId: string | null;
  lang: Language;
}): string | null {
  const module = moduleForPath(input.pathname);
  if (!module) return null;
  const decision = canAccessModule({
    moduleName: module.name,
    environment: input.environment,
    extraModules: input.extraModules,
    user: rolesInHospital(input.user, input.hospitalId),
  });
  if (decision.allowed) {
    if (!moduleActionRefused(input.user, input.hospitalId, module.name)) return null;
    return localizePath(accessDeniedRedirect(roleRefusal(module.title[input.lang], input.lang)), input.lang);
  }
  const message = decision.message[input.lang] || DEFAULT_REFUSAL[input.lang];
  return localizePath(accessDeniedRedirect(message), input.lang);
}

export function ModuleGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const { environment, extraModules } = useModuleScope();
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const redirect = moduleRedirect({
    pathname: location.pathname,
    environment,
    extraModules,
    user,
    hospitalId,
    lang: languageFromPath(location.pathname),
  });
  if (redirect) return <Navigate to={redirect} replace />;
  return <>{children}</>;
}
