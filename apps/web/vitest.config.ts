import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const sharedSrc = fileURLToPath(new URL('../../packages/shared/src', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The test files that replace a module (`vi.mock`): a replaced module would stay replaced for the files after them
 * in a shared module graph, so they keep a module graph of their own (the `web:isolated` project).
 */
const mockingFiles = (readdirSync(join(here, 'src'), { recursive: true }) as string[])
  .filter((f) => /\.test\.tsx?$/.test(f))
  .filter((f) => readFileSync(join(here, 'src', f), 'utf8').includes('vi.mock('))
  .map((f) => `src/${f.replaceAll('\\', '/')}`);

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_ID__: JSON.stringify('test-build') },
  resolve: {
    alias: {
      '@greensen/shared': sharedSrc,
      // Issue 40: the service worker's registration module exists only in the build (vite-plugin-pwa).
      'virtual:pwa-register': fileURLToPath(new URL('./src/test/pwa-register-stub.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    testTimeout: 20_000,
    // The files of a worker share one module graph and one jsdom (as the server suite does, decision 0051):
    // building both for each of the ~100 files was 45 % of the suite's CPU (one shard: 236 → 130 CPU seconds).
    // Each file starts from the app's module state as a fresh page has it (src/test/shared-graph.ts). `include` is each
    // project's own: a project's arrays add to the root's.
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          setupFiles: ['./src/test/shared-graph.ts'],
          exclude: [...configDefaults.exclude, ...mockingFiles],
        },
      },
      { extends: true, test: { name: 'web:isolated', include: mockingFiles } },
    ],
  },
});
