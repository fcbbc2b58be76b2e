import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

// The list sits beside this module's source; the path works from src/ and from dist/ (same depth).
const LIST_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../src/modules/auth/common-passwords.txt',
);

let common: Set<string> | undefined;

/** The shipped list of common passwords, loaded once, lower-cased. */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(LIST_PATH, 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line.length > 0 && !line.startsWith('#')),
  );
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.trim().toLowerCase());
}

/** A new password: 12 to 128 characters, no composition rules, not in the common list (NIST SP 800-63B). */
export const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN, 'password.too_short')
  .max(PASSWORD_MAX, 'password.too_long')
  .refine((p) => !isCommonPassword(p), 'password.too_common');

const PIN_RE = /^\d{4,6}$/;

/** Same digit repeated, or digits that go up or down by one all along (1234, 9876, 012345). */
export function isTrivialPin(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - digits[i]!);
  return steps.every((s) => s === 0) || steps.every((s) => s === 1) || steps.every((s) => s === -1);
}

export const ZNewPin = z
  .string()
  .regex(PIN_RE, 'pin.format')
  .refine((p) => !PIN_RE.test(p) || !isTrivialPin(p), 'pin.too_simple');
