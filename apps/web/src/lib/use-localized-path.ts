import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { languageFromPath, localizePath } from './language';

/** `to('/patients')` → '/patients' in French, '/en/patients' in English. */
export function useLocalizedPath(): (path: string) => string {
  const { pathname } = useLocation();
  const lang = languageFromPath(pathname);
  return useCallback((path: string) => localizePath(path, lang), [lang]);
}
