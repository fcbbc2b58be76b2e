// Bundle budget (part of `npm test`): the JavaScript needed to show the login page and the app shell must stay
// within 200 KB gzip in total, and every lazily loaded route chunk within 60 KB gzip (shared chunks are listed
// once, on their own). Reads Vite's manifest of the production build (apps/web/dist/.vite/manifest.json).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './lib.mjs';

const INITIAL_BUDGET = 200 * 1024;
const ROUTE_BUDGET = 60 * 1024;
/** Sources whose chunks (with their static imports) make the first screens: the entry (app shell, router,
 * providers), the login page and the dashboard. */
const FIRST_SCREEN = [
  'index.html',
  'src/features/auth/pages/LoginPage.tsx',
  'src/features/dashboard/pages/DashboardPage.tsx',
];

const dist = join(ROOT, 'apps/web/dist');
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error('bundle budget: no Vite manifest; build the web app with build.manifest enabled');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const gz = new Map();
const gzipSize = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gz.get(file);
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** The chunk files a manifest key loads before it can run (itself and its static imports, recursively). */
function closure(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(entry.file)) return seen;
  seen.add(entry.file);
  for (const imp of entry.imports ?? []) closure(imp, seen);
  return seen;
}

const initial = new Set();
for (const src of FIRST_SCREEN) {
  if (!manifest[src]) {
    console.error(`bundle budget: ${src} is not in the manifest (renamed? update FIRST_SCREEN)`);
    process.exit(1);
  }
  for (const f of closure(src)) initial.add(f);
}
const initialJs = [...initial].filter((f) => f.endsWith('.js'));
const initialTotal = initialJs.reduce((s, f) => s + gzipSize(f), 0);

let failed = false;
console.log('First screens (entry with the app shell + login page + dashboard):');
for (const f of initialJs.sort((a, b) => gzipSize(b) - gzipSize(a)))
  console.log(`  ${kb(gzipSize(f)).padStart(10)}  ${f}`);
const initialOk = initialTotal <= INITIAL_BUDGET;
failed ||= !initialOk;
console.log(
  `  ${kb(initialTotal).padStart(10)}  total (budget ${kb(INITIAL_BUDGET)}) ${initialOk ? '✓' : '✗ OVER BUDGET'}`,
);

console.log('Lazy route chunks (own size; budget 60 KB each):');
const shared = new Set();
const rows = [];
for (const [key, entry] of Object.entries(manifest)) {
  if (!entry.isDynamicEntry || initial.has(entry.file)) continue;
  const size = gzipSize(entry.file);
  rows.push({ key, file: entry.file, size });
  for (const imp of entry.imports ?? []) {
    const f = manifest[imp]?.file;
    if (f && !initial.has(f)) shared.add(f);
  }
}
for (const r of rows.sort((a, b) => b.size - a.size)) {
  const ok = r.size <= ROUTE_BUDGET;
  failed ||= !ok;
  console.log(`  ${kb(r.size).padStart(10)}  ${r.key}${ok ? '' : '  ✗ OVER BUDGET'}`);
}
if (shared.size) {
  console.log('Shared lazy chunks (counted once):');
  for (const f of [...shared].sort()) {
    const ok = gzipSize(f) <= ROUTE_BUDGET;
    failed ||= !ok;
    console.log(`  ${kb(gzipSize(f)).padStart(10)}  ${f}${ok ? '' : '  ✗ OVER BUDGET'}`);
  }
}
console.log(failed ? 'bundle budget: FAILED' : 'bundle budget: ok');
process.exit(failed ? 1 : 0);
