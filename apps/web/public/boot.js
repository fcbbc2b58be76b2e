// Runs before the app (external file: the CSP forbids inline scripts). It applies the saved colour scheme and the
// language of an /en path before the first paint, and starts downloading what the first screen will ask for once
// the app runs — the language's strings and, when signed in, the shell — beside the app's own chunks instead of
// after them (the build lists the files in the `greensen-preload` meta tag: apps/web/vite.config.ts;
// docs/decisions/0017-compressed-delivery.md).
(() => {
  const root = document.documentElement;
  try {
    const saved = window.localStorage.getItem('greensen-color-scheme');
    let scheme = saved === 'light' || saved === 'dark' ? saved : 'auto';
    if (scheme === 'auto') {
      scheme = window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    }
    root.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // storage unavailable: Mantine applies the scheme itself after load
  }
  const path = window.location.pathname;
  const prefixed = path === '/en' || path.startsWith('/en/');
  if (prefixed) root.setAttribute('lang', 'en');
  // The strings to fetch: English under /en or when the language cookie says so, else French. On a first visit
  // the browser's languages may still make the app choose English (src/lib/language.ts decides): the French
  // strings fetched here then go unused, and the app loads its own.
  const lang = prefixed || /(?:^|;\s*)lang=en(?:;|$)/.test(document.cookie) ? 'en' : 'fr';
  const files = Object.fromEntries(
    (document.querySelector('meta[name="greensen-preload"]')?.getAttribute('content') ?? '')
      .split(',')
      .map((entry) => entry.split('=')),
  );
  const preload = (name) => {
    const file = files[name];
    if (!file?.startsWith('/assets/')) return;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  };
  preload(`locale-${lang}`);
  // Signed in (the session store, src/stores/auth.ts): the shell, the dashboard and the other strings come next.
  let signedIn = false;
  try {
    signedIn =
      JSON.parse(window.localStorage.getItem('greensen-auth') ?? '{}')?.state?.isAuthenticated === true;
  } catch {
    // no storage, or not ours: nothing more to preload
  }
  if (signedIn) {
    preload('shell');
    preload(`locale-${lang}-more`);
  }
})();
