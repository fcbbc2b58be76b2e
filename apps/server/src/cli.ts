// Command-line tasks (`node dist/cli.js --help`): see USAGE below. `--help` and an unknown command touch no database.
import { join, resolve } from 'node:path';
import { MOBILE_MONEY_OPERATORS } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from './config.js';
import { MigrationLockTimeout, openDatabase } from './db/client.js';
import { DataDirLocked } from './db/data-dir-lock.js';
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
import { jobsHeld, setJobsHeld } from './jobs/queue.js';
import { DiskStorage, migrateFilesToDatabase } from './lib/storage.js';
import { storeOperatorSecret } from './modules/billing/mobile-money.service.js';
import { ensureIcd10Catalogue } from './modules/icd10/icd10.catalogue.js';
import { Icd10ImportRefused, importIcd10File } from './modules/icd10/icd10.import.js';
import {
  DoseLimitImportRefused,
  importDoseLimitsFile,
} from './modules/medication-safety/dose-limits.import.js';
import { ensureMedicationReference } from './modules/pharmacy/medication-reference.js';
import { importMedicationsFile, MedicationImportRefused } from './modules/pharmacy/medications.import.js';
import { BackupRefused, backup, restore } from './ops/backup.js';

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

const USAGE = `usage: node apps/server/dist/cli.js <command>

  migrate                          apply the database migrations
  migrate-files                    copy DATA_DIR/files into the database file store (FILE_STORE=database)
  backup <archive>                 write one archive with the database and every stored file
                                   (PostgreSQL: needs pg_dump; embedded: the server must be stopped)
  restore <archive>                restore an archive into an EMPTY database / DATA_DIR; jobs start held
  release-jobs                     let held background jobs run (after checking a restored installation)
  seed-demo                        seed the demo hospitals (empty database only)
  seed-scale --patients N | --beds N | --pharmacy | --records | --nurses N | --care | --billing N
             | --appointments | --reporting N      (benchmarks; never in production)
  import-icd10 <file>              import an ICD-10 catalogue (CSV or TSV)
  import-medications <file>        import a medication reference (CSV or TSV)
  import-dose-limits <HOSPITAL_CODE> <file>   a hospital's own dose limits (TSV, docs/medication-safety.md)
  mobile-money-secret <HOSPITAL_CODE> <operator>   store an operator's callback secret (MOBILE_MONEY_SECRET)
  --help                           this text

The database is the one DATABASE_URL names, else the embedded one in DATA_DIR (see README, configuration).`;

const COMMANDS = new Set([
  'migrate',
  'migrate-files',
  'backup',
  'restore',
  'release-jobs',
  'seed-demo',
  'seed-scale',
  'import-icd10',
  'import-medications',
  'import-dose-limits',
  'mobile-money-secret',
]);

async function main(command: string | undefined) {
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (!command || !COMMANDS.has(command)) {
    console.error(command ? `unknown command: ${command}\n\n${USAGE}` : USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  if (command === 'backup' || command === 'restore') {
    const archive = process.argv[3];
    if (!archive) throw new BackupRefused(`usage: cli.js ${command} <archive.tar>`);
    const path = resolve(process.env.INIT_CWD ?? process.cwd(), archive);
    if (command === 'backup') {
      const { manifest } = await backup(config, path);
      console.log(
        `Backup written to ${path}: the ${manifest.engine} database` +
          (manifest.file_store === 'database'
            ? ' with its stored files'
            : ` and ${manifest.files} stored files`) +
          ` (${manifest.created_at}).`,
      );
      return;
    }
    const report = await restore(config, path);
    console.log(
      `Restored the ${report.manifest.engine} database of ${report.manifest.created_at}` +
        (report.manifest.file_store === 'disk' ? ` and ${report.files} stored files (checked)` : '') +
        '.\nBackground jobs are HELD: no mail, no SMS, no reminder goes out. Check the installation, then run' +
        '\n  node apps/server/dist/cli.js release-jobs',
    );
    return;
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate({
      log: { warn: (m) => console.error(m), info: (m) => console.error(m) },
      lockTimeoutMs: config.migrationLockTimeoutMs,
    });
    if (command === 'release-jobs') {
      const held = await jobsHeld(database.db);
      await setJobsHeld(database.db, false, null);
      console.log(
        held
          ? 'Background jobs released: the workers run them again (within a poll, JOBS_POLL_MS).'
          : 'Background jobs were not held.',
      );
      return;
    }
    if (command === 'migrate-files') {
      const disk = new DiskStorage(join(config.dataDir, 'files'));
      console.log(`Copying the files of ${disk.root} into the database…`);
      const report = await migrateFilesToDatabase(disk, database.db);
      console.log(
        `${report.found} files found: ${report.copied} copied, ${report.present} already in the database, ` +
          `${report.refused.length} refused.`,
      );
      for (const r of report.refused) console.log(`  ${r.key}: ${r.reason}`);
      if (config.fileStore !== 'database')
        console.log(
          'FILE_STORE is not "database": set it (the default with DATABASE_URL) to read them there.',
        );
      else if (report.refused.length === 0)
        console.log(`Every file is in the database; ${disk.root} can go once a backup holds the database.`);
      if (report.refused.length > 0) process.exitCode = 1;
      return;
    }
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
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((err) => {
  if (err instanceof DataDirLocked || err instanceof MigrationLockTimeout) {
    console.error(err.message);
    process.exit(1);
  }
  if (
    err instanceof ConfigError ||
    err instanceof BackupRefused ||
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
