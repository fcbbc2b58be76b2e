import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { demoAccountsBanner, seedDemoIfAllowed } from './db/seed/run.js';
import { ensureExamCatalogue } from './modules/exams/exam-catalogue.js';
import { ensureIcd10Catalogue } from './modules/icd10/icd10.catalogue.js';
import { ensureMedicationReference } from './modules/pharmacy/medication-reference.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp(config);
  await app.database.migrate();
  // The diagnosis catalogue every database needs (production too); skipped in one query once loaded.
  const icd10 = await ensureIcd10Catalogue(app.database.db);
  if (icd10.loaded) app.log.info({ rows: icd10.rows, ms: icd10.ms }, 'ICD-10 catalogue loaded');
  // Shipped catalogues, on every start (production too); skipped at once when unchanged.
  await ensureExamCatalogue(app.database.db);
  await ensureMedicationReference(app.database.db);
  // On a bare machine (embedded database) the first start seeds the demo so there is something to sign in to.
  let seeded = false;
  if (app.database.kind === 'embedded' && config.appEnv !== 'production') {
    seeded = (await seedDemoIfAllowed(app.database, config)) !== null;
  }

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
  const url = `http://localhost:${config.port}`;
  const banner = [`\nGreensen is running at ${url}  (API docs: ${url}/api/docs)`];
  if (seeded) banner.push('The demo hospitals and accounts were created.');
  if (config.appEnv !== 'production') banner.push(demoAccountsBanner());
  console.log(`${banner.join('\n')}\n`);
  process.send?.({ type: 'listening', port: config.port });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
