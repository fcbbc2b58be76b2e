/**
 * Root of each language mount: sets the UI language from the URL, sets document.title and waits for
 * the start-up gate. (The landing redirect to /en happens before the router starts: `landingRedirect`.)
 */
import type { Language } from '@greensen/shared/domain/constants';
import { useEffect, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { i18n } from '../../lib/i18n';
import { isRouteHandle } from '../route-handle';
import { StartupGate } from '../StartupGate';

export function useRouteTitle(): string | null {
  const matches = useMatches();
  const { t } = useTranslation('routes');
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return t(handle.titleKey);
  }
  return null;
}

export function RootLayout({ lang }: { lang: Language }) {
  // Re-renders on every language change of the i18n instance.
  const { i18n: instance } = useTranslation();
  const current = instance.language;

  useLayoutEffect(() => {
    document.documentElement.lang = lang;
    if (current !== lang) void i18n.changeLanguage(lang);
  }, [lang, current]);

  const title = useRouteTitle();
  useEffect(() => {
    document.title = title ? `${title} · Greensen` : 'Greensen';
  }, [title]);

  if (current !== lang) return null;
  return (
    <StartupGate lang={lang}>
      <Outlet />
    </StartupGate>
  );
}
