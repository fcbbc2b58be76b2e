/**
 * Navigation from outside React (API client, session): the router registers its navigate function here.
 * Paths are given unprefixed; the current language prefix is added.
 */
import type { Language } from '@greensen/shared/domain/constants';
import { languageFromPath, localizePath } from './language';

type NavigateFn = (to: string, options?: { replace?: boolean }) => unknown;

let navigateImpl: NavigateFn | null = null;
let currentPathnameImpl: () => string = () =>
  typeof window === 'undefined' ? '/' : window.location.pathname;

export function setNavigator(navigate: NavigateFn | null, currentPathname?: () => string): void {
  navigateImpl = navigate;
  if (currentPathname) currentPathnameImpl = currentPathname;
}

export function currentPathname(): string {
  return currentPathnameImpl();
}

export function currentLanguage(): Language {
  return languageFromPath(currentPathname());
}

/** Navigates to an unprefixed app path, keeping the current language prefix. */
export function navigateTo(path: string, options?: { replace?: boolean }): void {
  const target = localizePath(path, currentLanguage());
  if (navigateImpl) void navigateImpl(target, options);
  else if (typeof window !== 'undefined') window.location.assign(target);
}
