// The bench's own databases: PostgreSQL databases `greensen_bench*` on the server of BENCH_PG_URL, and an
// embedded (PGlite) data folder in the system's temporary folder. Each is migrated, given the demo seed and
// `npm run seed:scale` patients once, and reused by later runs when the patient count is already there.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ROOT } from '../../scripts/lib.mjs';

export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database URL on the same server as PG_ADMIN_URL. */
export function pgUrl(database) {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The server's version when PostgreSQL answers, else null (the bench then runs the embedded part only). */
export async function postgresVersion() {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const res = await client.query('show server_version');
    return res.rows[0].server_version;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function ensurePgDatabase(name) {
  if (!/^greensen_bench[a-z0-9_]*$/.test(name)) throw new Error(`not a bench database name: ${name}`);
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

function cli(args, env) {
  const res = spawnSync(process.execPath, [join(ROOT, 'apps/server/dist/cli.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, APP_ENV: 'development', LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (res.status !== 0) throw new Error(`cli.js ${args.join(' ')} failed:\n${res.stderr || res.stdout}`);
  return res.stdout;
}

/** Opens a database with the server's own code (dist): `{db, close}`; the SQL side of the search scenario. */
export async function openDb(database) {
  const { openDatabase } = await import(pathToFileURL(join(ROOT, 'apps/server/dist/db/client.js')).href);
  return openDatabase({ url: database.DATABASE_URL, dataDir: database.DATA_DIR ?? join(tmpdir(), 'unused') });
}

async function hospitalPatients(database) {
  const handle = await openDb(database);
  try {
    const res = await handle.db.execute(`select h.id, h.code,
        (select count(*)::int from patients p where p.hospital_id = h.id) as patients
      from hospitals h order by h.created_at, h.id limit 1`);
    return res.rows[0] ?? null;
  } catch {
    return null; // not migrated yet
  } finally {
    await handle.close();
  }
}

/**
 * A database with at least `patients` patients in its first hospital (HGG): created, migrated and seeded
 * (demo, then synthetic patients) when needed. Returns the environment the server needs and what was done.
 */
export async function ensureDataset({ kind, name, patients, log }) {
  const database =
    kind === 'postgres'
      ? { DATABASE_URL: pgUrl(name) }
      : { DATA_DIR: join(tmpdir(), `greensen-bench-${name}`) };
  if (kind === 'postgres') await ensurePgDatabase(name);
  else mkdirSync(database.DATA_DIR, { recursive: true });
  let current = await hospitalPatients(database);
  const seeding = { demoMs: 0, scaleMs: 0, added: 0 };
  if (!current) {
    const t0 = performance.now();
    cli(['seed-demo'], database);
    seeding.demoMs = performance.now() - t0;
    current = await hospitalPatients(database);
  }
  cli(['migrate'], database); // a database from an earlier run gets the newer migrations
  const missing = patients - Number(current?.patients ?? 0);
  if (missing > 0) {
    log(`  ${name}: seeding ${missing.toLocaleString('en')} synthetic patients (npm run seed:scale)…`);
    const t0 = performance.now();
    cli(['seed-scale', '--patients', String(missing)], database);
    seeding.scaleMs = performance.now() - t0;
    seeding.added = missing;
    log(`  ${name}: seeded in ${(seeding.scaleMs / 1000).toFixed(1)} s`);
  }
  // Fresh statistics (the seed analyses, but a migration may have added indexes since), as a DBA would.
  const handle = await openDb(database);
  try {
    await handle.db.execute('analyze patients');
  } finally {
    await handle.close();
  }
  return { kind, name, database, patients: Math.max(patients, Number(current?.patients ?? 0)), seeding };
}

/** At least `beds` active beds in the dataset's first hospital, mostly occupied (`npm run seed:scale -- --beds N`). */
/** The pharmacy of scenario 8 (issue 18): 2,000 presentations and 20,000 lots (idempotent). */
export function ensurePharmacy(dataset, log) {
  log(
    `  ${dataset.name}: a pharmacy of 2,000 presentations and 20,000 lots (npm run seed:scale -- --pharmacy)…`,
  );
  return cli(['seed-scale', '--pharmacy'], dataset.database).trim();
}

/** The nursing ward of scenario 9 (issue 20): 40 patients, a week of care executions (idempotent). */
export function ensureCare(dataset, log) {
  log(`  ${dataset.name}: a 40-patient ward with a week of care executions (npm run seed:scale -- --care)…`);
  return cli(['seed-scale', '--care'], dataset.database).trim();
}

/** A 50-doctor clinic with a month of weekly schedules, half booked (scenario 14); its department id. */
export function ensureAppointments(dataset, log) {
  log(
    `  ${dataset.name}: a 50-doctor clinic with a month of bookings (npm run seed:scale -- --appointments)…`,
  );
  return JSON.parse(cli(['seed-scale', '--appointments'], dataset.database).trim().split('\n').at(-1));
}

export function ensureBeds(dataset, beds, log) {
  log(`  ${dataset.name}: a ${beds}-bed floor (npm run seed:scale -- --beds ${beds})…`);
  return cli(['seed-scale', '--beds', String(beds)], dataset.database).trim();
}

/**
 * The two records of the large-record scenario (issue 16): a patient with 500 visits, each with a consultation
 * and an exam result, and one with 5 (`npm run seed:scale -- --records`, idempotent): `{large, small}` with
 * their ids and visit counts.
 */
export function ensureRecords(dataset, log) {
  log(`  ${dataset.name}: a 500-visit record and a 5-visit one (npm run seed:scale -- --records)…`);
  const records = () =>
    JSON.parse(cli(['seed-scale', '--records'], dataset.database).trim().split('\n').at(-1));
  try {
    return records();
  } catch (error) {
    // The records take two patients without any visit: the demo alone has none (each demo patient has a visit).
    if (!/Not enough patients without visits/.test(String(error.message))) throw error;
    log(`  ${dataset.name}: two patients without visits for them (npm run seed:scale -- --patients 2)…`);
    cli(['seed-scale', '--patients', '2'], dataset.database);
    return records();
  }
}

/** The e-mail of bench nurse n (1…): as `seedScaleNurses` names them. */
export const BENCH_NURSE = (n) => `bench-nurse-${String(n).padStart(4, '0')}@greensen.test`;

/** At least `count` nurses of the whole first hospital (`npm run seed:scale -- --nurses N`): `{nurses}`. */
export function ensureNurses(dataset, count, log) {
  log(`  ${dataset.name}: ${count} nurses (npm run seed:scale -- --nurses ${count})…`);
  return JSON.parse(
    cli(['seed-scale', '--nurses', String(count)], dataset.database)
      .trim()
      .split('\n')
      .at(-1),
  );
}

/**
 * The invoices of scenario 13 (issue 21): at least `invoices` issued invoices and a 30-day stay of ~300 acts
 * (`npm run seed:scale -- --billing N`, idempotent): `{invoices, stay, acts}`.
 */
export function ensureBilling(dataset, invoices, log) {
  log(
    `  ${dataset.name}: ${invoices.toLocaleString('en')} invoices and a 30-day stay (npm run seed:scale -- --billing ${invoices})…`,
  );
  return JSON.parse(
    cli(['seed-scale', '--billing', String(invoices)], dataset.database)
      .trim()
      .split('\n')
      .at(-1),
  );
}

/**
 * Two years of visits for scenario 15 (issue 24): at least `visits` completed, triaged, consulted and coded visits
 * of the first hospital over the 730 days before today, and the summaries built by the app's refresh (`npm run
 * seed:scale -- --reporting N`, idempotent, decision 0047): `{visits, loadS, indexesS, vacuumS, summariesS, days}`
 * as the seed reports them.
 */
export function ensureReporting(dataset, visits, log) {
  log(
    `  ${dataset.name}: ${visits.toLocaleString('en')} visits over two years (npm run seed:scale -- --reporting ${visits})…`,
  );
  return JSON.parse(
    cli(['seed-scale', '--reporting', String(visits)], dataset.database)
      .trim()
      .split('\n')
      .at(-1),
  );
}
