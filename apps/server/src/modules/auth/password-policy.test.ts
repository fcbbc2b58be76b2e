import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonPasswords, isCommonPassword, isTrivialPin, ZNewPassword, ZNewPin } from './password-policy.js';

describe('password policy', () => {
  it('ships a list of several thousand common passwords, all long enough to matter', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThan(3000);
    for (const p of ['password123456', 'azertyuiop123', 'motdepasse123', 'septembre2024', '123456789012'])
      expect(list.has(p), p).toBe(true);
    expect([...list].every((p) => p.length >= 12 && p === p.toLowerCase())).toBe(true);
  });

  it('compares case-insensitively', () => {
    expect(isCommonPassword('PassWord123456')).toBe(true);
    expect(isCommonPassword('MotDePasse2025!')).toBe(true);
    expect(isCommonPassword('lantern-harbour-violet-47')).toBe(false);
  });

  it('accepts any 12–128 character password that is not common, with no composition rules', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 128 }), (p) => {
        fc.pre(!isCommonPassword(p));
        return ZNewPassword.safeParse(p).success;
      }),
    );
    expect(ZNewPassword.safeParse('all lower case words here').success).toBe(true);
    expect(ZNewPassword.safeParse('a'.repeat(11)).success).toBe(false);
    expect(ZNewPassword.safeParse('a'.repeat(129)).success).toBe(false);
  });

  it('refuses trivial and malformed PINs', () => {
    for (const pin of ['0000', '1234', '987654', '012345', '55555'])
      expect(isTrivialPin(pin), pin).toBe(true);
    for (const pin of ['4826', '190373', '1235']) expect(isTrivialPin(pin), pin).toBe(false);
    expect(ZNewPin.safeParse('4826').success).toBe(true);
    for (const pin of ['482', '4826131', '48a6', ' 4826', '1234'])
      expect(ZNewPin.safeParse(pin).success, pin).toBe(false);
  });
});
