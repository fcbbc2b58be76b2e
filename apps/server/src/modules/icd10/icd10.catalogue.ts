// SQL outside a repository: the start-up loader of the shipped ICD-10 catalogue (its upsert is the load).
/**
 * The ICD-10 / CIM-10 catalogue shipped with the product (`data/icd10.tsv`): chapters, blocks and the
 * categories and codes common in our hospitals, in French and English. `ensureIcd10Catalogue` loads it on
 * every start (any database, production included): an idempotent batched upsert, skipped after one query when
 * the stored content hash matches the file.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICD10_KINDS, type Icd10Kind } from '@greensen/shared/contracts/icd10';
import { sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.js';
import { icd10Codes } from '../../db/schema/index.js';
import { shippedFileHash } from '../../lib/shipped-file.js';
import { readSetting, writeSetting } from '../system/settings.repository.js';

// The data sits beside this module's source; the path works from src/ and from dist/ (same depth), like the
// common-passwords list of the auth module.
export const ICD10_TSV_PATH = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../src/modules/icd10/data/icd10.tsv',
);

/** app_settings key holding the hash of the loaded shipped file. Bump LOADER_VERSION to force a reload. */
export const ICD10_HASH_SETTING = 'icd10.catalogue_sha256';
const LOADER_VERSION = '1';
const BATCH = 500;
/** Serializes concurrent loads (several instances starting together). */
const LOAD_LOCK_ID = 7_261_338;

export interface Icd10Row {
  code: string;
  kind: Icd10Kind;
  parentCode: string | null;
  chapter: string | null;
  labelFr: string;
  labelEn: string;
  common: boolean;
}

/** The chapters of ICD-10 (WHO 2019) and the range of three-character codes each covers. */
export const CHAPTER_RANGES: readonly { chapter: string; from: string; to: string }[] = [
  { chapter: 'I', from: 'A00', to: 'B99' },
  { chapter: 'II', from: 'C00', to: 'D48' },
  { chapter: 'III', from: 'D50', to: 'D89' },
  { chapter: 'IV', from: 'E00', to: 'E90' },
  { chapter: 'V', from: 'F00', to: 'F99' },
  { chapter: 'VI', from: 'G00', to: 'G99' },
  { chapter: 'VII', from: 'H00', to: 'H59' },
  { chapter: 'VIII', from: 'H60', to: 'H95' },
  { chapter: 'IX', from: 'I00', to: 'I99' },
  { chapter: 'X', from: 'J00', to: 'J99' },
  { chapter: 'XI', from: 'K00', to: 'K93' },
  { chapter: 'XII', from: 'L00', to: 'L99' },
  { chapter: 'XIII', from: 'M00', to: 'M99' },
  { chapter: 'XIV', from: 'N00', to: 'N99' },
  { chapter: 'XV', from: 'O00', to: 'O99' },
  { chapter: 'XVI', from: 'P00', to: 'P96' },
  { chapter: 'XVII', from: 'Q00', to: 'Q99' },
  { chapter: 'XVIII', from: 'R00', to: 'R99' },
  { chapter: 'XIX', from: 'S00', to: 'T98' },
  { chapter: 'XX', from: 'V01', to: 'Y98' },
  { chapter: 'XXI', from: 'Z00', to: 'Z99' },
  { chapter: 'XXII', from: 'U00', to: 'U99' },
];

/** Roman numerals of the chapters in order (for browsing). */
export const CHAPTER_ORDER = CHAPTER_RANGES.map((c) => c.chapter);

/** The chapter whose range holds a three-character code (or a block's first code). */
export function chapterOf(code: string): string | null {
  const three = code.slice(0, 3);
  return CHAPTER_RANGES.find((c) => c.from <= three && three <= c.to)?.chapter ?? null;
}

/** The block (`A00-A09`) whose range holds a category, among the given blocks. */
export function blockOf(category: string, blocks: Iterable<string>): string | null {
  const three = category.slice(0, 3);
  for (const b of blocks) {
    const [from, to] = b.split('-');
    if (from && to && from <= three && three <= to) return b;
  }
  return null;
}

let shipped: { rows: Icd10Row[]; hash: string } | undefined;

/** Parses the shipped TSV (header line; kind, code, parent_code, chapter, common, label_fr, label_en). */
export function parseShippedTsv(text: string): Icd10Row[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.split('\t') ?? [];
  const expected = ['kind', 'code', 'parent_code', 'chapter', 'common', 'label_fr', 'label_en'];
  if (header.join('\t') !== expected.join('\t'))
    throw new Error(`icd10.tsv: unexpected header ${JSON.stringify(header)}`);
  const rows: Icd10Row[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const [kind, code, parent, chapter, common, fr, en] = line.split('\t');
    if (!ICD10_KINDS.includes(kind as Icd10Kind) || !code || !fr || !en)
      throw new Error(`icd10.tsv line ${i + 1}: malformed`);
    rows.push({
      code,
      kind: kind as Icd10Kind,
      parentCode: parent || null,
      chapter: chapter || null,
      common: common === '1',
      labelFr: fr,
      labelEn: en,
    });
  }
  return rows;
}

/** The shipped file's hash alone, without parsing it (lib/shipped-file.ts). */
export function shippedCatalogueHash(): string {
  return shippedFileHash(ICD10_TSV_PATH, LOADER_VERSION);
}

/** The shipped catalogue, read once per process. */
export function shippedCatalogue(): { rows: Icd10Row[]; hash: string } {
  shipped ??= { rows: parseShippedTsv(readFileSync(ICD10_TSV_PATH, 'utf8')), hash: shippedCatalogueHash() };
  return shipped;
}

/**
 * Inserts or updates rows in batches (multi-row `insert … on conflict (code) do update`). `imported` is
 * written as given: the shipped rows clear it, the import sets it on new codes only.
 */
export async function upsertIcd10Rows(q: Queryable, rows: (Icd10Row & { imported: boolean })[]) {
  for (let i = 0; i < rows.length; i += BATCH) {
    await q
      .insert(icd10Codes)
      .values(rows.slice(i, i + BATCH))
      .onConflictDoUpdate({
        target: icd10Codes.code,
        set: {
          kind: sql`excluded.kind`,
          parentCode: sql`excluded.parent_code`,
          chapter: sql`excluded.chapter`,
          labelFr: sql`excluded.label_fr`,
          labelEn: sql`excluded.label_en`,
          common: sql`excluded.common`,
          imported: sql`excluded.imported`,
        },
      });
  }
}

export interface CatalogueLoad {
  loaded: boolean;
  rows: number;
  ms: number;
}

/**
 * Makes sure the shipped catalogue is in the database. Skipped (one query) when the stored hash matches the
 * file; otherwise upserts every row and stores the hash, in one transaction under an advisory lock.
 */
export async function ensureIcd10Catalogue(db: Db): Promise<CatalogueLoad> {
  const started = Date.now();
  const hash = shippedCatalogueHash();
  if ((await readSetting(db, ICD10_HASH_SETTING)) === hash)
    return { loaded: false, rows: 0, ms: Date.now() - started };
  const { rows } = shippedCatalogue();
  const loaded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOAD_LOCK_ID})`);
    if ((await readSetting(tx, ICD10_HASH_SETTING)) === hash) return false;
    await upsertIcd10Rows(
      tx,
      rows.map((r) => ({ ...r, imported: false })),
    );
    await writeSetting(tx, ICD10_HASH_SETTING, hash, null);
    return true;
  });
  return { loaded, rows: loaded ? rows.length : 0, ms: Date.now() - started };
}
