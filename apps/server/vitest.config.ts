import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The server suite runs on the embedded PostgreSQL always, and on a real PostgreSQL server too when
// TEST_DATABASE_URL is set (CI): same files, one project each (but the security harness's generated runs, on one engine).
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
      // The security harness's generated runs test the HTTP layer — the access policy, the hospital scope, the
      // audit rows, strict schemas, malformed input — with the same SQL on either engine: the authorization
      // matrix, the fuzzing and the mass-assignment run go once, on the embedded engine (decision 0029). Every
      // module's own tests (their forbidden cases and concurrency tests included) still run on both.
      exclude: [
        ...configDefaults.exclude,
        'test/security/mass-assignment.test.ts',
        'test/security/matrix.test.ts',
        'test/security/fuzz.test.ts',
      ],
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
    // The test files of a worker share one module graph (decision 0051): importing the application for each of
    // the 250 files was a third of the suite's time. Each file still has its own database, app and server;
    // nothing a test changes lives in a module (no vi.mock; fake timers are restored; factories make names
    // that stay unlike each other however many a run makes).
    isolate: false,
    projects,
  },
});
