/**
 * A route chunk that fails to load (usually a new deployment removed it) triggers one full reload,
 * guarded by a sessionStorage timestamp for 10 seconds so a broken deployment cannot loop.
 */
import { RELOAD_GUARD_MS } from '@greensen/shared/domain/constants';

export const RELOAD_GUARD_KEY = 'greensen-chunk-reload-at';

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const text = `${error.name} ${error.message}`;
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Loading chunk [\w-]+ failed|Unable to preload CSS/i.test(
    text,
  );
}

/**
 * Reloads the page once for a chunk load error. Returns true when a reload was triggered,
 * false when the guard is still active (the error should then be shown).
 */
export function reloadOnceForChunkError(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => window.location.reload(),
  now: number = Date.now(),
  guardMs: number = RELOAD_GUARD_MS,
): boolean {
  const last = Number(storage.getItem(RELOAD_GUARD_KEY) ?? 0);
  if (last && now - last < guardMs) return false;
  storage.setItem(RELOAD_GUARD_KEY, String(now));
  reload();
  return true;
}

/** Wraps a dynamic import: a chunk load error reloads the page once, otherwise the error propagates. */
export function withChunkReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadOnceForChunkError()) {
        // Keep the route pending while the page reloads.
        return new Promise<T>(() => undefined);
      }
      throw error;
    });
}
