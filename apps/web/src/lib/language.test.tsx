import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locationOf, makeUser, renderApp } from '../test/render';
import { readCookie, writeCookie } from './cookies';
import {
  detectLanguage,
  landingRedirect,
  languageFromNavigator,
  languageFromPath,
  localizePath,
  stripLanguagePrefix,
} from './language';

afterEach(() => {
  vi.unstubAllGlobals();
  writeCookie('lang', '', 0);
});

describe('language detection order', () => {
  it('the URL prefix comes first', () => {
    expect(detectLanguage({ pathname: '/en/patients', cookie: 'fr', navigatorLanguages: ['fr-FR'] })).toBe(
      'en',
    );
    expect(detectLanguage({ pathname: '/en', cookie: 'fr', navigatorLanguages: ['fr'] })).toBe('en');
  });

  it('then the cookie', () => {
    expect(detectLanguage({ pathname: '/', cookie: 'en', navigatorLanguages: ['fr-FR'] })).toBe('en');
    expect(detectLanguage({ pathname: '/', cookie: 'fr', navigatorLanguages: ['en-US'] })).toBe('fr');
  });

  it('then the browser languages (first supported one)', () => {
    expect(
      detectLanguage({ pathname: '/', cookie: null, navigatorLanguages: ['de-DE', 'en-GB', 'fr'] }),
    ).toBe('en');
    expect(detectLanguage({ pathname: '/', cookie: 'xx', navigatorLanguages: ['fr-CA'] })).toBe('fr');
  });

  it('then French', () => {
    expect(detectLanguage({ pathname: '/', cookie: null, navigatorLanguages: ['de', 'es'] })).toBe('fr');
    expect(detectLanguage({ pathname: '/', cookie: null, navigatorLanguages: undefined })).toBe('fr');
    expect(languageFromNavigator([])).toBeNull();
  });

  it('does not take /english or /enfants for the prefix', () => {
    expect(languageFromPath('/enfants')).toBe('fr');
    expect(languageFromPath('/en/')).toBe('en');
  });

  it('redirects a landing on an unprefixed path to English only when asked', () => {
    const location = { pathname: '/patients/4', search: '?tab=1', hash: '' };
    expect(landingRedirect(location, { cookie: 'en', navigatorLanguages: ['fr'] })).toBe(
      '/en/patients/4?tab=1',
    );
    expect(landingRedirect(location, { cookie: null, navigatorLanguages: ['fr'] })).toBeNull();
    expect(
      landingRedirect({ pathname: '/', search: '', hash: '' }, { cookie: null, navigatorLanguages: ['en'] }),
    ).toBe('/en');
    expect(
      landingRedirect(
        { pathname: '/en/login', search: '', hash: '' },
        { cookie: 'fr', navigatorLanguages: [] },
      ),
    ).toBeNull();
  });

  it('swaps prefixes', () => {
    expect(localizePath('/patients', 'en')).toBe('/en/patients');
    expect(localizePath('/', 'en')).toBe('/en');
    expect(localizePath('/?access_denied=true', 'en')).toBe('/en?access_denied=true');
    expect(localizePath('/en/patients', 'fr')).toBe('/patients');
    expect(stripLanguagePrefix('/en')).toBe('/');
    expect(stripLanguagePrefix('/en?x=1')).toBe('/?x=1');
  });
});

describe('switching language', () => {
  it('keeps the page, writes the cookie and updates the profile', async () => {
    const put = vi.fn(() => Response.json(makeUser()));
    const { router, fetchMock } = renderApp('/settings', { user: makeUser(), routes: {} });
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/config/')
        return Response.json({ environment: 'development', maintenance: false });
      if (url.pathname === '/api/profile/' && init?.method === 'PUT') return put();
      return Response.json(makeUser());
    });
    await screen.findByRole('heading', { name: 'Paramètres' });
    fireEvent.click(screen.getByRole('radio', { name: 'English' }));
    await screen.findByRole('heading', { name: 'Settings' });
    expect(locationOf(router)).toBe('/en/settings');
    expect(readCookie('lang')).toBe('en');
    await waitFor(() => expect(put).toHaveBeenCalled());
  });
});
