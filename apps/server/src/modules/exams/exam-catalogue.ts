// SQL outside a repository: the start-up loader of the shipped exam catalogue (its upsert is the load).
import { createHash } from 'node:crypto';
import { notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { examCatalogue } from '../../db/schema/index.js';
import { readSetting, writeSetting } from '../system/settings.repository.js';
import { EXAM_CATALOGUE } from './exam-catalogue.data.js';

/** app_settings key holding the hash of the catalogue last loaded. */
export const CATALOGUE_HASH_KEY = 'exam_catalogue_hash';

export function catalogueHash(entries = EXAM_CATALOGUE): string {
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/**
 * Loads the shipped exam catalogue (every start, production included): one batched upsert on `code`, exams no
 * longer shipped are deactivated (orders keep pointing at them). Skips at once when the shipped data has not
 * changed since the last load (its hash is kept in app_settings). Returns whether it wrote anything.
 */
export async function ensureExamCatalogue(db: Queryable, entries = EXAM_CATALOGUE): Promise<boolean> {
  const hash = catalogueHash(entries);
  if ((await readSetting(db, CATALOGUE_HASH_KEY)) === hash) return false;
  const rows = entries.map((e, i) => ({
    code: e.code,
    kind: e.kind,
    category: e.category,
    nameFr: e.name_fr,
    nameEn: e.name_en,
    specimen: e.specimen,
    loinc: e.loinc ?? null,
    fields: e.fields,
    active: true,
    sortOrder: i + 1,
  }));
  const write = async (tx: Queryable) => {
    await tx
      .insert(examCatalogue)
      .values(rows)
      .onConflictDoUpdate({
        target: examCatalogue.code,
        set: {
          kind: sql`excluded.kind`,
          category: sql`excluded.category`,
          nameFr: sql`excluded.name_fr`,
          nameEn: sql`excluded.name_en`,
          specimen: sql`excluded.specimen`,
          loinc: sql`excluded.loinc`,
          fields: sql`excluded.fields`,
          active: sql`excluded.active`,
          sortOrder: sql`excluded.sort_order`,
        },
      });
    await tx
      .update(examCatalogue)
      .set({ active: false })
      .where(
        notInArray(
          examCatalogue.code,
          entries.map((e) => e.code),
        ),
      );
    await writeSetting(tx, CATALOGUE_HASH_KEY, hash, null);
  };
  // One transaction (a savepoint inside a caller's transaction, e.g. the demo seed).
  await db.transaction(write);
  return true;
}
