import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './tokens.js';

const SECRET = 'unit-secret-0123456789abcdef0123456789abcdef';
const CLAIMS = { userId: '00000000-0000-7000-8000-000000000001', tokenVersion: 3, sessionId: 'sid-1' };

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('verifies a token it signed, again and again, with the same claims', async () => {
    const token = await signAccessToken(SECRET, CLAIMS);
    expect(await verifyAccessToken(SECRET, token)).toEqual(CLAIMS);
    expect(await verifyAccessToken(SECRET, token)).toEqual(CLAIMS);
  });

  it('refuses a token signed with another secret, even after verifying it under its own', async () => {
    const token = await signAccessToken(SECRET, CLAIMS);
    expect(await verifyAccessToken(SECRET, token)).not.toBeNull();
    expect(await verifyAccessToken(`${SECRET}-other`, token)).toBeNull();
  });

  it('refuses an altered token', async () => {
    const token = await signAccessToken(SECRET, CLAIMS);
    await verifyAccessToken(SECRET, token);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...payload, tv: 4 })).toString('base64url'), s].join('.');
    expect(await verifyAccessToken(SECRET, forged)).toBeNull();
  });

  it('stops accepting a token once it expires, including one already verified', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T10:00:00Z'));
    const token = await signAccessToken(SECRET, CLAIMS, 60);
    expect(await verifyAccessToken(SECRET, token)).toEqual(CLAIMS);
    vi.setSystemTime(new Date('2026-11-23T10:00:59Z'));
    expect(await verifyAccessToken(SECRET, token)).toEqual(CLAIMS);
    vi.setSystemTime(new Date('2026-11-23T10:01:00Z'));
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });
});
