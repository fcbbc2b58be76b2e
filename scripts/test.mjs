// `npm test`: install if needed, then typecheck, lint, every Vitest suite (shared, server on the embedded
// database and — with TEST_DATABASE_URL — on PostgreSQL, web), the production build with its bundle budget,
// and the browser end-to-end suite when Chromium is present. Ends with one summary line.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { bin, ensureBuilt, ensureInstalled, log, ROOT, run } from './lib.mjs';

ensureInstalled();

/** A free TCP port on the loopback interface, for the server the end-to-end suite starts. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const results = []; // { step, ok, note }
const counts = { passed: 0, failed: 0, skipped: 0 };
const skips = [];
const tmp = join(ROOT, '.build-stamps', 'test');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

function step(name, fn) {
  log(name);
  const started = Date.now();
  let ok = false;
  let note = '';
  try {
    const r = fn();
    ok = r === true || (typeof r === 'object' && r.ok);
    note = typeof r === 'object' ? (r.note ?? '') : '';
  } catch (err) {
    note = String(err?.message ?? err);
  }
  results.push({ step: name, ok, note, seconds: Math.round((Date.now() - started) / 100) / 10 });
  // A failed check that is not a test suite (typecheck, lint, build, budget) counts as one failure.
  if (!ok && !name.startsWith('tests:')) counts.failed += 1;
  return ok;
}

step('typecheck', () => {
  if (run(bin('tsc'), ['-b', 'packages/shared', 'apps/server']) !== 0) return false;
  if (run(bin('tsc'), ['-p', 'apps/server/tsconfig.test.json']) !== 0) return false;
  if (
    existsSync(join(ROOT, 'apps/web/tsconfig.json')) &&
    run(bin('tsc'), ['-p', 'apps/web', '--noEmit']) !== 0
  )
    return false;
  return true;
});

step('lint', () => run(bin('biome'), ['ci', '--diagnostic-level=error', '.']) === 0);

const suites = [
  { name: 'shared', root: 'packages/shared' },
  { name: 'server', root: 'apps/server' },
  { name: 'web', root: 'apps/web' },
];
if (!process.env.TEST_DATABASE_URL)
  skips.push('server suite on PostgreSQL: TEST_DATABASE_URL is not set (ran on the embedded database only)');
if (!process.env.TEST_REDIS_URL)
  skips.push('Redis-backed tests: TEST_REDIS_URL is not set (in-process event bus and counters only)');

for (const suite of suites) {
  if (!existsSync(join(ROOT, suite.root, 'vitest.config.ts'))) continue;
  step(`tests: ${suite.name}`, () => {
    const countsFile = join(tmp, `${suite.name}.json`);
    const code = run(
      bin('vitest'),
      [
        'run',
        '--root',
        suite.root,
        '--reporter=default',
        `--reporter=${join(ROOT, 'scripts/vitest-counts-reporter.mjs')}`,
      ],
      { env: { GREENSEN_COUNTS_FILE: countsFile } },
    );
    let note = '';
    if (existsSync(countsFile)) {
      const data = JSON.parse(readFileSync(countsFile, 'utf8'));
      const parts = [];
      for (const [project, c] of Object.entries(data.projects)) {
        counts.passed += c.passed;
        counts.failed += c.failed;
        counts.skipped += c.skipped;
        parts.push(`${project}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
      }
      if (data.moduleErrors) {
        counts.failed += data.moduleErrors;
        parts.push(`${data.moduleErrors} test file(s) failed to load`);
      }
      note = parts.join('; ');
    } else if (code !== 0) {
      counts.failed += 1;
      note = 'the runner failed before reporting';
    }
    return { ok: code === 0, note };
  });
}

step('build', () => {
  ensureBuilt();
  return true;
});

// Bundle budgets of the production build (scripts/check-bundle.mjs; docs/performance.md): the sign-in page,
// the signed-in screen and every lazily loaded chunk. Sizes are deterministic, so they fail the suite.
step('bundle budget', () => run(process.execPath, [join(ROOT, 'scripts/check-bundle.mjs')]) === 0);

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const e2eConfig = join(ROOT, 'apps/web/playwright.config.ts');
if (!existsSync(e2eConfig)) {
  skips.push('browser end-to-end suite: not present');
} else if (!existsSync(chromium)) {
  skips.push(`browser end-to-end suite: no Chromium at ${chromium} (apt-get install -y chromium)`);
} else {
  const port = await freePort();
  step('tests: e2e (Chromium)', () => {
    const report = join(tmp, 'e2e.json');
    const code = run(bin('playwright'), ['test', '--config', e2eConfig], {
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, CHROMIUM_PATH: chromium, E2E_PORT: String(port) },
    });
    let note = '';
    if (existsSync(report)) {
      const s = JSON.parse(readFileSync(report, 'utf8')).stats ?? {};
      const passed = (s.expected ?? 0) + (s.flaky ?? 0);
      const failed = s.unexpected ?? 0;
      counts.passed += passed;
      counts.failed += failed;
      counts.skipped += s.skipped ?? 0;
      note = `${passed} passed, ${failed} failed, ${s.skipped ?? 0} skipped`;
    } else if (code !== 0) {
      counts.failed += 1;
      note = 'the runner failed before reporting';
    }
    return { ok: code === 0, note };
  });
}

console.log('\n== Summary ==');
for (const r of results)
  console.log(`${r.ok ? '✓' : '✗'} ${r.step} (${r.seconds}s)${r.note ? ` — ${r.note}` : ''}`);
for (const s of skips) console.log(`- skipped: ${s}`);
const failedSteps = results.filter((r) => !r.ok);
if (failedSteps.length) console.log(`✗ failed steps: ${failedSteps.map((r) => r.step).join(', ')}`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
