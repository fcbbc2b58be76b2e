/**
 * Idempotency keys of writes that must happen once (issue 20: a dose given is recorded once, whatever a double tap
 * or a retry on a slow network does). A key is made once per entry — when the nurse opens the dose's form — and
 * sent with every submit of that entry; the server records the first and answers the same to the others. A new
 * entry (the form opened again after a success) gets a new key.
 *
 * `crypto.randomUUID` exists only in secure contexts (HTTPS or localhost); hospitals also reach the app over plain
 * HTTP on their network, so the UUID (version 4) is built from `crypto.getRandomValues`, available everywhere.
 */
import { useCallback, useState } from 'react';

export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The key of the entry being made, and `renew()` for the next entry (call it after a success only). */
export function useIdempotencyKey(): { key: string; renew: () => void } {
  const [key, setKey] = useState(newIdempotencyKey);
  const renew = useCallback(() => setKey(newIdempotencyKey()), []);
  return { key, renew };
}
