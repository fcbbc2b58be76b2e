// Shared steps of `npm start`, `npm test` and `npm run build`: install when needed, build when sources changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMPS = join(ROOT, '.build-stamps');

export function log(message) {
  console.log(`\x1b[32m▸\x1b[0m ${message}`);
}

/** Runs a command in the repository, inheriting the terminal; returns its exit code. */
export function run(cmd, args, { env, ...options } = {}) {
  const res = spawnSync(cmd, args, {
    cwd: ROOT,
    stdio: 'inherit',
    ...options,
    env: { ...process.env, ...env },
  });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

export function mustRun(cmd, args, options = {}) {
  const code = run(cmd, args, options);
  if (code !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

export const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Greensen needs Node.js 20.19 or newer (this is ${process.versions.node}).`);
    process.exit(1);
  }
}

const IGNORED = new Set([
  'node_modules',
  'dist',
  '.git',
  'data',
  '.build-stamps',
  'test-results',
  'coverage',
]);

/** A hash of the contents of the given files and folders (recursively), paths included. */
export function hashPaths(paths) {
  const h = createHash('sha256');
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) if (!IGNORED.has(name)) visit(join(p, name));
    } else {
      h.update(relative(ROOT, p));
      h.update('\0');
      h.update(readFileSync(p));
      h.update('\0');
    }
  };
  for (const p of paths) visit(join(ROOT, p));
  return h.digest('hex');
}

function stampMatches(name, hash) {
  const file = join(STAMPS, `${name}.hash`);
  return existsSync(file) && readFileSync(file, 'utf8') === hash;
}

function writeStamp(name, hash) {
  mkdirSync(STAMPS, { recursive: true });
  writeFileSync(join(STAMPS, `${name}.hash`), hash);
}

const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'packages/shared/package.json',
  'apps/server/package.json',
  'apps/web/package.json',
];

/** Installs dependencies when node_modules is missing or older than the lock file and manifests. */
export function ensureInstalled() {
  checkNode();
  const hash = hashPaths(MANIFESTS);
  const stamp = join(ROOT, 'node_modules', '.greensen-install.hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  // `npm install` rather than `npm ci`: npm 11 leaves other platforms' optional packages (e.g. Biome's
  // binaries) out of the lock file and `npm ci` then refuses it; `npm install` follows the lock just the same.
  log('Installing dependencies (npm install)…');
  mustRun('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stamp, hash);
}

const SERVER_INPUTS = [
  'tsconfig.base.json',
  'packages/shared/src',
  'packages/shared/tsconfig.json',
  'packages/shared/package.json',
  'apps/server/src',
  'apps/server/tsconfig.json',
  'apps/server/package.json',
];
const WEB_INPUTS = [
  'packages/shared/src',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/build',
  'apps/web/postcss.config.cjs',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
];

/** Builds the server (tsc) and the web app (Vite) when their sources changed since the last build. */
export function ensureBuilt({ server = true, web = true } = {}) {
  if (server) {
    const hash = hashPaths(SERVER_INPUTS);
    if (!stampMatches('server', hash) || !existsSync(join(ROOT, 'apps/server/dist/main.js'))) {
      log('Building the server…');
      mustRun(bin('tsc'), ['-b', 'packages/shared', 'apps/server']);
      writeStamp('server', hash);
    }
  }
  if (web) {
    const hash = hashPaths(WEB_INPUTS);
    if (!stampMatches('web', hash) || !existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
      log('Building the web app…');
      mustRun(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: join(ROOT, 'apps/web') });
      writeStamp('web', hash);
    }
  }
}

/**
 * Makes this process stand for `child` (the server `npm start` runs): SIGINT, SIGTERM and SIGHUP are passed on
 * to it, and this process exits only once the child has stopped, with its exit code (128 + the signal's number
 * when a signal ended it). A supervisor (systemd, a container runtime, a terminal's Ctrl-C) that signals the process
 * it started thus never leaves the server behind holding the port and the data directory.
 */
export function superviseChild(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  // npm runs this script through `sh -c`: a supervisor's SIGTERM to npm ends npm and that shell, never this
  // process. Once the parent is gone (this process was re-parented), the server is stopped as for a SIGTERM.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent && child.exitCode === null && child.signalCode === null)
      child.kill('SIGTERM');
  }, 500);
  watch.unref();
  child.on('exit', (code, signal) => {
    clearInterval(watch);
    const numbers = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
    process.exit(code ?? (signal ? 128 + (numbers[signal] ?? 0) : 0));
  });
}
