/** PUT /api/profile/: the signed-in user's own changes (the refresh is lib/profile.ts). */
import { api } from '../../../lib/api-client';
import { type User, useUserStore } from '../../../stores/user';

export async function updateProfile(profile: {
  language_preference?: string;
  first_name?: string;
  last_name?: string;
}): Promise<User | null> {
  const user = await api.put<User | undefined>('profile/', { profile });
  if (user && typeof user === 'object' && 'id' in user) useUserStore.getState().setUser(user);
  return user ?? null;
}
