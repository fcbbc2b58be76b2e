/**
 * The first start of a real installation (decision 0021): GET /api/setup/{token}/ says whether the printed link
 * still works; POST /api/setup/ creates the first hospital and administrator and answers like a sign-in.
 */
import type { TSetupFields, TSetupState } from '@greensen/shared/contracts/setup';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { loadAllNamespaces } from '../../../lib/i18n';
import { completeLogin } from '../../../lib/session';
import type { User } from '../../../stores/user';

/** The token of a setup link: `/register#setup=<token>` (a fragment never reaches a server or its logs). */
export function setupTokenOf(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('setup');
  return token && /^[A-Za-z0-9_-]{16,512}$/.test(token) ? token : null;
}

export function setupStateQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['setup', token],
    // The form's field messages come from the hospital and staff namespaces, not loaded on signed-out pages.
    queryFn: async ({ signal }) => {
      const [state] = await Promise.all([
        api.get<TSetupState>(`setup/${token}/`, { public: true, signal }),
        loadAllNamespaces(),
      ]);
      return state;
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export async function completeSetup(
  input: TSetupFields & { token: string; password: string },
): Promise<User> {
  const body = await api.post<{ access: string; refresh: string; user: User }>('setup/', input, {
    public: true,
  });
  completeLogin({ access: body.access, refresh: body.refresh }, body.user);
  return body.user;
}
