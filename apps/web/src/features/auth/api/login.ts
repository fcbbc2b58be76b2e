/** POST /api/login/ {email, password} → {access, refresh, user?}; when user is missing it is fetched. */
import { api } from '../../../lib/api-client';
import { completeLogin } from '../../../lib/session';
import type { User } from '../../../stores/user';

export interface LoginInput {
  email: string;
  password: string;
}

interface LoginResponse {
  access: string;
  refresh: string;
  user?: User | null;
}

export async function login(input: LoginInput): Promise<User> {
  const body = await api.post<LoginResponse>('login/', input, { public: true });
  let user = body.user ?? null;
  if (!user) {
    user = await api.get<User>('profile/', {
      public: true,
      headers: { Authorization: `Bearer ${body.access}` },
    });
  }
  completeLogin({ access: body.access, refresh: body.refresh }, user);
  return user;
}
