/** Registration and email verification calls (public). */
import { api } from '../../../lib/api-client';

export interface RegisterInput {
  email: string;
  username?: string;
  first_name: string;
  last_name: string;
  password: string;
}

export function register(input: RegisterInput): Promise<unknown> {
  return api.post('register/', input, { public: true });
}

export function verifyEmail(uid: string, token: string): Promise<unknown> {
  return api.get(`verify-email/${encodeURIComponent(uid)}/${encodeURIComponent(token)}/`, { public: true });
}

export function resendVerification(email: string): Promise<unknown> {
  return api.post('register/resend-verification/', { email }, { public: true });
}
