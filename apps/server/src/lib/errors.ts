import type { MessageKey, MessageParam } from './i18n.js';

export type FieldErrors = Record<string, string[]>;

/**
 * An error with a known HTTP answer. `key` is an i18n message key (translated per request) or, for 400,
 * field errors whose messages are keys or already-translated texts.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey | string,
    readonly extra: {
      fields?: FieldErrors;
      code?: string;
      params?: Record<string, MessageParam>;
      /** More fields of a 409's body (e.g. the bookings a schedule change would affect). */
      body?: Record<string, unknown>;
    } = {},
  ) {
    super(key);
  }
}

export const badRequest = (fields: FieldErrors) => new ApiError(400, 'validation.invalid', { fields });
export const unauthorized = (key: MessageKey | string = 'auth.token_invalid', code = 'token_not_valid') =>
  new ApiError(401, key, { code });
export const forbidden = (key: MessageKey | string = 'auth.forbidden') => new ApiError(403, key);
export const notFound = (key: MessageKey | string = 'error.not_found') => new ApiError(404, key);
export const conflict = (key: MessageKey | string, params?: Record<string, MessageParam>) =>
  new ApiError(409, key, params ? { params } : {});
export const tooManyRequests = () => new ApiError(429, 'error.too_many_requests');

/** The unique constraint a database error violated (PostgreSQL 23505, through driver wrappers), or null. */
export function isUniqueViolation(err: unknown): { constraint: string } | null {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') {
      return { constraint: typeof constraint === 'string' ? constraint : String(message ?? '') };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A CHECK constraint refused the row (PostgreSQL 23514, through driver wrappers): a pharmacy lot that would go
 * negative, an appointment slot booked beyond its capacity.
 */
export function isCheckViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === '23514') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
