import type { ModuleName } from '@greensen/shared/domain/modules';

/** Data each route declares: its title key (i18n), its module and the kind of page. */
export interface RouteHandle {
  /** i18n key, `routes:` namespace, e.g. 'patients' or 'consultation.create.title'. */
  titleKey: string;
  module?: ModuleName;
  kind?: 'list' | 'detail' | 'create';
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).titleKey === 'string';
}
