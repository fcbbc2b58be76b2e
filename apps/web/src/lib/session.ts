/**
 * Session transitions (specification §4): login, token refresh (one at a time), hospital change, logout.
 * Token refresh and logout use `fetch` directly: they must not go through the API client's 401 path.
 */
import { LOGOUT_FLAG_MS } from '@greensen/shared/domain/constants';
import { useAuthStore } from '../stores/auth';
import { useLockStore } from '../stores/lock';
import { type User, useUserStore } from '../stores/user';
import { translate, uiLanguage } from './i18n';
import { navigateTo } from './navigation';
import { queryClient } from './query-client';
import { clearAllTimers, registerTimeout } from './timers';
import { toast } from './toast';

export interface TokenPair {
  access: string;
  refresh: string;
}

/** Stores the tokens and the user after a successful login. */
export function completeLogin(tokens: TokenPair, user: User | null): void {
  useAuthStore.getState().setTokens(tokens.access, tokens.refresh);
  useAuthStore.getState().setLoggingOut(false);
  useLockStore.getState().unlock();
  if (user) useUserStore.getState().setUser(user);
}

let refreshInFlight: Promise<string | null> | null = null;

async function doRefresh(): Promise<string | null> {
  const refresh = useAuthStore.getState().refresh;
  if (!refresh) return null;
  try {
    const response = await fetch('/api/token/refresh/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': uiLanguage() },
      body: JSON.stringify({ refresh }),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Partial<TokenPair>;
    if (!body.access || !body.refresh) return null;
    useAuthStore.getState().setTokens(body.access, body.refresh);
    return body.access;
  } catch {
    return null;
  }
}

/**
 * Replaces the token pair using the refresh token. One refresh runs at a time: concurrent callers
 * share it. Resolves to the new access token, or null when there is no refresh token or it failed.
 */
export function refreshTokens(): Promise<string | null> {
  if (!refreshInFlight) {
    refreshInFlight = doRefresh().finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

/** Changes hospital: first department of it, every later request carries the new Hospital-ID. */
export function switchHospital(hospitalId: string): void {
  useUserStore.getState().changeHospital(hospitalId);
  void queryClient.invalidateQueries();
}

export interface LogoutOptions {
  /** Shows the yellow 'session expired' notice. */
  expired?: boolean;
}

/**
 * Logout (or failed refresh): clears tokens, hospital, user and department, stops every periodic timer,
 * holds the logging-out flag for 5000 ms and goes to /login (keeping the language prefix).
 * The server is told best-effort.
 */
export function logout(options: LogoutOptions = {}): void {
  const { access, refresh } = useAuthStore.getState();
  // Several requests refused at once when a session is revoked each end it: the first one does, the others find
  // no session left — one logout, one notice (issue 25).
  if (options.expired && !access && !refresh) return;
  clearAllTimers();
  useAuthStore.getState().clear();
  useUserStore.getState().clear();
  useLockStore.getState().unlock();
  useAuthStore.getState().setLoggingOut(true);
  registerTimeout('session:logging-out', () => useAuthStore.getState().setLoggingOut(false), LOGOUT_FLAG_MS);
  queryClient.clear();
  // Issue 40: the ward's copy and the queued records of this session leave the device with it.
  void import('./offline/clinical-queue').then((m) => m.clearOfflineWard()).catch(() => undefined);
  navigateTo('/login', { replace: true });
  if (options.expired) {
    toast({
      kind: 'warning',
      title: translate('errors:sessionExpired.title'),
      description: translate('errors:sessionExpired.message'),
    });
  }
  if (refresh) {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Accept-Language': uiLanguage(),
    };
    if (access) headers.Authorization = `Bearer ${access}`;
    try {
      void fetch('/api/logout/', { method: 'POST', headers, body: JSON.stringify({ refresh }) }).catch(
        () => undefined,
      );
    } catch {
      // best effort
    }
  }
}
