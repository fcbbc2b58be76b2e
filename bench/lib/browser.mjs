// The web app as a user on a slow link sees it: headless Chromium (Debian's, CHROMIUM_PATH) with the network
// and the CPU throttled through the Chrome DevTools Protocol, an empty cache for every load, and what crossed
// the wire counted from the protocol's own events (bytes as received, compressed or not).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../scripts/chromium-flags.mjs';

/** Our users' link (issue 16): 1.6 Mbps down, 750 kbps up, 150 ms round trip, CPU slowed 4×. */
export const SLOW_LINK = {
  downloadKbps: 1600,
  uploadKbps: 750,
  latencyMs: 150,
  cpuSlowdown: 4,
};

export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

export async function launchBrowser() {
  const executablePath = chromiumPath();
  if (!executablePath) return null;
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}

/**
 * Loads `url` in a new context (empty cache), throttled as `link`, until `ready` — a function run in the page
 * that returns true once the screen is usable — holds: `{ms, requests, bytes, encoded, urls}`. The page itself notes
 * the wall-clock time `ready` first held (checked at every DOM change, then at the next frame); `ms` runs from
 * the navigation's first request to then, `requests` counts the requests started before then and `bytes` what
 * they received (headers and bodies as they travelled), `encoded` how many answers came compressed, `urls`
 * what they asked for. Requests
 * the app starts once the screen is there (idle preloading) are not counted. `compressed: false` asks for the
 * same page uncompressed (Accept-Encoding: identity), the other side of the ratio; `storageState` restores a
 * signed-in session (localStorage) without the HTTP cache.
 */
export async function loadPage(
  browser,
  url,
  ready,
  { link = SLOW_LINK, compressed = true, storageState } = {},
) {
  const context = await browser.newContext({
    storageState,
    locale: 'fr-FR',
    viewport: { width: 1366, height: 800 },
  });
  await context.addInitScript((check) => {
    const ready = new Function(`return (${check})();`);
    const note = () => {
      if (window.__benchReadyAt === undefined && ready()) {
        requestAnimationFrame(() => {
          window.__benchReadyAt ??= Date.now();
        });
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(note);
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, ready.toString());
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: link.latencyMs,
    // -1: no limit.
    downloadThroughput: link.downloadKbps < 0 ? -1 : (link.downloadKbps * 1000) / 8,
    uploadThroughput: link.uploadKbps < 0 ? -1 : (link.uploadKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: link.cpuSlowdown });
  if (!compressed)
    await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });

  const started = new Map(); // requestId -> wall-clock ms
  const urls = new Map(); // requestId -> URL
  const received = new Map(); // requestId -> bytes
  const encoded = new Set();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!started.has(e.requestId)) started.set(e.requestId, e.wallTime * 1000);
    urls.set(e.requestId, e.request.url);
  });
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    if (headers['content-encoding']) encoded.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => received.set(e.requestId, e.encodedDataLength));
  try {
    await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
    await page.waitForFunction(() => window.__benchReadyAt !== undefined, null, {
      timeout: 90_000,
      polling: 100,
    });
    const readyAt = await page.evaluate(() => window.__benchReadyAt);
    const before = [...started].filter(([, at]) => at <= readyAt).map(([id]) => id);
    // The bytes of those requests: wait (briefly) for the ones still arriving.
    for (let i = 0; i < 100 && before.some((id) => !received.has(id)); i += 1) await page.waitForTimeout(100);
    // A response may still arrive after this (the set keeps growing): count the ones before the form from a copy.
    const encodedBefore = before.filter((id) => encoded.has(id));
    return {
      ms: readyAt - Math.min(...started.values()),
      requests: before.length,
      bytes: before.reduce((sum, id) => sum + (received.get(id) ?? 0), 0),
      encoded: encodedBefore.length,
      urls: before.map((id) => urls.get(id)),
    };
  } finally {
    await context.close();
  }
}

/** The sign-in form is on screen: its password field and its submit button. */
export const signInForm = () =>
  !!document.querySelector('input[type="password"]') && !!document.querySelector('button[type="submit"]');

/** A doctor's dashboard is on screen with its data: the heading of the day's patients and no loader left. */
export const doctorDashboard = () =>
  [...document.querySelectorAll('h1, h2, h3')].some((h) =>
    /Mes patients du jour/.test(h.textContent ?? ''),
  ) && document.querySelectorAll('.mantine-Loader-root, [data-loading="true"]').length === 0;

/** No throttling at all (loopback, full CPU): what the page itself costs. */
export const FULL_SPEED = { downloadKbps: -1, uploadKbps: -1, latencyMs: 0, cpuSlowdown: 1 };

/** A patient's record page is on screen with its visits: the record number, the timeline, no loader left. */
export const patientRecord = () =>
  !!document.querySelector('[data-testid="record-number"]') &&
  !!document.querySelector('.mantine-Timeline-root') &&
  document.querySelectorAll('.mantine-Loader-root, .mantine-Skeleton-root, [data-loading="true"]').length ===
    0;

/** Signs in at full speed and returns the session's storage (localStorage), to load a page signed in. */
export async function signedInState(browser, baseUrl, email, password) {
  const context = await browser.newContext({ locale: 'fr-FR' });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[type="email"], input[name="email"]').first().fill(email);
    await page.locator('input[type="password"]').fill(password);
    await page.locator('button[type="submit"]').first().click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 60_000 });
    return await context.storageState();
  } finally {
    await context.close();
  }
}
