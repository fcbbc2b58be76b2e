import { api } from '../../../lib/api-client';
import { useAuthStore } from '../../../stores/auth';

/** Changes the password; the server ends the other sessions and answers with a fresh token pair for this one. */
export async function changePassword(input: {
  current_password: string;
  new_password: string;
}): Promise<void> {
  const pair = await api.post<{ access: string; refresh: string }>('auth/change-password/', input);
  useAuthStore.getState().setTokens(pair.access, pair.refresh);
}
