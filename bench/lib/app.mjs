// The built Greensen server as a child process of the bench (own port, own database), its HTTP API, and
// the hello-worlds it is compared with (bare, and with Greensen's security headers and request log).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib.mjs';

export const DEMO_PASSWORD = 'Demo-Greensen-2026';
/** A fixed secret: tokens stay valid across the restarts of one run. */
const JWT_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';

/** A free TCP port on the loopback interface. */
export function freePort() {
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

/** BENCH_NODE_ARGS: options of node for the processes the bench starts (`--cpu-prof --cpu-prof-dir=…` profiles them). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/**
 * Starts `node <script>` on a free loopback port and resolves once it listens (the server sends
 * `{type: 'listening'}` over IPC): `{url, startMs, stop()}`. `startMs` runs from the spawn to that message.
 */
export async function startProcess(script, env = {}, { timeoutMs = 180_000, label = script } = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_ARGS, script], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.on('message', (m) => {
      if (m?.type === 'listening') {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (code ${code}) before listening:\n${stderr}`));
    });
  });
  const startMs = performance.now() - started;
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    startMs,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The built API server on a database: `{DATABASE_URL}` (PostgreSQL) or `{DATA_DIR}` (embedded). */
export function startApp(database, options = {}, env = {}) {
  return startProcess(
    join(ROOT, 'apps/server/dist/main.js'),
    {
      ...database,
      // As `npm start` runs it (request logging at the default level included), on its own database.
      APP_ENV: 'development',
      JWT_SECRET,
      WEB_DIST: join(ROOT, 'apps/web/dist'),
      REDIS_URL: '',
      SMTP_URL: '',
      // `env` last: a scenario may give a Redis (two instances) or turn a cache off.
      ...env,
    },
    { label: 'the Greensen server', ...options },
  );
}

/**
 * `npm start` as a user runs it (issue 16): the command, on a free port and `database`, timed from the spawn to
 * the first healthy answer of `GET /api/health/` (polled every 25 ms): `{url, startMs, stop()}`. The whole
 * process group is stopped (npm, scripts/start.mjs and the server).
 */
export async function startCommand(database, { timeoutMs = 180_000 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    // Standard output read for the server's "listening" line: the parts of its start (issue 38).
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      ...database,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ENV: 'development',
      JWT_SECRET,
      REDIS_URL: '',
      SMTP_URL: '',
    },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let phases = null;
  let pending = '';
  child.stdout.on('data', (chunk) => {
    if (phases) return;
    pending += chunk;
    for (const line of pending.split('\n')) {
      if (!line.includes('"phases"')) continue;
      try {
        phases = JSON.parse(line).phases ?? null;
      } catch {}
    }
    pending = pending.slice(pending.lastIndexOf('\n') + 1);
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, 15_000);
    await exited;
    clearTimeout(timer);
  };
  for (;;) {
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`npm start did not answer healthy within ${timeoutMs / 1000} s`);
    }
    if (child.exitCode !== null)
      throw new Error(`npm start exited (code ${child.exitCode}) before answering`);
    try {
      const res = await fetch(`${url}/api/health/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const startMs = performance.now() - started;
  // The parts of the server's own start (main.ts); npm and the build check come before `load`.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { url, startMs, phases, stop };
}

/** The bare Fastify hello-world of scenario 1 (bench/hello-server.mjs). */
export function startHello() {
  return startProcess(join(ROOT, 'bench/hello-server.mjs'), {}, { label: 'the hello-world server' });
}

/** Signs in through the API with a demo account: `{headers, hospitalId, user}` for the hospital `code`. */
export async function signIn(url, email, code = 'HGG') {
  const res = await fetch(`${url}/api/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const body = await res.json();
  const hospital = body.user.hospitals.find((h) => h.code === code);
  if (!hospital) throw new Error(`${email} has no hospital ${code}`);
  return {
    user: body.user,
    hospitalId: hospital.id,
    headers: {
      authorization: `Bearer ${body.access}`,
      'hospital-id': hospital.id,
      'accept-language': 'fr',
      'content-type': 'application/json',
    },
  };
}

/** One API call with a session; throws on a non-2xx status. */
export async function api(url, session, method, path, body) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: session.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * The reference of scenario 1's goal (bench/hello-reference.mjs): a hello-world with the server's own security
 * headers and request log line, configured from the same environment as `startApp`'s server.
 */
export function startHelloReference() {
  return startProcess(
    join(ROOT, 'bench/hello-reference.mjs'),
    { APP_ENV: 'development', JWT_SECRET, REDIS_URL: '', SMTP_URL: '' },
    { label: 'the reference hello-world' },
  );
}
