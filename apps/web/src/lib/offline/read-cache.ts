/**
 * The ward readable offline (issue 40): the API client hands every answered GET of a kept path here, and asks for
 * the kept copy when a GET gets no answer. The copy is the caller's own (user and hospital); the time of the
 * oldest copy shown since the link dropped is published for the banner ("données du 14:32").
 */
import { useSyncExternalStore } from 'react';
import { isKeptRead, offlineOwner } from './policy';

/** A copy older than this (a long shift) is not served (decision 0064). */
export const MAX_AGE_MS = 12 * 3_600_000;

let shownSince: string | null = null;
const listeners = new Set<() => void>();
const publish = (at: string | null) => {
  shownSince = at;
  for (const l of listeners) l();
};

export const readCache = {
  keep(url: string, body: unknown): void {
    if (!isKeptRead(url) || typeof indexedDB === 'undefined') return;
    const owner = offlineOwner();
    if (!owner) return;
    if (shownSince) publish(null);
    void import('./store')
      .then(async ({ offlineDb }) =>
        (await offlineDb()).put('reads', { url, owner, at: new Date().toISOString(), body }),
      )
      .catch(() => undefined);
  },
  /** The kept copy of `url` for the signed-in nurse, or undefined. */
  async recall(url: string): Promise<unknown> {
    if (!isKeptRead(url) || typeof indexedDB === 'undefined') return undefined;
    const owner = offlineOwner();
    if (!owner) return undefined;
    try {
      const { offlineDb } = await import('./store');
      const kept = await (await offlineDb()).get('reads', url);
      // Only the nurse's own copy, and not past a shift: an older copy is not shown as the ward's state.
      if (!kept || kept.owner !== owner || Date.now() - Date.parse(kept.at) > MAX_AGE_MS) return undefined;
      if (!shownSince || kept.at < shownSince) publish(kept.at);
      return kept.body;
    } catch {
      return undefined;
    }
  },
};

/** The time of the oldest kept copy on screen since the link dropped, or null when everything is live. */
export function useOfflineCopyTime(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => shownSince,
  );
}
