import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The server suite runs on the embedded PostgreSQL always, and on a real PostgreSQL server too when
// TEST_DATABASE_URL is set (CI): same files, one project each.
const projects = [
  {
    extends: true as const,
    test: { name: 'server:embedded', env: { GREENSEN_TEST_DB: 'embedded' } },
  },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    extends: true as const,
    test: { name: 'server:postgres', env: { GREENSEN_TEST_DB: 'postgres' } },
  });
}

export default defineConfig({
  resolve: {
    alias: { '@greensen/shared': fileURLToPath(new URL('../../packages/shared/src', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects,
  },
});
