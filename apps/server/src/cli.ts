// Command-line tasks: `node dist/cli.js migrate | seed-demo | seed-scale --patients N`.
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { demoAccountsBanner, SeedRefused, seedDemoIfAllowed } from './db/seed/run.js';
import { seedScale } from './db/seed/scale.js';

async function main(command: string | undefined) {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    if (command === 'migrate') {
      console.log(`Migrations applied (${database.kind} database).`);
      return;
    }
    if (command === 'seed-demo') {
      const summary = await seedDemoIfAllowed(database, config);
      if (!summary) {
        console.log('The database already has data: the demo seed only runs on an empty database.');
        return;
      }
      console.log(
        `Demo seeded: ${summary.hospitals} hospitals, ${summary.departments} departments, ${summary.beds} beds.`,
      );
      console.log(demoAccountsBanner());
      return;
    }
    if (command === 'seed-scale') {
      if (config.appEnv === 'production')
        throw new SeedRefused('The scale seed never runs in production mode.');
      const at = process.argv.indexOf('--patients');
      const count = Number(at > 0 ? process.argv[at + 1] : 100_000);
      if (!Number.isInteger(count) || count < 1)
        throw new SeedRefused('usage: cli.js seed-scale --patients N');
      const started = Date.now();
      const result = await seedScale(database.db, count, (done) =>
        console.log(`  ${done} / ${count} patients`),
      );
      console.log(
        `${result.inserted} patients added to ${result.hospital} in ${Math.round((Date.now() - started) / 1000)} s.`,
      );
      return;
    }
    console.error('usage: cli.js migrate | seed-demo | seed-scale --patients N');
    process.exitCode = 2;
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((err) => {
  if (err instanceof ConfigError || err instanceof SeedRefused) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
