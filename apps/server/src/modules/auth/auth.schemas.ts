import { z } from 'zod';
import { ZNewPassword, ZNewPin } from './password-policy.js';

// Request and response bodies of the accounts and sessions API (spec §7, issue 3). The web app needs the same
// schemas; they move to packages/shared/src/contracts/auth.ts later.

/** Lower-cased, trimmed, checked email (registration, resend, forgot-password). */
export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'email.invalid')
  .regex(z.regexes.email, 'email.invalid');

const ZName = z.string().trim().min(1, 'name.required').max(100, 'name.too_long');
const ZLanguage = z.enum(['fr', 'en']);

export const ZLoginBody = z.object({
  // Not format-checked: anything that is not an account is the same 401.
  email: z.string().trim().toLowerCase().min(1).max(254),
  password: z.string().min(1).max(1024),
});

export const ZTokenPair = z.object({ access: z.string(), refresh: z.string() });

export const ZUser = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string(),
  full_name: z.string(),
  profile: z.object({
    first_name: z.string(),
    last_name: z.string(),
    language_preference: ZLanguage,
  }),
  hospitals: z.array(z.object({ id: z.uuid(), name: z.string(), code: z.string() })),
  departments: z.array(z.object({ id: z.uuid(), name: z.string(), hospital: z.uuid() })),
  active_roles: z.array(
    z.object({ role_code: z.string(), hospital: z.uuid(), department: z.uuid().nullable() }),
  ),
  roles: z.array(z.object({ code: z.string(), name: z.string() })),
  /** Whether a PIN unlocks the locked session (else the password does). */
  has_pin: z.boolean(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZLoginResponse = ZTokenPair.extend({ user: ZUser });

export const ZRefreshBody = z.object({ refresh: z.string().min(1).max(512) });
export const ZLogoutBody = z.object({ refresh: z.string().min(1).max(512).optional() });

export const ZProfileUpdateBody = z.object({
  profile: z.object({
    language_preference: ZLanguage.optional(),
    first_name: ZName.optional(),
    last_name: ZName.optional(),
  }),
});

export const ZRegisterBody = z.object({
  email: ZEmail,
  first_name: ZName,
  last_name: ZName,
  password: ZNewPassword,
  /** Derived from the email when absent or empty. */
  username: z
    .string()
    .trim()
    .regex(/^[\w.@+-]{3,150}$/, 'username.invalid')
    .or(z.literal('').transform(() => undefined))
    .optional(),
  /** The language of the mails and of the profile; defaults to the request's language. */
  language_preference: ZLanguage.optional(),
});
export const ZRegisterResponse = z.object({ id: z.uuid(), email: z.string(), detail: z.string() });

export const ZEmailBody = z.object({ email: ZEmail });

// Checked by the service: whatever is wrong with the link, the answer is the same `400 {error}`.
export const ZVerifyParams = z.object({ uid: z.string(), token: z.string() });

export const ZResetBody = z.object({
  /** The token of the link; the link's `{uid}.{token}` segment is accepted too (then `uid` may be left out). */
  token: z.string().min(1).max(512),
  uid: z.string().max(64).optional(),
  new_password: ZNewPassword,
});

export const ZChangePasswordBody = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: ZNewPassword,
});

export const ZPinSetupBody = z.object({ pin: ZNewPin, password: z.string().min(1).max(1024) });
export const ZPinVerifyBody = z.object({ pin: z.string().max(32) });
export const ZUnlockBody = z.object({ password: z.string().max(1024) });
export const ZPinState = z.object({ has_pin: z.boolean() });
export const ZUnlocked = z.object({ ok: z.literal(true) });
export const ZUnlockFailed = z.record(z.string(), z.union([z.array(z.string()), z.number()]));

export const ZDetail = z.object({ detail: z.string() });
export const ZDetailCode = z.object({ detail: z.string(), code: z.string().optional() });
export const ZFieldErrors = z.record(z.string(), z.array(z.string()));
export const ZVerifyError = z.object({ error: z.string() });
