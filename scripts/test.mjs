// `npm test`: install if needed, then typecheck, lint, every Vitest suite (shared, server on the embedded
// database and — with TEST_DATABASE_URL — on PostgreSQL, web), the production build with its bundle budget,
// and the browser end-to-end suite when Chromium is present. Ends with one summary line.
//
// The steps run in two lanes side by side, one per core of the 2-core CI machine (decision 0029): each suite
// keeps Vitest's single worker, so each lane keeps about one core busy.
//   server lane: typecheck (server and its tests) → server suite → web suite shards
//   web lane:    typecheck (web) → lint → shared suite → build → bundle budget → e2e → web suite shards
//                                                                                  └ topology (beside the shards)
// The web suite is cut in three shards (Vitest's --shard) that whichever lane is free takes, one at a time
// (decision 0051): the lanes then end close together. The build waits for the server lane's typecheck (both
// write apps/server/dist). Each step writes its output to a log file, printed whole when the step ends, so that
// the two lanes' outputs never interleave.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { bin, ensureInstalled, log, ROOT } from './lib.mjs';

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

const results = []; // { step, ok, note, seconds }
const counts = { passed: 0, failed: 0, skipped: 0 };
const skips = [];
const failures = []; // { suite, file, test, error } of every failed Vitest test, repeated in the summary
const tmp = join(ROOT, '.build-stamps', 'test');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const runStarted = Date.now();

/** A step's name as a file name (its log, its counts). */
const fileNameOf = (name) => name.replace(/[^a-z0-9]+/gi, '-');

/** Runs one command with its output (stdout and stderr) going to `logFile`; resolves to its exit code. */
function runLogged(cmd, args, logFile, { env, cwd = ROOT } = {}) {
  return new Promise((resolve) => {
    const fd = openSync(logFile, 'a');
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
    child.on('error', (err) => {
      closeSync(fd);
      console.error(`✗ ${cmd}: ${err.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      closeSync(fd);
      resolve(code ?? 1);
    });
  });
}

/**
 * One step: `fn(exec)` runs its commands through `exec(cmd, args, options)` (output to the step's log) and
 * returns true, false or { ok, note }. The log is printed when the step ends.
 */
async function step(name, fn) {
  const started = Date.now();
  const logFile = join(tmp, `${fileNameOf(name)}.log`);
  log(`${name}: started`);
  let ok = false;
  let note = '';
  try {
    const r = await fn((cmd, args, options) => runLogged(cmd, args, logFile, options));
    ok = r === true || (typeof r === 'object' && r.ok);
    note = typeof r === 'object' ? (r.note ?? '') : '';
  } catch (err) {
    note = String(err?.message ?? err);
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  results.push({ step: name, ok, note, seconds });
  // A failed check that is not a test suite (typecheck, lint, build, budget) counts as one failure.
  if (!ok && !name.startsWith('tests:')) counts.failed += 1;
  const output = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  console.log(`\n── ${name} (${seconds}s) ${'─'.repeat(Math.max(0, 60 - name.length))}`);
  if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  log(`${name}: ${ok ? 'ok' : 'FAILED'}`);
  return ok;
}

/** A Vitest suite; its passed/failed/skipped counts come from scripts/vitest-counts-reporter.mjs. */
function suite(name, root, args = []) {
  if (!existsSync(join(ROOT, root, 'vitest.config.ts'))) return Promise.resolve(true);
  return step(`tests: ${name}`, async (exec) => {
    const countsFile = join(tmp, `${fileNameOf(name)}.json`);
    const code = await exec(
      bin('vitest'),
      [
        'run',
        '--root',
        root,
        '--reporter=default',
        `--reporter=${join(ROOT, 'scripts/vitest-counts-reporter.mjs')}`,
        ...args,
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
      for (const f of data.failures ?? []) failures.push({ suite: name, ...f });
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

if (!process.env.TEST_DATABASE_URL)
  skips.push('server suite on PostgreSQL: TEST_DATABASE_URL is not set (ran on the embedded database only)');
if (!process.env.TEST_REDIS_URL)
  skips.push('Redis-backed tests: TEST_REDIS_URL is not set (in-process event bus and counters only)');

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const e2eConfig = join(ROOT, 'apps/web/playwright.config.ts');
const withE2e = existsSync(e2eConfig) && existsSync(chromium);
if (!existsSync(e2eConfig)) skips.push('browser end-to-end suite: not present');
else if (!existsSync(chromium))
  skips.push(`browser end-to-end suite: no Chromium at ${chromium} (apt-get install -y chromium)`);

// The production topology (deploy/test/topology.test.mjs, decision 0059): nginx in front of two built instances on
// PostgreSQL and Redis. It needs all three; CI (.ci/run) installs nginx and finds the two servers.
const nginx = process.env.NGINX_PATH || '/usr/sbin/nginx';
const topologyMissing = [
  !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set',
  !process.env.TEST_REDIS_URL && 'TEST_REDIS_URL is not set',
  !existsSync(nginx) && `no nginx at ${nginx} (apt-get install nginx-light)`,
].filter(Boolean);
if (topologyMissing.length > 0)
  skips.push(`production topology (nginx, two instances): ${topologyMissing.join('; ')}`);

// The server lane. Its typecheck builds packages/shared and apps/server (tsc -b emits dist), which the
// tests' project then reads (apps/server/tsconfig.test.json references the emitted declarations).
const serverTypecheck = step('typecheck: server', async (exec) => {
  if ((await exec(bin('tsc'), ['-b', 'packages/shared', 'apps/server'])) !== 0) return false;
  return (await exec(bin('tsc'), ['-p', 'apps/server/tsconfig.test.json'])) === 0;
});
// The web suite, in shards that whichever lane is free takes (decision 0051): the server lane ends long before
// the web lane's typecheck, lint, build and e2e plus the whole web suite would.
const WEB_SHARDS = 3;
const webShards = Array.from(
  { length: WEB_SHARDS },
  (_, i) => () => suite(`web ${i + 1}/${WEB_SHARDS}`, 'apps/web', [`--shard=${i + 1}/${WEB_SHARDS}`]),
);
async function takeWebShards() {
  while (webShards.length > 0) await webShards.shift()();
}

const serverLane = serverTypecheck.then(() => suite('server', 'apps/server')).then(takeWebShards);

async function webLane() {
  await step('typecheck: web', async (exec) =>
    existsSync(join(ROOT, 'apps/web/tsconfig.json'))
      ? (await exec(bin('tsc'), ['-p', 'apps/web', '--noEmit'])) === 0
      : true,
  );
  await step(
    'lint',
    async (exec) => (await exec(bin('biome'), ['ci', '--diagnostic-level=error', '.'])) === 0,
  );
  await suite('shared', 'packages/shared');
  await serverTypecheck; // the build writes apps/server/dist too
  const built = await step(
    'build',
    async (exec) => (await exec(process.execPath, [join(ROOT, 'scripts/build.mjs')])) === 0,
  );
  // Bundle budgets of the production build (scripts/check-bundle.mjs; docs/performance.md): the sign-in page,
  // the signed-in screen and every lazily loaded chunk. Sizes are deterministic, so they fail the suite.
  await step(
    'bundle budget',
    async (exec) => built && (await exec(process.execPath, [join(ROOT, 'scripts/check-bundle.mjs')])) === 0,
  );
  if (withE2e) await e2e(built);
  // The topology test mostly waits (PostgreSQL restoring, instances starting, nginx): it runs beside the web
  // shards this lane takes rather than before them (decision 0059).
  const topologyDone = topologyMissing.length === 0 ? topology(built) : Promise.resolve();
  await takeWebShards();
  await topologyDone;
}

/** The topology test (node:test); its counts come from the TAP report's summary lines. */
async function topology(built) {
  await step('tests: topology (nginx, two instances)', async (exec) => {
    if (!built) return { ok: false, note: 'no build' };
    const report = join(tmp, 'topology.tap');
    const code = await exec(process.execPath, [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${report}`,
      join(ROOT, 'deploy/test/topology.test.mjs'),
    ]);
    const tap = existsSync(report) ? readFileSync(report, 'utf8') : '';
    const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
    const [passed, failed, skipped] = [count('pass'), count('fail'), count('skipped')];
    counts.passed += passed;
    counts.failed += failed;
    counts.skipped += skipped;
    if (!tap && code !== 0) counts.failed += 1;
    for (const m of tap.matchAll(/^ {4}not ok \d+ - (.*)$/gm))
      failures.push({
        suite: 'topology',
        file: join(ROOT, 'deploy/test/topology.test.mjs'),
        test: m[1],
        error: '',
      });
    return { ok: code === 0 && passed > 0, note: `${passed} passed, ${failed} failed, ${skipped} skipped` };
  });
}

async function e2e(built) {
  const port = await freePort();
  await step('tests: e2e (Chromium)', async (exec) => {
    if (!built) return { ok: false, note: 'no build' };
    const report = join(tmp, 'e2e.json');
    const code = await exec(bin('playwright'), ['test', '--config', e2eConfig], {
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report, CHROMIUM_PATH: chromium, E2E_PORT: String(port) },
    });
    let note = '';
    if (existsSync(report)) {
      const data = JSON.parse(readFileSync(report, 'utf8'));
      const s = data.stats ?? {};
      for (const f of failedSpecs(data.suites ?? [])) failures.push({ suite: 'e2e', ...f });
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

/**
 * What a failed e2e test says, for the summary (CI shows only the end of the log): the message's first lines —
 * an expectation's expected and received values and the start of its call log — and the spec's line.
 */
function e2eErrorLines(error) {
  if (!error) return '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colours of Playwright's messages
  const plain = String(error.message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, 10)
    .map((line) => line.slice(0, 200));
  const at = error.location ? `at ${error.location.file.split('/e2e/').pop()}:${error.location.line}` : '';
  return [...lines, at].filter(Boolean).join('\n    ');
}

/** The failed specs of a Playwright JSON report: { file, test, error }. */
function failedSpecs(suites) {
  const out = [];
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const failed = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error)?.error;
      out.push({
        file: join(ROOT, 'apps/web/e2e', spec.file ?? suite.file ?? ''),
        test: spec.title,
        error: e2eErrorLines(failed),
      });
    }
    out.push(...failedSpecs(suite.suites ?? []));
  }
  return out;
}

await Promise.all([serverLane, webLane()]);

console.log('\n== Summary ==');
for (const r of results)
  console.log(`${r.ok ? '✓' : '✗'} ${r.step} (${r.seconds}s)${r.note ? ` — ${r.note}` : ''}`);
for (const s of skips) console.log(`- skipped: ${s}`);
const failedSteps = results.filter((r) => !r.ok);
if (failedSteps.length) console.log(`✗ failed steps: ${failedSteps.map((r) => r.step).join(', ')}`);
for (const f of failures) {
  console.log(`✗ ${f.suite}: ${relative(ROOT, f.file)} › ${f.test}`);
  if (f.error) console.log(`    ${f.error}`);
}
console.log(`wall time: ${Math.round((Date.now() - runStarted) / 1000)} s (two lanes side by side)`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
