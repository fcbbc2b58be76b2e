import type { Config } from '../../config.js';
import { ensureIcd10Catalogue } from '../../modules/icd10/icd10.catalogue.js';
import type { Database } from '../client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, databaseIsEmpty, type SeedSummary, seedDemo } from './demo.js';

export class SeedRefused extends Error {}

/** Seeds the demo on an empty database, never in production. */
export async function seedDemoIfAllowed(database: Database, config: Config): Promise<SeedSummary | null> {
  if (config.appEnv === 'production') throw new SeedRefused('The demo seed never runs in production mode.');
  // The demo's diagnoses reference the catalogue: make sure it is there (a quick no-op once loaded).
  await ensureIcd10Catalogue(database.db);
  if (!(await databaseIsEmpty(database.db))) return null;
  return seedDemo(database.db);
}

export function demoAccountsBanner(): string {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length));
  const lines = DEMO_ACCOUNTS.map(
    (a) => `  ${a.email.padEnd(width)}  ${a.role.padEnd(13)}  ${a.at.map((m) => m.hospital).join(', ')}`,
  );
  return [`Demo accounts (password: ${DEMO_PASSWORD}):`, ...lines].join('\n');
}
