import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets kept in the database (a mobile-money operator's callback secret, decision 0040) are encrypted with the
 * server's key (`SECRETS_KEY`): AES-256-GCM with a random 96-bit nonce, stored as `v1:<iv>:<tag>:<ciphertext>`
 * (base64url). The key is the SHA-256 of the configured text. A stored value that was altered, or encrypted with
 * another key, does not decrypt (null): the caller refuses what it protects.
 */
const keyOf = (secretsKey: string) => createHash('sha256').update(secretsKey, 'utf8').digest();

export function encryptSecret(secretsKey: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretsKey), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join(':');
}

export function decryptSecret(secretsKey: string, stored: string): string | null {
  const [version, iv, tag, body] = stored.split(':');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secretsKey), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
