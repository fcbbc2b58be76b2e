import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 7 * 24 * 60 * 60;
const ISSUER = 'greensen';

export interface AccessClaims {
  userId: string;
  tokenVersion: number;
  /** Session (refresh-token family) the access token belongs to, when issued by login/refresh. */
  sessionId?: string | undefined;
}

/**
 * The HMAC key of a secret, imported once: importing it for every request (what jose does with raw bytes)
 * took nearly two thirds of an authenticated request's time (docs/performance.md).
 */
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
function keyOf(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(secret: string, claims: AccessClaims, ttlSeconds = ACCESS_TOKEN_TTL_S) {
  return new SignJWT({
    typ: 'access',
    tv: claims.tokenVersion,
    ...(claims.sessionId ? { sid: claims.sessionId } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(await keyOf(secret));
}

/**
 * Access tokens already verified, per secret, with their expiry: a client sends the same token with every
 * request for up to 15 minutes, and verifying its signature again (a WebCrypto job) was the largest share of a
 * signed-in request once the user check stopped reading the database (docs/performance.md). Only tokens whose
 * signature verified are kept (at most MAX_VERIFIED per secret, the oldest go first); the expiry is checked
 * again on every use. What a token grants — user active, version, session, memberships — is not decided here
 * but by the caller, on every request.
 */
const MAX_VERIFIED = 10_000;
const verified = new Map<string, Map<string, { claims: AccessClaims; exp: number }>>();

function verifiedOf(secret: string) {
  let map = verified.get(secret);
  if (!map) {
    map = new Map();
    verified.set(secret, map);
  }
  return map;
}

/** Verifies an access token: HS256 only, our issuer, not expired, of type access. Returns null if not valid. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  const known = verifiedOf(secret);
  const hit = known.get(token);
  if (hit) {
    if (hit.exp > Date.now() / 1000) return hit.claims;
    known.delete(token);
    return null;
  }
  const claims = await verifySignedAccessToken(secret, token);
  if (claims) {
    if (known.size >= MAX_VERIFIED) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
    known.set(token, claims);
    return claims.claims;
  }
  return null;
}

async function verifySignedAccessToken(
  secret: string,
  token: string,
): Promise<{ claims: AccessClaims; exp: number } | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
    });
    if (
      payload.typ !== 'access' ||
      typeof payload.sub !== 'string' ||
      typeof payload.tv !== 'number' ||
      typeof payload.exp !== 'number'
    )
      return null;
    return {
      claims: {
        userId: payload.sub,
        tokenVersion: payload.tv,
        sessionId: typeof payload.sid === 'string' ? payload.sid : undefined,
      },
      exp: payload.exp,
    };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
