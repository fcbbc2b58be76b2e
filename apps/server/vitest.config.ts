import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The server suite runs on the embedded PostgreSQL always, and on a real PostgreSQL server too when
// TEST_DATABASE_URL is set (CI): same files, one project each (but the mass-assignment run, on one engine).
const projects: {
  extends: true;
  test: { name: string; env: Record<string, string>; exclude?: string[] };
}[] = [
  {
    extends: true as const,
    test: { name: 'server:embedded', env: { GREENSEN_TEST_DB: 'embedded' } },
  },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    extends: true as const,
    test: {
      name: 'server:postgres',
      env: { GREENSEN_TEST_DB: 'postgres' },
      // The mass-assignment run tests what the HTTP layer lets through (strict schemas) and reads the stored row
      // back with the same SQL on either engine: it runs once, on the embedded engine (decision 0029). The
      // authorization matrix, the fuzzing and every module's tests still run on both.
      exclude: [...configDefaults.exclude, 'test/security/mass-assignment.test.ts'],
    },
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
    // Two files at a time: Vitest's default on 2 cores is one worker (availableParallelism() - 1), which left a
    // core idle while a file waited on its database; the CI machine has 2 (decision 0029, "Vitest workers").
    maxWorkers: 2,
    projects,
  },
});
