import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS } from '../../scripts/chromium-flags.mjs';

const port = Number(process.env.E2E_PORT ?? 3100);

// Runs against the built app served by the real server (fresh embedded database with the demo seed), in
// Debian's Chromium — never a downloaded browser build.
export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  // The suite runs beside the server suite in `npm test` (two lanes on 2 cores, decision 0029): room for a
  // busy core. Performance has its own bench (npm run bench), not these waits.
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
  ],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'fr-FR',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, '--disable-quic', '--no-first-run'],
    },
    // A trace records a screencast and DOM snapshots of every test, kept only on failure: 40 % of the suite's CPU
    // (measured: shell + xss specs, 67 → 39 CPU seconds, wall 164 → 118 s). CI cannot open a trace (its log is
    // what is read), so CI runs without; a developer's run keeps them for the failures it shows.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `http://127.0.0.1:${port}/api/health/`,
    reuseExistingServer: false,
    // Migrating and seeding the demo takes about 45 s on 2 quiet cores: room for a busy machine.
    timeout: 180_000,
    env: { E2E_PORT: String(port) },
  },
});
