import { randomUUID } from 'node:crypto';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
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

const buildId = process.env.GREENSEN_BUILD_ID ?? `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;

export default defineConfig({
  plugins: [react(), buildManifest(buildId)],
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
        codeSplitting: { groups: [{ name: localeChunk, debugName: 'locales' }] },
      },
    },
  },
});
