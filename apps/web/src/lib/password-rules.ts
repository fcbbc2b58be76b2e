/** Password bounds of the accounts issue: 12 to 128 characters, no composition rules. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

/** A PIN of the session lock: 4 to 6 digits. */
export const PIN_PATTERN = /^\d{4,6}$/;

export function isPasswordLengthValid(value: string): boolean {
  return value.length >= PASSWORD_MIN && value.length <= PASSWORD_MAX;
}
