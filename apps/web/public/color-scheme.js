// Applies the saved colour scheme before the first paint (external file: the CSP forbids inline scripts).
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
  if (path === '/en' || path.startsWith('/en/')) root.setAttribute('lang', 'en');
})();
