/**
 * i18next with the French (default) and English strings, loaded on demand: a user downloads the strings of
 * their language only. Every `locales/<lang>/<namespace>.json` is found by the glob below — a new namespace
 * needs no registration here. The build groups the files in two chunks per language (vite.config.ts): the
 * namespaces of the first screens — the entry, the sign-in pages, the signed-in shell and the dashboards with
 * the clinical pieces they show — listed in i18n-core-namespaces.json and loaded before the app renders
 * (`loadLanguage` in main.tsx), and the others, loaded with the first signed-in page after the dashboard
 * (`loadAllNamespaces` in the route table).
 */
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@greensen/shared/domain/constants';
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import CORE_NAMESPACES from './i18n-core-namespaces.json';

type Bundle = Record<string, unknown>;

const bundles = import.meta.glob<Bundle>('../locales/*/*.json', { import: 'default' });

/** Every namespace (those of the reference language, French; the parity check keeps English aligned). */
export const NAMESPACES: string[] = Object.keys(bundles)
  .map((path) => /^\.\.\/locales\/([a-z]+)\/([\w-]+)\.json$/.exec(path))
  .filter((match) => match?.[1] === DEFAULT_LANGUAGE)
  .map((match) => match?.[2] ?? '');

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = bundles[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (bundle) => callback(null, bundle),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

export const i18n = i18next.createInstance();

void i18n
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    lng: DEFAULT_LANGUAGE,
    // No fallback language: an English user never downloads the French strings (the parity check
    // /work/shared/tools/i18n-parity.mjs keeps the keys of both languages identical).
    fallbackLng: false,
    supportedLngs: ['fr', 'en'],
    // Nothing loads at import: loadLanguage() fetches the first screens' namespaces of one language.
    ns: [],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    // The app renders once its strings are there (main.tsx, route table): components never wait for them.
    react: { useSuspense: false },
  });

/**
 * French "de" before a name, elided before a vowel or an h: "d'Esther", "d'Hélène", "de Marie" (issue 25). The
 * French strings write `{{patient, de}}` where a name follows "de"; the English ones need no such thing.
 */
export function deBefore(name: string): string {
  return /^[aeiouyhàâäæéèêëîïôöœùûü]/i.test(name.trim()) ? `d'${name}` : `de ${name}`;
}
i18n.services.formatter?.add('de', (value) => deBefore(String(value ?? '')));

/** Makes `lang` the UI language with the first screens' strings loaded (before the app renders). */
export async function loadLanguage(lang: Language): Promise<void> {
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(CORE_NAMESPACES);
}

/** Loads every namespace of the UI language (with the signed-in pages beyond the dashboard: the route table). */
export function loadAllNamespaces(): Promise<void> {
  return i18n.loadNamespaces(NAMESPACES);
}

/** The UI language as a supported language code. */
export function uiLanguage(): Language {
  const lang = i18n.language;
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/** A translation outside React, in the current UI language. */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options) as string;
}
