/**
 * Idle preloading of route chunks: when the browser is idle, the chunks of the modules the user may open
 * are fetched, at most 4 at once (specification §9). Idle also means the app's own requests are done: while
 * `busy()` holds (the screen's queries in flight), no chunk starts, so that on a slow link the preloading never
 * queues the screen's data behind it (issue 16).
 */
import { MAX_CONCURRENT_PRELOADS } from '@greensen/shared/domain/constants';

export type Loader = () => Promise<unknown>;

const done = new Set<Loader>();

/** How often a waiting preloader looks again whether the app is still busy. */
export const BUSY_RECHECK_MS = 250;

const notBusy = () => false;

async function untilIdle(busy: () => boolean): Promise<void> {
  while (busy()) await new Promise((resolve) => setTimeout(resolve, BUSY_RECHECK_MS));
}

/** Runs loaders with at most `limit` in flight, none starting while `busy()` holds. Failures are ignored. */
export async function runWithLimit(
  loaders: readonly Loader[],
  limit = MAX_CONCURRENT_PRELOADS,
  busy: () => boolean = notBusy,
): Promise<void> {
  const queue = loaders.filter((loader) => !done.has(loader));
  const worker = async () => {
    for (let loader = queue.shift(); loader; loader = queue.shift()) {
      await untilIdle(busy);
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
export function preloadWhenIdle(loaders: readonly Loader[], busy: () => boolean = notBusy): () => void {
  const win = window as IdleWindow;
  const run = () => void runWithLimit(loaders, MAX_CONCURRENT_PRELOADS, busy);
  if (win.requestIdleCallback) {
    const handle = win.requestIdleCallback(run, { timeout: 5000 });
    return () => win.cancelIdleCallback?.(handle);
  }
  const handle = window.setTimeout(run, 2000);
  return () => window.clearTimeout(handle);
}
