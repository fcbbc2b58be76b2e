/**
 * New-build detection: /build.json is polled every 5 minutes and when the tab becomes visible; when its
 * id differs from the one this page was built with, a persistent notice offers to reload.
 */
import { BUILD_POLL_MS } from '@greensen/shared/domain/constants';
import { registerInterval } from './timers';

export const CURRENT_BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

export async function fetchLatestBuildId(send: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await send(`/build.json?ts=${Date.now()}`, { cache: 'no-store' });
    if (!response.ok) return null;
    const body = (await response.json()) as { build_id?: unknown };
    return typeof body.build_id === 'string' ? body.build_id : null;
  } catch {
    return null;
  }
}

/** Whether the deployed build differs from the running one. */
export function isNewBuild(latest: string | null, current: string = CURRENT_BUILD_ID): boolean {
  return latest !== null && latest !== current;
}

/**
 * Starts watching; `onNewBuild` is called once when a new build is found. Returns a stop function.
 * Not started in development (no build.json).
 */
export function watchForNewBuild(onNewBuild: () => void): () => void {
  let notified = false;
  const check = async () => {
    if (notified) return;
    if (isNewBuild(await fetchLatestBuildId())) {
      notified = true;
      onNewBuild();
    }
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') void check();
  };
  const stopInterval = registerInterval('platform:build-check', () => void check(), BUILD_POLL_MS);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    stopInterval();
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
