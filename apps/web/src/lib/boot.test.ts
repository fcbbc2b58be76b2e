/**
 * public/boot.js (runs before the app, before the first paint): it must fetch the strings of the language the app
 * will choose, and only those (issue 38), and put an English visitor of an unprefixed path on its /en path as
 * the app's language detection does (src/lib/language.ts, specification §2).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeCookie } from './cookies';
import { LANGUAGE_COOKIE } from './language';

const BOOT = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../public/boot.js'), 'utf8');

function runBoot({ path, languages, cookie }: { path: string; languages: string[]; cookie?: 'fr' | 'en' }) {
  window.history.replaceState(null, '', path);
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  // The language cookie as the app writes it; removed (Max-Age 0) when the case has none.
  writeCookie(LANGUAGE_COOKIE, cookie ?? '', cookie ? 1 : 0);
  new Function(BOOT)();
  const preloads = [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) =>
    l.getAttribute('href'),
  );
  return { path: `${window.location.pathname}${window.location.search}`, preloads };
}

describe('boot.js: the first screen in the language the app will choose', () => {
  beforeEach(() => {
    const meta = document.createElement('meta');
    meta.name = 'greensen-preload';
    meta.content =
      'locale-fr=/assets/locale-fr-1.js,locale-en=/assets/locale-en-2.js,shell=/assets/shell-3.js';
    document.head.appendChild(meta);
  });
  afterEach(() => {
    document.head.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('an English browser at /login: /en/login before the first paint, and the English strings only', () => {
    const seen = runBoot({ path: '/login?next=%2Fpatients', languages: ['en-GB', 'fr'] });
    expect(seen.path).toBe('/en/login?next=%2Fpatients');
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(seen.preloads).toEqual(['/assets/locale-en-2.js']);
  });

  it('the language cookie comes before the browser; French stays unprefixed', () => {
    const seen = runBoot({ path: '/login', languages: ['en-US'], cookie: 'fr' });
    expect(seen.path).toBe('/login');
    expect(document.documentElement.getAttribute('lang')).toBe('fr');
    expect(seen.preloads).toEqual(['/assets/locale-fr-1.js']);
  });

  it('a browser in neither language gets French; /en keeps English', () => {
    expect(runBoot({ path: '/', languages: ['de-DE'] }).preloads).toEqual(['/assets/locale-fr-1.js']);
    document.head.querySelectorAll('link').forEach((l) => {
      l.remove();
    });
    const en = runBoot({ path: '/en/patients', languages: ['fr-FR'] });
    expect(en.path).toBe('/en/patients');
    expect(en.preloads).toEqual(['/assets/locale-en-2.js']);
  });
});
