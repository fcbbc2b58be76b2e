// Command-line tasks: `node dist/cli.js migrate | seed-demo | seed-scale [--patients N] [--beds N] [--pharmacy] [--records] [--nurses N] [--care] [--billing N] [--appointments] [--reporting N]
// | import-icd10 <file> | import-medications <file> | import-dose-limits <HOSPITAL_CODE> <file>
// | mobile-money-secret <HOSPITAL_CODE> <operator>`.
import { resolve } from 'node:path';
import { MOBILE_MONEY_OPERATORS } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { demoAccountsBanner, SeedRefused, seedDemoIfAllowed } from './db/seed/run.js';
import {
  seedScale,
  seedScaleAppointments,
  seedScaleBeds,
  seedScaleBilling,
  seedScaleCare,
  seedScaleNurses,
  seedScalePharmacy,
  seedScaleRecords,
  seedScaleReporting,
} from './db/seed/scale.js';
import { storeOperatorSecret } from './modules/billing/mobile-money.service.js';
import { ensureIcd10Catalogue } from './modules/icd10/icd10.catalogue.js';
import { Icd10ImportRefused, importIcd10File } from './modules/icd10/icd10.import.js';
import {
  DoseLimitImportRefused,
  importDoseLimitsFile,
} from './modules/medication-safety/dose-limits.import.js';
import { ensureMedicationReference } from './modules/pharmacy/medication-reference.js';
import { importMedicationsFile, MedicationImportRefused } from './modules/pharmacy/medications.import.js';

/** The report of an import command: lines read, inserted, updated, unchanged, and the first rejected lines. */
function printImportReport(report: {
  lines: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: { line: number; reason: string }[];
}) {
  console.log(
    `${report.lines} lines read: ${report.inserted} inserted, ${report.updated} updated, ` +
      `${report.unchanged} unchanged, ${report.rejected.length} rejected.`,
  );
  for (const r of report.rejected.slice(0, 100)) console.log(`  line ${r.line}: ${r.reason}`);
  if (report.rejected.length > 100) console.log(`  … and ${report.rejected.length - 100} more.`);
}

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
      const billingAt = process.argv.indexOf('--billing');
      if (billingAt > 0) {
        const total = Number(process.argv[billingAt + 1]);
        if (!Number.isInteger(total) || total < 1 || total > 5_000_000)
          throw new SeedRefused('usage: cli.js seed-scale --billing N (1 to 5000000 invoices)');
        // One line of JSON: the bench reads the stay's id from it.
        console.log(JSON.stringify(await seedScaleBilling(database.db, total)));
        return;
      }
      const reportingAt = process.argv.indexOf('--reporting');
      if (reportingAt > 0) {
        const total = Number(process.argv[reportingAt + 1]);
        if (!Number.isInteger(total) || total < 1 || total > 10_000_000)
          throw new SeedRefused('usage: cli.js seed-scale --reporting N (1 to 10000000 visits)');
        const result = await seedScaleReporting(database.db, total, (done) =>
          console.error(`  ${done.toLocaleString('en')} visits`),
        );
        // One line of JSON: the bench reads it.
        console.log(JSON.stringify(result));
        return;
      }
      if (process.argv.includes('--appointments')) {
        // One line of JSON: the bench reads the department from it.
        console.log(JSON.stringify(await seedScaleAppointments(database.db)));
        return;
      }
      if (process.argv.includes('--care')) {
        const r = await seedScaleCare(database.db);
        console.log(
          `${r.hospital}: ${r.plans} care plans, ${r.executions} care executions in the bench ward.`,
        );
        if (
          !process.argv.includes('--patients') &&
          !process.argv.includes('--beds') &&
          !process.argv.includes('--pharmacy')
        )
          return;
      }
      if (process.argv.includes('--pharmacy')) {
        const r = await seedScalePharmacy(database.db);
        console.log(`${r.hospital}: ${r.presentations} presentations, ${r.lots} lots in its pharmacy.`);
        if (!process.argv.includes('--patients') && !process.argv.includes('--beds')) return;
      }
      if (process.argv.includes('--records')) {
        // One line of JSON: the bench reads the two patients' ids from it.
        console.log(JSON.stringify(await seedScaleRecords(database.db)));
        return;
      }
      const nursesAt = process.argv.indexOf('--nurses');
      if (nursesAt > 0) {
        const nurses = Number(process.argv[nursesAt + 1]);
        if (!Number.isInteger(nurses) || nurses < 1 || nurses > 9999)
          throw new SeedRefused('usage: cli.js seed-scale --nurses N (1 to 9999)');
        console.log(JSON.stringify(await seedScaleNurses(database.db, nurses)));
        return;
      }
      const bedsAt = process.argv.indexOf('--beds');
      if (bedsAt > 0) {
        const beds = Number(process.argv[bedsAt + 1]);
        if (!Number.isInteger(beds) || beds < 1 || beds > 20_000)
          throw new SeedRefused('usage: cli.js seed-scale --beds N (1 to 20000)');
        const result = await seedScaleBeds(database.db, beds);
        console.log(`${result.hospital}: ${result.beds} beds, ${result.admitted} patients put in beds.`);
        if (!process.argv.includes('--patients')) return;
      }
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
    if (command === 'import-icd10') {
      const file = process.argv[3];
      if (!file) throw new Icd10ImportRefused('usage: cli.js import-icd10 <file.csv|file.tsv>');
      // `npm run icd10:import -- file` runs from the repository root: the path is the caller's.
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
      await ensureIcd10Catalogue(database.db);
      const report = await importIcd10File(database.db, path);
      printImportReport(report);
      return;
    }
    if (command === 'import-medications') {
      const file = process.argv[3];
      if (!file) throw new MedicationImportRefused('usage: cli.js import-medications <file.csv|file.tsv>');
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
      await ensureMedicationReference(database.db);
      const report = await importMedicationsFile(database.db, path);
      printImportReport(report);
      return;
    }
    if (command === 'import-dose-limits') {
      // A hospital's own dose limits (issue 34, docs/medication-safety.md): they replace the shipped rows of the
      // medicines the file names, for that hospital.
      const [hospitalCode, file] = [process.argv[3], process.argv[4]];
      if (!hospitalCode || !file)
        throw new DoseLimitImportRefused('usage: cli.js import-dose-limits <HOSPITAL_CODE> <file.tsv>');
      await ensureMedicationReference(database.db);
      const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
      printImportReport(await importDoseLimitsFile(database.db, hospitalCode, path));
      return;
    }
    if (command === 'mobile-money-secret') {
      // The secret comes from the environment (MOBILE_MONEY_SECRET), never from the command line (shell history).
      const [hospitalCode, operator] = [process.argv[3], process.argv[4]];
      const secret = process.env.MOBILE_MONEY_SECRET ?? '';
      const op = MOBILE_MONEY_OPERATORS.find((o) => o === operator);
      const hospital = hospitalCode
        ? (
            await database.db.execute<{ id: string }>(
              sql`select id from hospitals where code = ${hospitalCode.toUpperCase()}`,
            )
          ).rows[0]
        : undefined;
      if (!hospital || !op || !secret)
        throw new SeedRefused(
          `usage: MOBILE_MONEY_SECRET=… cli.js mobile-money-secret <HOSPITAL_CODE> <${MOBILE_MONEY_OPERATORS.join('|')}>`,
        );
      await storeOperatorSecret(database.db, config.secretsKey, hospital.id, op, secret);
      console.log(`Callback secret of ${op} stored (encrypted) for ${hospitalCode?.toUpperCase()}.`);
      return;
    }
    console.error(
      'usage: cli.js migrate | seed-demo | seed-scale --patients N | import-icd10 <file> | import-medications <file> | mobile-money-secret <HOSPITAL_CODE> <operator>',
    );
    process.exitCode = 2;
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((err) => {
  if (
    err instanceof ConfigError ||
    err instanceof SeedRefused ||
    err instanceof Icd10ImportRefused ||
    err instanceof MedicationImportRefused ||
    err instanceof DoseLimitImportRefused
  ) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(err);
  process.exit(1);
});
