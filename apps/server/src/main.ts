import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isModuleEnabled } from '@greensen/shared/domain/modules';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig, webDistBeside } from './config.js';
import { MigrationLockTimeout } from './db/client.js';
import { DataDirLocked } from './db/data-dir-lock.js';
import { seedDemoDocuments } from './db/seed/documents.js';
import { demoAccountsBanner, seedDemoIfAllowed } from './db/seed/run.js';
import { warmPdf } from './modules/documents/pdf.js';
import { ensureExamCatalogue } from './modules/exams/exam-catalogue.js';
import { ensureIcd10Catalogue } from './modules/icd10/icd10.catalogue.js';
import { ensureMedicationReference } from './modules/pharmacy/medication-reference.js';
import { issueSetupLink } from './modules/setup/setup.service.js';

/**
 * The parts of a start, in milliseconds (issue 38; logged once listening and given to the bench): `load` from the
 * process's start to main() (Node and the server's modules), then each step of main() until the server listens.
 */
const phases: Record<string, number> = {};
let lastMark = 0;
function mark(name: string) {
  const now = performance.now();
  phases[name] = Math.round(now - lastMark);
  lastMark = now;
}

async function main() {
  mark('load');
  let config: ReturnType<typeof loadConfig>;
  try {
    // Without WEB_DIST, the web app built beside this server's build (apps/web/dist), when there is one.
    const here = dirname(fileURLToPath(import.meta.url));
    config = loadConfig(process.env, process.env.WEB_DIST ? {} : { webDist: webDistBeside(here) });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  mark('build');
  await app.database.migrate({
    log: { warn: (m) => app.log.warn(m), info: (m) => app.log.info(m) },
    lockTimeoutMs: config.migrationLockTimeoutMs,
  });
  mark('migrate');
  // The diagnosis catalogue every database needs (production too); skipped in one query once loaded.
  const icd10 = await ensureIcd10Catalogue(app.database.db);
  if (icd10.loaded) app.log.info({ rows: icd10.rows, ms: icd10.ms }, 'ICD-10 catalogue loaded');
  // Shipped catalogues, on every start (production too); skipped at once when unchanged.
  await ensureExamCatalogue(app.database.db);
  await ensureMedicationReference(app.database.db);
  mark('catalogues');
  // On a bare machine (embedded database) the first start seeds the demo so there is something to sign in to.
  let seeded = false;
  if (app.database.kind === 'embedded' && config.appEnv !== 'production' && config.demo) {
    seeded = (await seedDemoIfAllowed(app.database, config)) !== null;
    // The demo's documents go through the API (file storage, PDFs) once the rest of the demo is there.
    if (seeded) {
      const docs = await seedDemoDocuments(app);
      app.log.info(docs, 'demo documents issued');
    }
  }
  // Still empty (production, DEMO=off, or a PostgreSQL server): a one-time link to create the first hospital and
  // administrator (decision 0021), printed below on the console only, never to the log or the audit trail.
  const setup = await issueSetupLink(app.database.db, config.publicUrl);
  if (setup)
    app.log.info({ expires_at: setup.expiresAt.toISOString() }, 'empty installation: setup link issued');
  mark('demo');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      // Stops accepting connections, lets in-flight requests finish, then closes the database cleanly.
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  mark('listen');
  const startMs = Math.round(performance.now());
  app.log.info({ start_ms: startMs, phases }, 'listening');
  const url = `http://localhost:${config.port}`;
  const banner = [`\nGreensen is running at ${url}  (API docs: ${url}/api/docs)`];
  if (seeded) banner.push('The demo hospitals and accounts were created.');
  if (setup) banner.push(setupBanner(setup, config));
  else if (config.appEnv !== 'production' && config.demo) banner.push(demoAccountsBanner());
  console.log(`${banner.join('\n')}\n`);
  process.send?.({ type: 'listening', port: config.port, start_ms: startMs, phases });
  // What no request needs before the server answers, once it does: the PDF library and its fonts (0.4 s).
  setTimeout(() => {
    if (!closing) warmPdf();
  }, 1000).unref();
}

function setupBanner(setup: { link: string; expiresAt: Date }, config: Config): string {
  const lines = [
    'This installation is empty. Open this one-time link to create the first hospital and its administrator',
    `(it works once, until ${setup.expiresAt.toISOString()}; a restart while still empty prints a new one):`,
    `  ${setup.link}`,
  ];
  const missing = (['hospitals', 'admin'] as const).filter(
    (name) => !isModuleEnabled(name, config.appEnv, config.extraModules),
  );
  if (missing.length > 0)
    lines.push(
      `The ${config.appEnv} module set has no ${missing.join(' or ')} module: set EXTRA_MODULES=${missing.join(',')} to manage them in the app.`,
    );
  return lines.join('\n');
}

main().catch((err) => {
  if (err instanceof DataDirLocked || err instanceof MigrationLockTimeout) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
