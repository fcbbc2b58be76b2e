/**
 * Language of the UI: URL prefix first (`/en` → English, French has no prefix); on landing on an
 * unprefixed path the cookie `lang`, then the browser languages, then French (specification §2).
 */
import {
  DEFAULT_LANGUAGE,
  ENGLISH_PATH_PREFIX,
  isLanguage,
  LANGUAGE_COOKIE_DAYS,
  type Language,
} from '@greensen/shared/domain/constants';
import { readCookie, writeCookie } from './cookies';

export const LANGUAGE_COOKIE = 'lang';

export function hasEnglishPrefix(pathname: string): boolean {
  return pathname === ENGLISH_PATH_PREFIX || pathname.startsWith(`${ENGLISH_PATH_PREFIX}/`);
}

/** The language a URL path carries: English under `/en`, French otherwise. */
export function languageFromPath(pathname: string): Language {
  return hasEnglishPrefix(pathname) ? 'en' : 'fr';
}

/** The path without its language prefix ('/en/patients' → '/patients', '/en' → '/'). */
export function stripLanguagePrefix(path: string): string {
  if (!hasEnglishPrefix(path) && !path.startsWith(`${ENGLISH_PATH_PREFIX}?`)) return path;
  const rest = path.slice(ENGLISH_PATH_PREFIX.length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * An unprefixed app path in the given language: '/patients' → '/en/patients', '/' → '/en',
 * '/?a=1' → '/en?a=1'. Paths already prefixed are first stripped.
 */
export function localizePath(path: string, lang: Language): string {
  const bare = stripLanguagePrefix(path.startsWith('/') ? path : `/${path}`);
  if (lang === 'fr') return bare;
  if (bare === '/') return ENGLISH_PATH_PREFIX;
  if (bare.startsWith('/?') || bare.startsWith('/#')) return `${ENGLISH_PATH_PREFIX}${bare.slice(1)}`;
  return `${ENGLISH_PATH_PREFIX}${bare}`;
}

/** First supported language among the browser's preferred ones ('en-GB' → 'en'). */
export function languageFromNavigator(languages: readonly string[] | undefined): Language | null {
  for (const tag of languages ?? []) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return null;
}

export interface LanguageSources {
  pathname: string;
  cookie: string | null;
  navigatorLanguages: readonly string[] | undefined;
}

/** The detection order of the specification: URL prefix, cookie, browser, French. */
export function detectLanguage({ pathname, cookie, navigatorLanguages }: LanguageSources): Language {
  if (hasEnglishPrefix(pathname)) return 'en';
  if (isLanguage(cookie)) return cookie;
  return languageFromNavigator(navigatorLanguages) ?? DEFAULT_LANGUAGE;
}

/** Detection from the live browser. */
export function detectBrowserLanguage(): Language {
  return detectLanguage({
    pathname: window.location.pathname,
    cookie: readCookie(LANGUAGE_COOKIE),
    navigatorLanguages: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
}

export function saveLanguageCookie(lang: Language): void {
  writeCookie(LANGUAGE_COOKIE, lang, LANGUAGE_COOKIE_DAYS);
}

/**
 * On landing on an unprefixed path, the cookie or the browser may ask for English: the URL to go to
 * instead ('/patients?x=1' → '/en/patients?x=1'), or null to stay.
 */
export function landingRedirect(
  location: { pathname: string; search: string; hash: string },
  sources: Omit<LanguageSources, 'pathname'>,
): string | null {
  if (hasEnglishPrefix(location.pathname)) return null;
  if (detectLanguage({ pathname: location.pathname, ...sources }) !== 'en') return null;
  return `${localizePath(location.pathname, 'en')}${location.search}${location.hash}`;
}

/** Applies the landing redirect to the live browser location (before the router starts). */
export function applyLandingLanguage(): void {
  const target = landingRedirect(window.location, {
    cookie: readCookie(LANGUAGE_COOKIE),
    navigatorLanguages: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
  if (target) window.history.replaceState(window.history.state, '', target);
}
