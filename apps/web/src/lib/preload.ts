/**
 * Idle preloading of route chunks: when the browser is idle, the chunks of the modules the user may open
 * are fetched, at most 4 at once (specification §9).
 */
import { MAX_CONCURRENT_PRELOADS } from '@greensen/shared/domain/constants';

export type Loader = () => Promise<unknown>;

const done = new Set<Loader>();

/** Runs loaders with at most `limit` in flight. Failures are ignored. */
export async function runWithLimit(
  loaders: readonly Loader[],
  limit = MAX_CONCURRENT_PRELOADS,
): Promise<void> {
  const queue = loaders.filter((loader) => !done.has(loader));
  const worker = async () => {
    for (let loader = queue.shift(); loader; loader = queue.shift()) {
      done.add(loader);
      try {
        await loader();
      } catch {
        done.delete(loader);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
}

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Schedules the preloading at idle time (setTimeout fallback). Returns a cancel function. */
export function preloadWhenIdle(loaders: readonly Loader[]): () => void {
  const win = window as IdleWindow;
  if (win.requestIdleCallback) {
    const handle = win.requestIdleCallback(() => void runWithLimit(loaders), { timeout: 5000 });
    return () => win.cancelIdleCallback?.(handle);
  }
  const handle = window.setTimeout(() => void runWithLimit(loaders), 2000);
  return () => window.clearTimeout(handle);
}
