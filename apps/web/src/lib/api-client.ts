/**
 * HTTP client of the specification §7–§8.
 * - base /api/, headers Authorization (Bearer), Hospital-ID and Accept-Language;
 * - GET retried on 408, 409, 425, 429, 500, 502, 503, 504: at most 3 attempts, 300 ms × retry number;
 *   other methods are never retried;
 * - 401 → token refresh (one at a time, concurrent requests wait for it) then one retry; no refresh token
 *   or a failed refresh → session expired (logout, /login, yellow notice);
 * - 403 → red 'access denied' notice then /;
 * - 404 on a GET of a known resource (`/api/<resources>/<id>/`) → /error-404?type=…&id=… unless opted out;
 *   404 on other methods → yellow 'resource not found' notice;
 * - everything else is thrown as an ApiError carrying status and body.
 */
import { type Language, retryDelayMs, shouldRetryRequest } from '@greensen/shared/domain/constants';
import { type NotFoundErrorData, notFoundFromApiPath } from '@greensen/shared/domain/errors';
import { useAuthStore } from '../stores/auth';
import { translate, uiLanguage } from './i18n';
import { navigateTo } from './navigation';
import { readCache } from './offline/read-cache';
import { logout, refreshTokens } from './session';
import { toast } from './toast';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ApiErrorBody = Record<string, unknown> | string | null;

export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody, message?: string) {
    super(message ?? ApiError.messageOf(status, body));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The server's `detail` (or `error`) text, when the body carries one. */
  get detail(): string | null {
    if (this.body && typeof this.body === 'object') {
      const value = this.body.detail ?? this.body.error;
      if (typeof value === 'string') return value;
    }
    return null;
  }

  /** The first message of a field of a 400 body (`{field: [msg]}`). */
  fieldError(field: string): string | null {
    if (!this.body || typeof this.body !== 'object') return null;
    const value = this.body[field];
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    if (typeof value === 'string') return value;
    return null;
  }

  private static messageOf(status: number, body: ApiErrorBody): string {
    if (body && typeof body === 'object') {
      const detail = body.detail ?? body.error;
      if (typeof detail === 'string') return detail;
    }
    if (typeof body === 'string' && body.length > 0 && body.length < 300) return body;
    return status === 0 ? 'Network error' : `HTTP ${status}`;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /** Public call (login, register…): no bearer token and no global 401/403/404 handling. */
  public?: boolean;
  /** 401 is thrown as is, without refresh or logout (e.g. the PIN lock's final refusal). */
  skipRefresh?: boolean;
  /** Opt out of the /error-404 redirect on a 404 of a known resource GET. */
  notFoundRedirect?: boolean;
  /**
   * Opt out of the global handling of refusals (403 notice and redirect, 404 notice or error page): the caller
   * handles the failure itself — the notification list and mark-read ignore theirs silently (spec §8). A 401
   * still refreshes the session.
   */
  silent?: boolean;
  signal?: AbortSignal;
  /** The answer's body as a Blob (a file download) instead of parsed JSON. */
  blob?: boolean;
}

export interface ApiClientDeps {
  fetch: () => typeof fetch;
  sleep: (ms: number) => Promise<void>;
  getAccessToken: () => string | null;
  getRefreshToken: () => string | null;
  getHospitalId: () => string | null;
  getLanguage: () => Language;
  /** Replaces the token pair; resolves to the new access token or null on failure. */
  refreshTokens: () => Promise<string | null>;
  onSessionExpired: () => void;
  onForbidden: () => void;
  onNotFound: (data: NotFoundErrorData) => void;
  onMissingOnWrite: () => void;
  /** false for the second client: same headers, no retry. */
  retry: boolean;
  /**
   * The ward readable offline (issue 40, lib/offline/read-cache.ts): answered GETs are kept, and a GET without
   * an answer is served from the kept copy when there is one.
   */
  readCache?: { keep: (url: string, body: unknown) => void; recall: (url: string) => Promise<unknown> };
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
}

/** '/api/patients/' for 'patients/', '/patients/' or '/api/patients/'. */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  let url = path;
  if (!/^https?:\/\//i.test(url)) {
    const bare = url.replace(/^\/+/, '');
    url = bare.startsWith('api/') ? `/${bare}` : `/api/${bare}`;
  }
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
    }
    const search = params.toString();
    if (search) url += (url.includes('?') ? '&' : '?') + search;
  }
  return url;
}

/**
 * The error for a call that got no (complete) answer: the caller's own abort stays an AbortError; anything else
 * — a failed fetch, or the browser cancelling the call because the page is being left or reloaded (which Chromium
 * reports as an AbortError too) — is an ApiError with status 0.
 */
function noAnswer(error: unknown, signal?: AbortSignal | null): unknown {
  if (signal?.aborted) return error;
  return new ApiError(0, null, error instanceof Error ? error.message : 'Network error');
}

/**
 * Reads the answer's body. A body cut off on the way (the connection dropped, or the page is being left or
 * reloaded while it arrives) means no answer came: an ApiError with status 0, like a failed fetch — never a
 * raw TypeError that callers would take for a server error (decision 0011).
 */
async function readBody(response: Response, signal?: AbortSignal | null): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw noAnswer(error, signal);
  }
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

/** A file's body; cut off on the way, it is no answer (status 0), like `readBody`. */
async function readBlob(response: Response, signal?: AbortSignal | null): Promise<Blob> {
  try {
    return await response.blob();
  } catch (error) {
    throw noAnswer(error, signal);
  }
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  let refreshing: Promise<string | null> | null = null;

  function refreshOnce(): Promise<string | null> {
    if (!refreshing) {
      refreshing = deps.refreshTokens().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  function buildHeaders(options: RequestOptions, token: string | null, hasBody: boolean): Headers {
    const headers = new Headers(options.headers);
    headers.set('Accept', 'application/json');
    headers.set('Accept-Language', deps.getLanguage());
    // A FormData body (a file upload) sets its own multipart type with the boundary.
    if (hasBody && !isFormData(options.body)) headers.set('Content-Type', 'application/json');
    if (!options.public) {
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const hospitalId = deps.getHospitalId();
      if (hospitalId) headers.set('Hospital-ID', hospitalId);
    }
    return headers;
  }

  async function send(method: HttpMethod, url: string, options: RequestOptions, token: string | null) {
    const hasBody = options.body !== undefined && method !== 'GET';
    return deps.fetch()(url, {
      method,
      headers: buildHeaders(options, token, hasBody),
      body: hasBody ? (isFormData(options.body) ? options.body : JSON.stringify(options.body)) : undefined,
      signal: options.signal,
      credentials: 'same-origin',
    });
  }

  async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const url = apiUrl(path, options.query);
    let token = options.public ? null : deps.getAccessToken();
    let attempt = 1;
    let refreshed = false;

    for (;;) {
      let response: Response;
      try {
        response = await send(method, url, options, token);
      } catch (error) {
        const failure = noAnswer(error, options.signal);
        if (method === 'GET' && !options.blob && deps.readCache && isApiError(failure)) {
          const kept = await deps.readCache.recall(url);
          if (kept !== undefined) return kept as T;
        }
        throw failure;
      }

      if (response.ok) {
        if (options.blob) return (await readBlob(response, options.signal)) as T;
        const body = await readBody(response, options.signal);
        if (method === 'GET') deps.readCache?.keep(url, body);
        return body as T;
      }

      const status = response.status;

      if (status === 401 && !options.public && !options.skipRefresh && !refreshed) {
        refreshed = true;
        const current = deps.getAccessToken();
        if (current && current !== token) {
          // Another request already refreshed the pair while this one was in flight.
          token = current;
          continue;
        }
        if (!deps.getRefreshToken()) {
          deps.onSessionExpired();
          throw new ApiError(401, (await readBody(response, options.signal)) as ApiErrorBody);
        }
        const fresh = await refreshOnce();
        if (!fresh) {
          deps.onSessionExpired();
          throw new ApiError(401, (await readBody(response, options.signal)) as ApiErrorBody);
        }
        token = fresh;
        continue;
      }

      if (deps.retry && shouldRetryRequest(method, status, attempt)) {
        await deps.sleep(retryDelayMs(attempt));
        attempt += 1;
        continue;
      }

      const body = (await readBody(response, options.signal)) as ApiErrorBody;
      const error = new ApiError(status, body ?? null);

      if (!options.public && !options.silent) {
        if (status === 403) {
          deps.onForbidden();
        } else if (status === 404) {
          if (method === 'GET') {
            const notFound = options.notFoundRedirect === false ? null : notFoundFromApiPath(url);
            if (notFound) deps.onNotFound(notFound);
          } else {
            deps.onMissingOnWrite();
          }
        }
      }
      throw error;
    }
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}

/** The URL of the error page for a missing resource. */
export function notFoundPageUrl(data: NotFoundErrorData): string {
  const params = new URLSearchParams({ type: data.resourceType, id: data.resourceId });
  return `/error-404?${params.toString()}`;
}

export const defaultApiClientDeps: ApiClientDeps = {
  fetch: () => globalThis.fetch.bind(globalThis),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  getAccessToken: () => useAuthStore.getState().access,
  getRefreshToken: () => useAuthStore.getState().refresh,
  getHospitalId: () => useAuthStore.getState().currentHospitalId,
  getLanguage: uiLanguage,
  refreshTokens,
  onSessionExpired: () => logout({ expired: true }),
  onForbidden: () => {
    toast({
      kind: 'error',
      title: translate('errors:forbidden.title'),
      description: translate('errors:forbidden.message'),
    });
    navigateTo('/');
  },
  onNotFound: (data) => navigateTo(notFoundPageUrl(data)),
  onMissingOnWrite: () => {
    toast({
      kind: 'warning',
      title: translate('errors:missingOnWrite.title'),
      description: translate('errors:missingOnWrite.message'),
    });
  },
  retry: true,
  readCache,
};

/** The API client. */
export const api = createApiClient(defaultApiClientDeps);

/** The second client: same headers and error handling, no retry. */
export const apiNoRetry = createApiClient({ ...defaultApiClientDeps, retry: false });
