// The switches of the headless Chromium that the end-to-end suite and the bench drive (Debian's, never a
// downloaded build): the ones the brief names, and the browser's own interface kept out of the measured pages.
//
// Chromium 15x builds the address bar's suggestion popup as a web page of its own ("top chrome" WebUI:
// chrome://omnibox-popup.top-chrome, ~200 chrome:// resources in a renderer of its own), and headless Chromium
// builds it again for every new browser context — that is, for every page load the bench or a test makes. On a
// 2-core machine that renderer took a core while our page loaded (decision 0094: the slow screens 0.82–1.12 s
// with it, 0.54–0.74 s without, same build, alternated loads). A user's browser builds it once per window, not
// per page. Puppeteer turned both features off in its default launch switches for the same reason; Chromium
// merges this list with Playwright's own `--disable-features` (seen in chrome://version).
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];
