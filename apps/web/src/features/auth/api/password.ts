/** Password calls of the signed-out pages: forgot and reset (public). */
import { api } from '../../../lib/api-client';

export function forgotPassword(email: string): Promise<unknown> {
  return api.post('auth/forgot-password/', { email }, { public: true });
}

export function resetPassword(input: { token: string; uid: string; new_password: string }): Promise<unknown> {
  return api.post('auth/reset-password/', input, { public: true });
}

/**
 * The uid and token of a reset link. The server sends `/reset-password/{uid}.{token}` (the uid is a UUID,
 * which contains '-'; the token is base64url without dots). Also accepted: `{token}?uid=…` and
 * `{uid}-{token}` for a uid without '-' (split at the first '-').
 */
export function parseResetToken(segment: string, search: string): { uid: string; token: string } | null {
  const raw = decodeURIComponent(segment ?? '').trim();
  const uidParam = new URLSearchParams(search).get('uid');
  if (uidParam && raw) return { uid: uidParam, token: raw };
  const dot = raw.indexOf('.');
  if (dot > 0 && dot < raw.length - 1) return { uid: raw.slice(0, dot), token: raw.slice(dot + 1) };
  const uuid = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(.+)$/i.exec(raw);
  if (uuid?.[1] && uuid[2]) return { uid: uuid[1], token: uuid[2] };
  const dash = raw.indexOf('-');
  if (dash > 0 && dash < raw.length - 1) return { uid: raw.slice(0, dash), token: raw.slice(dash + 1) };
  return null;
}
