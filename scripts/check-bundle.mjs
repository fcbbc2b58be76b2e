// Bundle budgets (part of `npm test`; docs/performance.md, docs/decisions/0009-first-screen-budget.md).
// Reads Vite's manifest of the production build (apps/web/dist/.vite/manifest.json; another dist folder may be
// given as the first argument) and prints, with raw sizes and the bytes sent — as they travel: the brotli file
// the server sends (the build writes `.br` and `.gz` beside each file, decision 0017), gzip where no brotli file
// was written, the file itself where neither was:
//   1. the sign-in page: the entry with everything it imports statically (providers, router, guards, the
//      sign-in layout), the login page and the first screens' strings of one language — at most 200 KB sent;
//   2. the signed-in screen: the same plus the signed-in shell and the dashboard with everything they import
//      statically — at most 320 KB sent (a ceiling against regressions: see the decision);
//   3. every other lazily loaded chunk (route pages, dialogs, strings, …) on its own — at most 60 KB sent each;
//      chunks shared by several of them are listed once, with the same budget;
//   4. the first screens that show data only (SCHEMA_FREE_SCREENS) load no schema library: building the schemas
//      of the shared contracts took ~125 ms of a cold load's main thread (issue 38) — a screen that only shows
//      a list reads plain values from packages/shared/src/domain, and its forms load when opened.
// Exits 1 when anything is over budget.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './lib.mjs';

const KB = 1024;
export const BUDGETS = { signIn: 200 * KB, signedIn: 320 * KB, lazyChunk: 60 * KB };

/**
 * What the sign-in page and the signed-in screen load (manifest keys, with their static imports): the entry, and
 * the chunk groups of apps/web/build/first-screen-chunks.ts — `sign-in` (the entry's imports and the login page)
 * and `shell` (the signed-in shell, the dashboard page and the role dashboards).
 */
const groupKey = (name) => {
  const key = Object.keys(manifest).find(
    (k) => manifest[k].name === name && manifest[k].file.endsWith('.js'),
  );
  if (!key) throw new Error(`no '${name}' chunk in the manifest (see apps/web/build/first-screen-chunks.ts)`);
  return key;
};
/** Chunks of strings (vite.config.ts): `locale-<lang>` (first screens), `locale-<lang>-more` (the others). */
const CORE_LOCALE = /^locale-[a-z]+$/;
const MORE_LOCALE = /^locale-[a-z]+-more$/;

const dist = resolve(process.argv[2] ?? join(ROOT, 'apps/web/dist'));
const manifestPath = join(dist, '.vite/manifest.json');
if (!existsSync(manifestPath)) {
  console.error(
    `bundle budget: no Vite manifest at ${manifestPath}; build the web app first (npm run build)`,
  );
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const sizes = new Map();
/** `{raw, gzip}` of a file of the build; `gzip` holds the bytes sent (brotli, else gzip, else raw). */
function size(file) {
  if (!sizes.has(file)) {
    const path = join(dist, file);
    const raw = readFileSync(path).length;
    const variant = [`${path}.br`, `${path}.gz`].find((p) => existsSync(p));
    sizes.set(file, { raw, gzip: variant ? readFileSync(variant).length : raw });
  }
  return sizes.get(file);
}
const kb = (n) => `${(n / KB).toFixed(1)} KB`;

/**
 * The files a manifest key loads before it runs: its own chunk and its static imports, recursively, with their
 * stylesheets (counted since issue 38: the sign-in page's was Mantine's whole stylesheet, 31 KB sent).
 */
function closure(key, into = new Set()) {
  const entry = manifest[key];
  if (!entry)
    throw new Error(`${key} is not in the manifest (renamed or moved? update scripts/check-bundle.mjs)`);
  if (into.has(entry.file)) return into;
  into.add(entry.file);
  for (const css of entry.css ?? []) into.add(css);
  for (const imported of entry.imports ?? []) closure(imported, into);
  return into;
}

/** The manifest key of a source module (`src/…` of the web app). */
const sourceKey = (src) => {
  const key = Object.keys(manifest).find((k) => manifest[k].src === src);
  if (!key) throw new Error(`no chunk of ${src} in the manifest (moved? update scripts/check-bundle.mjs)`);
  return key;
};

/**
 * The first screens of issue 38's slow-screen list whose code, up to their first data, shows data only: what the
 * page (or home tab) module and its static imports add to the signed-in screen must build no schema (no chunk
 * with the schema library's code).
 */
export const SCHEMA_FREE_SCREENS = [
  'src/features/pharmacy/components/PharmacistHome.tsx',
  'src/features/pharmacy/pages/MedicationsPage.tsx',
  'src/features/hospitalizations/pages/HospitalizationsPage.tsx',
  'src/features/billing/pages/BillingPage.tsx',
  'src/features/documents/pages/DocumentsPage.tsx',
];
/** A chunk holding the schema library's code (its schemas' internal field). */
const buildsSchemas = (file) => readFileSync(join(dist, file), 'utf8').includes('_zod');

/** Mantine's class names (`m_` and 8 hex digits) in a file of the build. */
const mantineClasses = (file) => new Set(readFileSync(join(dist, file), 'utf8').match(/\bm_[0-9a-f]{8}\b/g));

/** Of the string chunks matching `pattern` (one per language), the largest: a user loads one language. */
function largestLocale(pattern) {
  const keys = Object.keys(manifest).filter((key) => pattern.test(manifest[key].name ?? ''));
  if (keys.length === 0) throw new Error(`no ${pattern} chunk in the manifest (see vite.config.ts)`);
  return keys.sort((a, b) => size(manifest[b].file).gzip - size(manifest[a].file).gzip)[0];
}

const rows = []; // { section, chunk, raw, gzip, budget, ok }
let failed = false;
function row(section, chunk, { raw, gzip }, budget) {
  const ok = budget === undefined || gzip <= budget;
  failed ||= !ok;
  rows.push({ section, chunk, raw, gzip, budget, ok });
}

function screen(section, keys, locales, budget, exclude = new Set()) {
  const files = new Set();
  for (const key of [...keys, ...locales]) closure(key, files);
  const js = [...files].filter((file) => file.endsWith('.js') || file.endsWith('.css'));
  for (const file of js.filter((f) => !exclude.has(f)).sort((a, b) => size(b).gzip - size(a).gzip))
    row(section, file, size(file));
  const total = js.reduce(
    (sum, file) => ({ raw: sum.raw + size(file).raw, gzip: sum.gzip + size(file).gzip }),
    { raw: 0, gzip: 0 },
  );
  row(section, 'TOTAL', total, budget);
  return new Set(js);
}

try {
  const SIGN_IN = ['index.html', groupKey('sign-in')];
  const signIn = screen(
    'sign-in page (entry + login page + first-screen strings of one language)',
    SIGN_IN,
    [largestLocale(CORE_LOCALE)],
    BUDGETS.signIn,
  );
  // Every Mantine class the sign-in page's scripts use is styled by the sign-in page's stylesheets (its Mantine
  // styles are a list of components, apps/web/src/app/styles/mantine-sign-in.ts).
  const signInCss = new Set(
    [...signIn].filter((f) => f.endsWith('.css')).flatMap((f) => [...mantineClasses(f)]),
  );
  const unstyled = [...signIn]
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => [...mantineClasses(f)])
    .filter((c) => !signInCss.has(c));
  if (unstyled.length > 0) {
    failed = true;
    console.error(
      `bundle budget: the sign-in page uses Mantine classes its stylesheet lacks (${[...new Set(unstyled)].join(', ')}): add their components to apps/web/src/app/styles/mantine-sign-in.ts`,
    );
  }
  const signedIn = screen(
    "signed-in screen (the above + shell, dashboard and role dashboards, the rest of Mantine's styles; only the chunks it adds are listed)",
    [...SIGN_IN, groupKey('shell'), sourceKey('src/app/styles/mantine-rest.ts')],
    [largestLocale(CORE_LOCALE)],
    BUDGETS.signedIn,
    signIn,
  );

  // Lazily loaded chunks: dynamic entries (pages, dialogs), the string chunks, and the chunks they share (counted
  // once). The sign-in page's and the signed-in screen's chunks (the `shell` group) are accounted above.
  const lazy = new Map(); // file → label
  const shared = new Set();
  for (const [key, entry] of Object.entries(manifest)) {
    const isLocale = CORE_LOCALE.test(entry.name ?? '') || MORE_LOCALE.test(entry.name ?? '');
    if ((!entry.isDynamicEntry && !isLocale) || signIn.has(entry.file) || signedIn.has(entry.file)) continue;
    lazy.set(entry.file, entry.src ?? `${entry.name} (strings)`);
    for (const file of closure(key)) if (!signIn.has(file) && !signedIn.has(file)) shared.add(file);
  }
  for (const file of lazy.keys()) shared.delete(file);
  for (const [file, label] of [...lazy].sort((a, b) => size(b[0]).gzip - size(a[0]).gzip))
    row('lazily loaded chunks (own size)', label, size(file), BUDGETS.lazyChunk);
  for (const file of [...shared].sort((a, b) => size(b).gzip - size(a).gzip))
    row('shared lazy chunks (counted once)', file, size(file), BUDGETS.lazyChunk);

  // The screens that show data only build no schema before their first data (section 4 above).
  for (const src of SCHEMA_FREE_SCREENS) {
    // What the screen adds to the signed-in screen (whose own chunks are budgeted above).
    const withSchemas = [...closure(sourceKey(src))].filter(
      (f) => f.endsWith('.js') && !signIn.has(f) && !signedIn.has(f) && buildsSchemas(f),
    );
    if (withSchemas.length > 0) {
      failed = true;
      console.error(
        `bundle budget: ${src} loads the schema library at once (${withSchemas.join(', ')}): import plain values from packages/shared/src/domain, and load forms when they open`,
      );
    }
  }

  // Every chunk of the build is accounted somewhere (a new kind of chunk would otherwise go unchecked).
  const seen = new Set([...signIn, ...signedIn, ...lazy.keys(), ...shared]);
  for (const entry of Object.values(manifest)) {
    if (!entry.file.endsWith('.js')) continue;
    for (const file of [entry.file, ...(entry.css ?? [])].filter((f) => !seen.has(f)))
      row('unaccounted chunks', file, size(file), BUDGETS.lazyChunk);
  }
} catch (error) {
  console.error(`bundle budget: ${error.message}`);
  process.exit(1);
}

const width = Math.min(70, Math.max(...rows.map((r) => r.chunk.length)));
let section = '';
for (const r of rows) {
  if (r.section !== section) {
    section = r.section;
    console.log(`\n${section}`);
    console.log(
      `  ${'chunk'.padEnd(width)}  ${'raw'.padStart(10)}  ${'sent'.padStart(10)}  ${'budget'.padStart(10)}  verdict`,
    );
  }
  const verdict = r.budget === undefined ? '' : r.ok ? 'ok' : 'OVER BUDGET';
  const label = r.chunk.length > width ? `…${r.chunk.slice(-(width - 1))}` : r.chunk;
  console.log(
    `  ${label.padEnd(width)}  ${kb(r.raw).padStart(10)}  ${kb(r.gzip).padStart(10)}  ${(r.budget ? kb(r.budget) : '').padStart(10)}  ${verdict}`,
  );
}
const over = rows.filter((r) => !r.ok);
console.log(
  failed
    ? `\nbundle budget: FAILED — ${over.map((r) => `${r.chunk === 'TOTAL' ? r.section.split(' (')[0] : r.chunk} ${kb(r.gzip)} > ${kb(r.budget)}`).join('; ') || 'see the lines above'}`
    : '\nbundle budget: ok',
);
process.exit(failed ? 1 : 0);
