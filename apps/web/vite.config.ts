import { randomUUID } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstScreenGroups } from './build/first-screen-chunks.ts';
import CORE_NAMESPACES from './src/lib/i18n-core-namespaces.json' with { type: 'json' };

const sharedSrc = fileURLToPath(new URL('../../packages/shared/src', import.meta.url));

/**
 * Writes `dist/build.json` `{"build_id": "…"}`: the server serves it and reads its id, and the app
 * polls it to detect a new deployment. The same id is compiled into the bundle as `__BUILD_ID__`.
 */
function buildManifest(buildId: string): Plugin {
  return {
    name: 'greensen-build-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'build.json',
        source: `${JSON.stringify({ build_id: buildId, built_at: new Date().toISOString() })}\n`,
      });
    },
  };
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Text files worth compressing; fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|webmanifest|map)$/;
/** Below this, the headers of a compressed answer cost more than the bytes saved. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) next to every text file of the build, so
 * that the server sends them as they are (`@fastify/static` `preCompressed`, plugins/spa.ts) without spending
 * CPU per request (docs/decisions/0017-compressed-delivery.md). A variant no smaller than the file is not written.
 * The files of `public/` copied beside them are compressed too (issue 38: `boot.js`, 2.4 KB, was sent as it is).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let publicDir = '';
  return {
    name: 'greensen-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/')
        ? config.build.outDir
        : join(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    async writeBundle(_options, bundle) {
      const copied = publicDir
        ? ((await readdir(publicDir, { recursive: true }).catch(() => [])) as string[])
        : [];
      const files = [...new Set([...Object.keys(bundle), ...copied])].filter((name) =>
        COMPRESSIBLE.test(name),
      );
      await Promise.all(
        files.map(async (name) => {
          const path = join(outDir, name);
          const raw = await readFile(path);
          if (raw.length < COMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzipAsync(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * Lists the chunks public/boot.js preloads beside the app's own — the strings of each language (`locale-fr`,
 * `locale-fr-more`, …) and, for a signed-in user, the `shell` — in a `greensen-preload` meta tag of index.html
 * (`locale-fr=/assets/locale-fr-….js,…`).
 */
function preloadMeta(): Plugin {
  return {
    name: 'greensen-preload-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.values(ctx.bundle ?? {})
          .filter((file) => file.type === 'chunk' && /^(locale-[a-z]+(-more)?|shell)$/.test(file.name))
          .map((file) => `${file.name}=/${file.fileName}`);
        return [
          {
            tag: 'meta',
            attrs: { name: 'greensen-preload', content: files.sort().join(',') },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

/** Every module of the build, for the first screens' chunk groups (build/first-screen-chunks.ts). */
function collectModuleIds(into: Set<string>): Plugin {
  return {
    name: 'greensen-module-ids',
    apply: 'build',
    buildStart() {
      into.clear();
    },
    moduleParsed(info) {
      into.add(info.id);
    },
  };
}
const moduleIds = new Set<string>();

const CORE = new Set<string>(CORE_NAMESPACES);

/**
 * The translation files in two chunks per language (src/lib/i18n.ts loads them on demand): `locale-<lang>`
 * with the first screens' namespaces, `locale-<lang>-more` with the others.
 */
function localeChunk(id: string): string | null {
  const match = /[\\/]src[\\/]locales[\\/](\w+)[\\/]([\w-]+)\.json$/.exec(id);
  if (!match) return null;
  return `locale-${match[1]}${CORE.has(match[2] ?? '') ? '' : '-more'}`;
}

/**
 * The installable app (issue 40, docs/decisions/0064-offline-wards.md): a manifest and a Workbox service worker
 * that precaches the application shell — every script and style of this build, both languages' strings, the
 * icons, the notification sound — so that a reload without network opens the app. The worker is registered by
 * the signed-in shell after the page has loaded (lib/pwa.ts), never by the sign-in page, and it does not take
 * over by itself: a new build waits until the new-version notice's reload (`registerType: 'prompt'`). The API,
 * the sockets and build.json are never cached by it (the ward's data is kept by lib/offline, per nurse).
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    name: 'Greensen',
    short_name: 'Greensen',
    description: "Greensen — système d'information hospitalier",
    lang: 'fr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#2f9e44',
    icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,woff2,mp3,webmanifest}'],
    globIgnores: ['**/build.json', '**/*.map'],
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//, /^\/ws\//, /^\/build\.json/],
    cleanupOutdatedCaches: true,
    // Hashed names: the file's name is its version.
    dontCacheBustURLsMatching: /\/assets\//,
  },
});

const buildId = process.env.GREENSEN_BUILD_ID ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

export default defineConfig({
  plugins: [react(), buildManifest(buildId), preloadMeta(), precompress(), collectModuleIds(moduleIds), pwa],
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  resolve: { alias: { '@greensen/shared': sharedSrc } },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: false },
      '/ws': { target: 'ws://localhost:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: localeChunk, debugName: 'locales', priority: 30 },
            ...firstScreenGroups(() => moduleIds),
          ],
        },
      },
    },
  },
});
