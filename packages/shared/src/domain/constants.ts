/**
 * Business constants and limits of the specification (§9), shared by the server and the web app.
 */

/** Supported languages. French is the default and has no URL prefix; English uses `/en`. */
export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A text in every supported language. */
export type LocalizedText = { readonly [L in Language]: string };

export const DEFAULT_LANGUAGE: Language = 'fr';
/** Default of `profile.language_preference` for a user who never chose one. */
export const PROFILE_LANGUAGE_DEFAULT: Language = 'en';
/** URL prefix of the English variant of every route. */
export const ENGLISH_PATH_PREFIX = '/en';
/** Lifetime of the language cookie (same-site lax). */
export const LANGUAGE_COOKIE_DAYS = 365;

/** The logging-out flag resets after this delay. */
export const LOGOUT_FLAG_MS = 5000;
/** Default duration of the reload-loop guard. */
export const RELOAD_GUARD_MS = 10_000;
/** At most this many route preloads run at once. */
export const MAX_CONCURRENT_PRELOADS = 4;
/** Icon loader: time-out of the icon fetch. */
export const ICON_FETCH_TIMEOUT_MS = 1500;
/** Icon loader: API time-out. */
export const API_TIMEOUT_MS = 5000;
/** One hour; defined by the specification, its use is not shown. */
export const ONE_HOUR_MS = 3_600_000;

/** HTTP requests are attempted at most this many times (so 2 retries). */
export const REQUEST_ATTEMPTS = 3;
/** Delay before a retry is this value times the retry number (300 ms, then 600 ms). */
export const RETRY_DELAY_MS = 300;
/** Statuses for which a GET is retried. Other methods are never retried. */
export const GET_RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];

/** Real-time socket: at most this many reconnect attempts after an unexpected close. */
export const SOCKET_MAX_RECONNECTS = 5;
/** Real-time socket: delay before the first reconnect attempt; it doubles at each attempt. */
export const SOCKET_BASE_DELAY_MS = 1000;

/** Start-up loader: its message rotates at this interval. */
export const LOADER_ROTATION_MS = 2000;
export const LOADER_MESSAGES: { readonly [L in Language]: readonly string[] } = {
  fr: ['Initialisation...', 'Préparation du tableau de bord...', 'Presque prêt...'],
  en: ['Initializing...', 'Preparing dashboard...', 'Almost ready...'],
};

/** The speech indicator loads this long after mount, for authenticated users. */
export const SPEECH_INDICATOR_DELAY_MS = 1000;

/** The session recorder never records network calls whose path begins with one of these. */
export const AUTH_RECORDING_EXCLUDED_PREFIXES: readonly string[] = [
  '/api/auth/',
  '/api/token/',
  '/api/password/',
];

/** Interval at which the latest-build manifest is polled (the specification does not give one). */
export const BUILD_POLL_MS = 300_000;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Whether a failed request may be retried: GET only, retry-able status, attempts left. */
export function shouldRetryRequest(method: string, status: number, attempt: number): boolean {
  return method.toUpperCase() === 'GET' && GET_RETRY_STATUSES.includes(status) && attempt < REQUEST_ATTEMPTS;
}

/** Delay before the given retry (1-based): 300 ms times the retry number. */
export function retryDelayMs(retryNumber: number): number {
  return RETRY_DELAY_MS * retryNumber;
}

/**
 * Delay before the given socket reconnect attempt (1-based): 1 s, 2 s, 4 s…
 * Returns null once the attempts are exhausted.
 */
export function socketReconnectDelayMs(attempt: number): number | null {
  if (attempt < 1 || attempt > SOCKET_MAX_RECONNECTS) return null;
  return SOCKET_BASE_DELAY_MS * 2 ** (attempt - 1);
}

/** Whether the session recorder must skip a network call to this URL or path. */
export function isExcludedFromRecording(urlOrPath: string): boolean {
  let path = urlOrPath;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || '/';
  return AUTH_RECORDING_EXCLUDED_PREFIXES.some((prefix) => path.startsWith(prefix));
}
