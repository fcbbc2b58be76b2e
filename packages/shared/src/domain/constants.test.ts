import { describe, expect, it } from 'vitest';
import {
  API_TIMEOUT_MS,
  AUTH_RECORDING_EXCLUDED_PREFIXES,
  BUILD_POLL_MS,
  DEFAULT_LANGUAGE,
  GET_RETRY_STATUSES,
  ICON_FETCH_TIMEOUT_MS,
  isExcludedFromRecording,
  isLanguage,
  LANGUAGE_COOKIE_DAYS,
  LANGUAGES,
  LOADER_MESSAGES,
  LOADER_ROTATION_MS,
  LOGOUT_FLAG_MS,
  MAX_CONCURRENT_PRELOADS,
  ONE_HOUR_MS,
  PROFILE_LANGUAGE_DEFAULT,
  RELOAD_GUARD_MS,
  REQUEST_ATTEMPTS,
  RETRY_DELAY_MS,
  retryDelayMs,
  SOCKET_BASE_DELAY_MS,
  SOCKET_MAX_RECONNECTS,
  SPEECH_INDICATOR_DELAY_MS,
  shouldRetryRequest,
  socketReconnectDelayMs,
} from './constants.js';

describe('§9 constants', () => {
  it('has the languages', () => {
    expect(LANGUAGES).toEqual(['fr', 'en']);
    expect(DEFAULT_LANGUAGE).toBe('fr');
    expect(PROFILE_LANGUAGE_DEFAULT).toBe('en');
    expect(LANGUAGE_COOKIE_DAYS).toBe(365);
    expect(isLanguage('fr')).toBe(true);
    expect(isLanguage('de')).toBe(false);
    expect(isLanguage(null)).toBe(false);
  });

  it('has the timings and limits', () => {
    expect(LOGOUT_FLAG_MS).toBe(5000);
    expect(RELOAD_GUARD_MS).toBe(10000);
    expect(MAX_CONCURRENT_PRELOADS).toBe(4);
    expect(ICON_FETCH_TIMEOUT_MS).toBe(1500);
    expect(API_TIMEOUT_MS).toBe(5000);
    expect(ONE_HOUR_MS).toBe(3600000);
    expect(SPEECH_INDICATOR_DELAY_MS).toBe(1000);
    expect(BUILD_POLL_MS).toBe(300000);
  });

  it('has the loader messages in both languages', () => {
    expect(LOADER_ROTATION_MS).toBe(2000);
    expect(LOADER_MESSAGES.en).toEqual(['Initializing...', 'Preparing dashboard...', 'Almost ready...']);
    expect(LOADER_MESSAGES.fr).toEqual([
      'Initialisation...',
      'Préparation du tableau de bord...',
      'Presque prêt...',
    ]);
  });
});

describe('request retries', () => {
  it('has the retry constants', () => {
    expect(REQUEST_ATTEMPTS).toBe(3);
    expect(RETRY_DELAY_MS).toBe(300);
    expect(GET_RETRY_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });

  it('waits 300 ms times the retry number', () => {
    expect(retryDelayMs(1)).toBe(300);
    expect(retryDelayMs(2)).toBe(600);
  });

  it('retries only GET, only on the listed statuses, at most twice', () => {
    expect(shouldRetryRequest('GET', 503, 1)).toBe(true);
    expect(shouldRetryRequest('get', 429, 2)).toBe(true);
    expect(shouldRetryRequest('GET', 503, 3)).toBe(false);
    expect(shouldRetryRequest('GET', 404, 1)).toBe(false);
    expect(shouldRetryRequest('GET', 501, 1)).toBe(false);
    expect(shouldRetryRequest('POST', 503, 1)).toBe(false);
    expect(shouldRetryRequest('PUT', 408, 1)).toBe(false);
  });
});

describe('socket reconnects', () => {
  it('doubles the delay from 1 s for at most 5 attempts', () => {
    expect(SOCKET_MAX_RECONNECTS).toBe(5);
    expect(SOCKET_BASE_DELAY_MS).toBe(1000);
    expect([1, 2, 3, 4, 5].map(socketReconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(socketReconnectDelayMs(6)).toBeNull();
    expect(socketReconnectDelayMs(0)).toBeNull();
  });
});

describe('session recording exclusions', () => {
  it('excludes the auth, token and password paths', () => {
    expect(AUTH_RECORDING_EXCLUDED_PREFIXES).toEqual(['/api/auth/', '/api/token/', '/api/password/']);
    expect(isExcludedFromRecording('/api/auth/reset-password/')).toBe(true);
    expect(isExcludedFromRecording('/api/token/refresh/')).toBe(true);
    expect(isExcludedFromRecording('https://h.example/api/password/change/')).toBe(true);
    expect(isExcludedFromRecording('/api/patients/')).toBe(false);
    expect(isExcludedFromRecording('/api/login/')).toBe(false);
  });
});
