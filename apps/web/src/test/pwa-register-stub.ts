/** Tests have no service worker: `virtual:pwa-register` (written by vite-plugin-pwa at build) registers nothing. */
export function registerSW(): (reload?: boolean) => Promise<void> {
  return async () => undefined;
}
