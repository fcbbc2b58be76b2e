/** GET /api/profile/: the signed-in user, refreshed at start-up and whenever their hospitals or roles change. */

import { type User, useUserStore } from '../stores/user';
import { ApiError, api } from './api-client';
import { translate } from './i18n';
import { logout } from './session';
import { toast } from './toast';

export const PROFILE_QUERY_KEY = ['profile'] as const;

export function fetchProfile(): Promise<User> {
  return api.get<User>('profile/');
}

/**
 * Refreshes the user from the server. If no user comes back or the server answers with an error, the user is
 * logged out (specification §4). Resolves to the user or null. When no answer came at all (offline, or the
 * call aborted because the page is being left or reloaded) the session is kept and the error is thrown: the
 * caller offers a retry (decision 0011).
 */
export async function refreshUser(): Promise<User | null> {
  try {
    const user = await fetchProfile();
    if (!user || typeof user !== 'object' || !('id' in user)) {
      logout();
      return null;
    }
    useUserStore.getState().setUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) throw error;
    // A refused session (401) was already ended, with its own notice, by the API client; any other failure is
    // said as the specification words it (§8) before the user is signed out.
    if (!(error instanceof ApiError && error.status === 401))
      toast({ kind: 'error', title: translate('errors:profileFetchFailed') });
    logout();
    return null;
  }
}
