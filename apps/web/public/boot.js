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
  // The language as src/lib/language.ts detects it (specification §2): the /en prefix, else the `lang` cookie,
  // else the first of the browser's languages we have, else French. Only that language's strings are fetched
  // (issue 38: an English browser at /login fetched the French strings too before the form).
  let lang = 'fr';
  if (prefixed) lang = 'en';
  else {
    const cookie = /(?:^|;\s*)lang=(fr|en)(?:;|$)/.exec(document.cookie)?.[1];
    if (cookie) lang = cookie;
    else {
      const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
      for (const tag of languages) {
        const base = String(tag).toLowerCase().split('-')[0];
        if (base === 'fr' || base === 'en') {
          lang = base;
          break;
        }
      }
    }
    // An unprefixed path in English becomes its /en path here, before anything is painted, as the app's
    // applyLandingLanguage would do a moment later (it then finds the path prefixed and does nothing).
    if (lang === 'en') {
      const rest = path === '/' ? '' : path;
      const { search, hash } = window.location;
      window.history.replaceState(window.history.state, '', `/en${rest}${search}${hash}`);
    }
  }
  root.setAttribute('lang', lang);
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
