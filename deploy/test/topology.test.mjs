// The production topology, end to end (issue 35; decision 0059): Debian's nginx with deploy/nginx/greensen.conf
// (TLS with a certificate made here, round robin, WebSocket upgrade) in front of TWO instances started from the
// runtime tree of `deploy/build.sh assemble` (the container image's contents) in production mode, on a fresh
// PostgreSQL database and Redis. Every request goes through nginx; nginx's access log (the file's `greensen`
// format) says which instance answered, so "through A, then through B" is checked, not assumed.
//
// Run after the build: `node --test deploy/test/topology.test.mjs` (npm test runs it as its "topology" step).
// Needs TEST_DATABASE_URL (a PostgreSQL server where it may create and drop a database), TEST_REDIS_URL and nginx;
// scripts/test.mjs skips the step, saying which is missing, when one is not there.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(ROOT, 'apps/server/package.json'));
const pg = require('pg');
const { WebSocket } = require('ws');

const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const DATABASE_ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const missing = [
  !DATABASE_ADMIN_URL && 'TEST_DATABASE_URL is not set',
  !REDIS_URL && 'TEST_REDIS_URL is not set',
  !existsSync(NGINX) && `no nginx at ${NGINX} (apt-get install nginx-light)`,
].filter(Boolean);
if (missing.length > 0) console.warn(`[topology] SKIPPED: ${missing.join('; ')}`);

const PASSWORD = 'harbour-violet-compass-31';

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {}
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('the production topology: nginx, two instances, PostgreSQL, Redis', {
  skip: missing.length > 0,
}, () => {
  const dir = missing.length > 0 ? '' : mkdtempSync(join(tmpdir(), 'greensen-topology-'));
  const app = join(dir, 'app');
  const database = `greensen_topology_${randomBytes(5).toString('hex')}`;
  const databaseUrl = (() => {
    if (!DATABASE_ADMIN_URL) return '';
    const u = new URL(DATABASE_ADMIN_URL);
    u.pathname = `/${database}`;
    return u.toString();
  })();
  const instances = {}; // name → { port, child, output }
  let nginx;
  let httpsPort;
  let httpPort;
  let ca;
  let jwtSecret;
  let secretsKey;
  const session = {}; // access token, hospital, user, patient…

  /** The environment of an instance (and of the CLI) in this run. */
  function instanceEnv(name, port, extraEnv = {}) {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      APP_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      JWT_SECRET: jwtSecret,
      SECRETS_KEY: secretsKey,
      PUBLIC_URL: `https://localhost:${httpsPort}`,
      TRUST_PROXY: 'true',
      DATA_DIR: join(dir, `data-${name}`),
      // A hospital that uses every module.
      EXTRA_MODULES: 'all',
      JOBS_POLL_MS: '500',
      LOG_LEVEL: 'info',
      ...extraEnv,
    };
  }

  /** Starts one instance from the runtime tree; resolves once it listens. */
  function startInstance(name, port, extraEnv = {}) {
    const logFile = join(dir, `${name}.log`);
    const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: instanceEnv(name, port, extraEnv),
    });
    const instance = { name, port, child, output: '' };
    instances[name] = instance;
    const collect = (d) => {
      instance.output += d;
      writeFileSync(logFile, instance.output);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    return new Promise((resolve, reject) => {
      child.on('message', (m) => m?.type === 'listening' && resolve(instance));
      child.on('exit', (code, signal) =>
        reject(
          new Error(`instance ${name} exited (${code ?? signal}) before listening:\n${instance.output}`),
        ),
      );
    });
  }

  /** One HTTPS request through nginx (the certificate made here is the only one trusted). */
  function req(
    method,
    path,
    { headers = {}, body, token = session.access, hospital = session.hospital } = {},
  ) {
    const payload =
      body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    const h = {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(hospital ? { 'hospital-id': hospital } : {}),
      ...(payload && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}),
      ...(payload ? { 'content-length': String(payload.length) } : {}),
      'accept-language': 'en',
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const r = httpsRequest(
        {
          host: '127.0.0.1',
          port: httpsPort,
          servername: 'localhost',
          method,
          path,
          headers: h,
          ca,
          agent: false,
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            let json;
            try {
              json = JSON.parse(bytes.toString('utf8'));
            } catch {}
            resolve({ status: res.statusCode, headers: res.headers, bytes, json });
          });
        },
      );
      r.on('error', reject);
      r.end(payload);
    });
  }

  /** The instance that answered the last logged request whose line contains `needle` (nginx's access log). */
  async function answeredBy(needle) {
    const line = await waitFor(`an access-log line with ${needle}`, () => {
      const lines = readFileSync(join(dir, 'greensen.access.log'), 'utf8').split('\n');
      return lines.filter((l) => l.includes(needle)).at(-1);
    });
    // `upstream=127.0.0.1:3001, 127.0.0.1:3002` when the first one failed and nginx went on to the next.
    const upstream = /upstream=(.+?) upstream_status=/.exec(line)?.[1].split(', ').at(-1) ?? '';
    const port = Number(upstream.split(':').at(-1));
    const name = Object.values(instances).find((i) => i.port === port)?.name;
    assert.ok(name, `no instance at ${upstream} (${line})`);
    return name;
  }

  /** Repeats a GET through nginx until the instance `other` than `first` answered it; returns every answer. */
  async function fetchFromBoth(path) {
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const marker = `${path}${path.includes('?') ? '&' : '?'}n=${randomUUID()}`;
      const res = await req('GET', marker);
      answers.push({ res, by: await answeredBy(marker) });
      if (new Set(answers.map((a) => a.by)).size === 2) return answers;
    }
    assert.fail(`round robin never reached both instances for ${path}: ${answers.map((a) => a.by)}`);
  }

  before(async () => {
    const started = Date.now();
    jwtSecret = randomBytes(32).toString('hex');
    secretsKey = randomBytes(32).toString('hex');
    [httpsPort, httpPort] = [await freePort(), await freePort()];
    const [portA, portB] = [await freePort(), await freePort()];

    // The runtime tree, as the image's last stage holds it.
    const assembled = spawnSync(join(ROOT, 'deploy/build.sh'), ['assemble', app], { encoding: 'utf8' });
    assert.equal(
      assembled.status,
      0,
      `deploy/build.sh assemble failed:\n${assembled.stdout}${assembled.stderr}`,
    );

    // A database of its own, dropped at the end.
    const admin = new pg.Client({ connectionString: DATABASE_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();

    // A self-signed certificate for "localhost".
    const key = join(dir, 'privkey.pem');
    const cert = join(dir, 'fullchain.pem');
    const ssl = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(ssl.status, 0, ssl.stderr);
    ca = readFileSync(cert);

    // nginx with the shipped file, its CHANGE lines (and listen ports) pointed at this run.
    let conf = readFileSync(join(ROOT, 'deploy/nginx/greensen.conf'), 'utf8');
    const replace = (from, to) => {
      assert.ok(conf.includes(from), `deploy/nginx/greensen.conf no longer has "${from}"`);
      conf = conf.replaceAll(from, to);
    };
    replace('127.0.0.1:3001', `127.0.0.1:${portA}`);
    replace('127.0.0.1:3002', `127.0.0.1:${portB}`);
    replace('    listen 80;\n', `    listen 127.0.0.1:${httpPort};\n`);
    replace('    listen [::]:80;\n', '');
    replace('    listen 443 ssl http2;\n', `    listen 127.0.0.1:${httpsPort} ssl http2;\n`);
    replace('    listen [::]:443 ssl http2;\n', '');
    replace('greensen.example.org', 'localhost');
    replace('/etc/ssl/greensen/fullchain.pem', cert);
    replace('/etc/ssl/greensen/privkey.pem', key);
    replace('/var/log/nginx/', `${dir}/`);
    writeFileSync(join(dir, 'greensen.conf'), conf);
    mkdirSync(join(dir, 'nginx-temp'));
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/nginx-error.log warn;`,
        'daemon off;',
        'events { worker_connections 256; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        `  client_body_temp_path ${dir}/nginx-temp/body;`,
        `  proxy_temp_path ${dir}/nginx-temp/proxy;`,
        `  include ${dir}/greensen.conf;`,
        '}',
        '',
      ].join('\n'),
    );
    const check = spawnSync(
      NGINX,
      ['-t', '-p', dir, '-e', join(dir, 'nginx-error.log'), '-c', join(dir, 'nginx.conf')],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(check.status, 0, `nginx -t refused the configuration:\n${check.stderr}`);
    nginx = spawn(NGINX, ['-p', dir, '-e', join(dir, 'nginx-error.log'), '-c', join(dir, 'nginx.conf')], {
      stdio: 'ignore',
    });

    // Both instances at once on the empty database: one applies the migrations, the other waits for it.
    await Promise.all([startInstance('A', portA), startInstance('B', portB)]);
    await waitFor('nginx', async () => (await req('GET', '/api/health/')).status === 200);
    console.log(`[topology] ready in ${Math.round((Date.now() - started) / 100) / 10} s (${dir})`);
  });

  after(async () => {
    for (const i of Object.values(instances)) if (i.child.exitCode === null) i.child.kill('SIGTERM');
    nginx?.kill('SIGTERM');
    await Promise.all(
      Object.values(instances).map(
        (i) =>
          i.child.exitCode === null &&
          i.child.signalCode === null &&
          new Promise((r) => i.child.on('exit', r)),
      ),
    );
    if (DATABASE_ADMIN_URL) {
      const admin = new pg.Client({ connectionString: DATABASE_ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.query(`drop database if exists ${database}_restored with (force)`);
      await admin.end();
    }
    if (process.exitCode) console.log(`[topology] kept for inspection: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  });

  test('HTTP is redirected to HTTPS, and both instances serve the web app (the setup page) without WEB_DIST', async () => {
    const res = await new Promise((resolve, reject) =>
      httpRequest(
        { host: '127.0.0.1', port: httpPort, path: '/register', headers: { host: 'localhost' } },
        resolve,
      )
        .on('error', reject)
        .end(),
    );
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, 'https://localhost/register');
    for (const { res: health, by } of await fetchFromBoth('/api/health/')) {
      assert.equal(health.status, 200);
      assert.equal(health.json.status, 'ok', `instance ${by}: ${health.bytes}`);
      assert.equal(health.json.redis, 'ok');
      assert.equal(health.json.file_store_kind, 'database');
    }
    for (const { res: page } of await fetchFromBoth('/register')) {
      assert.equal(page.status, 200);
      assert.match(page.headers['content-type'], /text\/html/);
      assert.match(page.bytes.toString('utf8'), /<div id="root"/);
    }
  });

  test('the one-time setup link printed at the first start creates the hospital and its administrator', async () => {
    const link = /https:\/\/localhost:\d+\/register#setup=(\S+)/.exec(instances.A.output);
    assert.ok(link, `instance A printed no setup link:\n${instances.A.output}`);
    const res = await req('POST', '/api/setup/', {
      token: null,
      hospital: null,
      body: {
        token: link[1],
        name: 'Hôpital de la topologie',
        code: 'TOPO',
        time_zone: 'Africa/Kinshasa',
        currency: 'CDF',
        triage_scale: 'SATS',
        first_name: 'Awa',
        last_name: 'Diallo',
        email: 'direction@topologie.example.org',
        password: PASSWORD,
      },
    });
    assert.equal(res.status, 201, res.bytes.toString());
    session.access = res.json.access;
    session.user = res.json.user.id;
    session.hospital = res.json.user.hospitals[0].id;
    // The administrator also practises (a doctor of the whole hospital), to issue a certificate below.
    const added = await req('POST', `/api/admin/staff/${session.user}/memberships/`, {
      body: { role_code: 'DOCTOR', department: null },
    });
    assert.equal(added.status, 201, added.bytes.toString());
    // A colleague (invited: without SMTP_URL the invitation is kept in the database).
    const invited = await req('POST', '/api/admin/staff/', {
      body: {
        email: 'infirmier@topologie.example.org',
        first_name: 'Jean',
        last_name: 'Mbeki',
        role_code: 'NURSE',
        department: null,
      },
    });
    assert.equal(invited.status, 201, invited.bytes.toString());
    // The invitation is a membership waiting for the person (issue 36): they accept it with the mailed link.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      let token;
      for (let i = 0; i < 100 && !token; i++) {
        const mail = await db.query(
          'select text_body from mail_outbox where to_address = $1 order by created_at desc limit 1',
          ['infirmier@topologie.example.org'],
        );
        token = /https?:\/\/\S+/
          .exec(mail.rows[0]?.text_body ?? '')?.[0]
          ?.split('/')
          .filter(Boolean)
          .pop();
        if (!token) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(token, 'the invitation mail is in the outbox');
      const accepted = await req('POST', '/api/auth/invitations/accept/', {
        token: null,
        hospital: null,
        body: { token, new_password: PASSWORD },
      });
      assert.equal(accepted.status, 200, accepted.bytes.toString());
      const member = await db.query('select user_id from memberships where id = $1', [invited.json.id]);
      session.colleague = member.rows[0]?.user_id;
    } finally {
      await db.end();
    }
    assert.ok(session.colleague, invited.bytes.toString());
    // Signed in again through nginx: the session now carries both roles.
    const signIn = await req('POST', '/api/login/', {
      token: null,
      hospital: null,
      body: { email: 'direction@topologie.example.org', password: PASSWORD },
    });
    assert.equal(signIn.status, 200, signIn.bytes.toString());
    session.access = signIn.json.access;
    const patient = await req('POST', '/api/patients/', {
      body: {
        first_name: 'Mireille',
        last_name: 'Kabongo',
        sex: 'F',
        birth_date: '1984-02-29',
        confirm_duplicate: true,
      },
    });
    assert.equal(patient.status, 201, patient.bytes.toString());
    session.patient = patient.json.id;
  });

  test('a document uploaded through one instance is downloaded, byte for byte, through the other', async () => {
    const file = Buffer.concat([Buffer.from('%PDF-1.4\n% Greensen topology\n'), randomBytes(200_000)]);
    const boundary = `----greensen${randomBytes(8).toString('hex')}`;
    const field = (name, value) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(field('patient', session.patient) + field('category', 'previous_results')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="resultats.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const marker = `/api/patient-documents/?upload=${randomUUID()}`;
    const up = await req('POST', marker, {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(up.status, 201, up.bytes.toString());
    const uploadedBy = await answeredBy(marker);
    session.document = { id: up.json.id, bytes: file };
    const answers = await fetchFromBoth(`/api/patient-documents/${up.json.id}/file/`);
    assert.ok(answers.some((a) => a.by !== uploadedBy));
    for (const { res, by } of answers) {
      assert.equal(res.status, 200, `instance ${by}: ${res.bytes.toString().slice(0, 300)}`);
      assert.ok(res.bytes.equals(file), `instance ${by} answered other bytes`);
    }
  });

  test('a PDF issued through one instance is printed again, the same bytes, through the other', async () => {
    const marker = `/api/documents/?issue=${randomUUID()}`;
    const issued = await req('POST', marker, {
      body: { kind: 'medical_certificate', source: { type: 'patient', id: session.patient } },
    });
    assert.equal(issued.status, 201, issued.bytes.toString());
    const issuedBy = await answeredBy(marker);
    const answers = await fetchFromBoth(`/api/documents/${issued.json.id}/pdf/`);
    assert.ok(answers.some((a) => a.by !== issuedBy));
    const first = answers[0].res.bytes;
    assert.equal(first.subarray(0, 5).toString('latin1'), '%PDF-');
    for (const { res, by } of answers) {
      assert.equal(res.status, 200, `instance ${by}: ${res.bytes.toString().slice(0, 300)}`);
      assert.ok(res.bytes.equals(first), `instance ${by} printed other bytes`);
    }
  });

  test('a chat message sent through one instance reaches sockets on both, over WebSockets through nginx', async () => {
    /** A socket through nginx (wss, upgraded on /ws/), with the messages it received. */
    async function socket() {
      const ticket = await req('POST', '/api/notifications/ws-ticket/');
      assert.equal(ticket.status, 200, ticket.bytes.toString());
      const ws = new WebSocket(`wss://localhost:${httpsPort}/ws/notifications/${ticket.json.ticket}/`, {
        ca,
      });
      const received = [];
      ws.on('message', (data) => received.push(JSON.parse(String(data))));
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      return { ws, received, ticket: ticket.json.ticket };
    }
    // Three sockets, a different number of requests between them so that round robin (each socket costs two
    // requests: its ticket and its upgrade) puts them on both instances. nginx logs a socket's line when it
    // closes: where they stood is checked at the end.
    const sockets = [];
    for (let i = 0; i < 3; i++) {
      for (let pad = 0; pad < i; pad++) assert.equal((await req('GET', '/api/health/')).status, 200);
      sockets.push(await socket());
    }
    const conversation = await req('POST', '/api/chat/conversations/', {
      body: { kind: 'group', title: 'Équipe de garde', members: [session.colleague] },
    });
    assert.equal(conversation.status, 201, conversation.bytes.toString());
    // Two messages, one through each instance.
    const sent = [];
    for (let i = 0; i < 6 && new Set(sent.map((s) => s.by)).size < 2; i++) {
      const id = randomUUID();
      const marker = `/api/chat/conversations/${conversation.json.id}/messages/?m=${id}`;
      const res = await req('POST', marker, { body: { id, body: `Message ${i} de la garde` } });
      assert.equal(res.status, 201, res.bytes.toString());
      sent.push({ id, by: await answeredBy(marker) });
    }
    assert.equal(new Set(sent.map((s) => s.by)).size, 2, 'the messages did not go through both instances');
    for (const s of sockets) {
      await waitFor(
        'every message on every socket',
        () =>
          sent.every(({ id }) =>
            s.received.some((m) => m.action === 'chat.message.created' && m.message?.id === id),
          ),
        10_000,
      );
    }
    for (const s of sockets) s.ws.close();
    // Each socket stood on one instance; both instances sent a message: every socket got one from the other.
    // nginx logs a socket when it closes, its ticket redacted (the only sockets of this run are these three).
    const placed = await waitFor('the three sockets in the access log', () => {
      const lines = readFileSync(join(dir, 'greensen.access.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"GET /ws/notifications/[redacted] '));
      return lines.length === 3 && lines;
    });
    assert.ok(
      placed.every((l) => !sockets.some((s) => l.includes(s.ticket))),
      'a ticket was logged',
    );
    const ports = new Set(placed.map((l) => /upstream=(\S+)/.exec(l)?.[1]));
    assert.equal(ports.size, 2, `the sockets all stood on one instance: ${[...ports]}`);
  });

  test('kill -9 of one instance: requests through nginx keep being answered by the other', async () => {
    instances.A.child.kill('SIGKILL');
    await new Promise((r) =>
      instances.A.child.exitCode !== null || instances.A.child.signalCode
        ? r()
        : instances.A.child.on('exit', r),
    );
    for (let i = 0; i < 6; i++) {
      const health = await req('GET', `/api/health/?k=${i}`);
      assert.equal(health.status, 200, `health ${i}: ${health.status}`);
      const patient = await req('GET', `/api/patients/${session.patient}/`);
      assert.equal(patient.status, 200, `patient ${i}: ${patient.status}`);
    }
    const created = await req('POST', '/api/patients/', {
      body: {
        first_name: 'Joseph',
        last_name: 'Ilunga',
        sex: 'M',
        birth_date: '1990-05-01',
        confirm_duplicate: true,
      },
    });
    assert.equal(created.status, 201, created.bytes.toString());
    assert.equal(await answeredBy(`/api/patients/${session.patient}/`), 'B');
  });
  test('backup while serving, restore into an empty database: the same patient and document, jobs held until released', async () => {
    const archive = join(dir, 'greensen.tar');
    const restoredUrl = databaseUrl.replace(`/${database}`, `/${database}_restored`);
    const cli = (args, extraEnv = {}) =>
      spawnSync(process.execPath, ['apps/server/dist/cli.js', ...args], {
        cwd: app,
        encoding: 'utf8',
        env: instanceEnv('cli', 0, extraEnv),
      });
    const made = cli(['backup', archive]);
    assert.equal(made.status, 0, `backup: ${made.stdout}${made.stderr}`);

    const admin = new pg.Client({ connectionString: DATABASE_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${database}_restored`);
    await admin.end();
    const restored = cli(['restore', archive], { DATABASE_URL: restoredUrl });
    assert.equal(restored.status, 0, `restore: ${restored.stdout}${restored.stderr}`);

    const db = new pg.Client({ connectionString: restoredUrl });
    await db.connect();
    try {
      const setting = await db.query("select value from app_settings where key = 'jobs_held'");
      assert.equal(setting.rows[0]?.value, 'true');
      // A recurring job made due now: held, it must not run on the restored installation.
      await db.query("update jobs set run_at = now() where state = 'queued' and name = 'stats.refresh'");
      const due = await db.query(
        "select count(*)::int as n from jobs where state = 'queued' and run_at <= now()",
      );
      assert.ok(due.rows[0].n > 0, 'no due job to hold');
      const restoredAt = (await db.query('select now() as t')).rows[0].t;

      const portC = await freePort();
      await startInstance('C', portC, { DATABASE_URL: restoredUrl, PUBLIC_URL: `http://127.0.0.1:${portC}` });
      const base = `http://127.0.0.1:${portC}`;
      const signIn = await fetch(`${base}/api/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'direction@topologie.example.org', password: PASSWORD }),
      });
      assert.equal(signIn.status, 200);
      // The restored instance says its jobs are held: it serves (200), degraded.
      const health = await (await fetch(`${base}/api/health/`)).json();
      assert.equal(health.status, 'degraded');
      assert.equal(health.jobs_worker, 'held');
      const headers = {
        authorization: `Bearer ${(await signIn.json()).access}`,
        'hospital-id': session.hospital,
      };
      const patient = await fetch(`${base}/api/patients/${session.patient}/`, { headers });
      assert.equal(patient.status, 200);
      assert.equal((await patient.json()).last_name, 'Kabongo');
      const file = await fetch(`${base}/api/patient-documents/${session.document.id}/file/`, { headers });
      assert.equal(file.status, 200);
      assert.ok(
        Buffer.from(await file.arrayBuffer()).equals(session.document.bytes),
        'the restored document differs',
      );

      // Several polls of the worker (JOBS_POLL_MS=500) went by while the instance answered: nothing ran.
      const ran = await db.query('select count(*)::int as n from jobs where finished_at > $1', [restoredAt]);
      assert.equal(ran.rows[0].n, 0, 'a job ran on the restored installation while held');

      const released = cli(['release-jobs'], { DATABASE_URL: restoredUrl });
      assert.equal(released.status, 0, `release-jobs: ${released.stdout}${released.stderr}`);
      await waitFor(
        'the held job to run once released',
        async () =>
          (await db.query('select count(*)::int as n from jobs where finished_at > $1', [restoredAt])).rows[0]
            .n > 0,
        30_000,
      );
    } finally {
      await db.end();
    }
  });
});
