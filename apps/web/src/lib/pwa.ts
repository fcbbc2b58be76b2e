/**
 * The service worker of the installable app (issue 40, vite.config.ts): registered by the signed-in shell once
 * the page has loaded — the sign-in page never loads it — and updated through the new-version notice: a new
 * build's worker waits, and the notice's reload activates it, so that the reloaded page is the new build.
 */
let update: ((reload?: boolean) => Promise<void>) | null = null;
let waiting = false;

/** Registers the worker after the `load` event (once per page). */
export function registerAppServiceWorker(onNewBuild: () => void): void {
  if (update || typeof window === 'undefined' || !('serviceWorker' in navigator)) return;
  const start = () => {
    void import('virtual:pwa-register')
      .then(({ registerSW }) => {
        update = registerSW({
          immediate: true,
          onNeedRefresh() {
            waiting = true;
            onNewBuild();
          },
        });
      })
      .catch(() => undefined);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/** Reloads into the newest build: activates a waiting worker first (it reloads the page), else reloads. */
export function reloadToNewBuild(): void {
  if (update && waiting) void update(true);
  else window.location.reload();
}
