/**
 * Switching language keeps the current page (swaps the /en prefix), writes the cookie and, when signed in,
 * updates the profile (`Failed to update language` on failure).
 */
import type { Language } from '@greensen/shared/domain/constants';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAuthStore } from '../stores/auth';
import { api } from './api-client';
import { i18n } from './i18n';
import { localizePath, saveLanguageCookie } from './language';
import { toast } from './toast';

export async function saveLanguagePreference(lang: Language): Promise<boolean> {
  try {
    await api.put('profile/', { profile: { language_preference: lang } });
    return true;
  } catch {
    toast({ kind: 'error', title: i18n.getFixedT(lang, 'errors')('languageUpdateFailed') });
    return false;
  }
}

export function useSwitchLanguage(): (lang: Language) => void {
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (lang: Language) => {
      saveLanguageCookie(lang);
      navigate(`${localizePath(location.pathname, lang)}${location.search}${location.hash}`, {
        state: location.state,
      });
      if (useAuthStore.getState().isAuthenticated) void saveLanguagePreference(lang);
    },
    [location, navigate],
  );
}
