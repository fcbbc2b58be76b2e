import { type Icd10Kind, normalizeIcd10Code } from '@greensen/shared/contracts/icd10';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { CHAPTER_ORDER } from './icd10.catalogue.js';

export type Icd10DbRow = {
  code: string;
  kind: Icd10Kind;
  parent_code: string | null;
  chapter: string | null;
  label_fr: string;
  label_en: string;
  common: boolean;
  imported: boolean;
};

const COLUMNS = sql.raw(
  'c.code, c.kind, c.parent_code, c.chapter, c.label_fr, c.label_en, c.common, c.imported',
);
/** The indexed search text (trigram GIN index `icd10_search_trgm_idx`, migration 0006): same expression. */
const SEARCH_TEXT = sql.raw(`f_unaccent(lower(c.code || ' ' || c.label_fr || ' ' || c.label_en))`);
/**
 * Word-similarity threshold of a match (`%>`, served by the trigram index): typos pass (`paludsime` →
 * `paludisme` 0.5, `hypertention` → `hypertension` 0.63, `drepanocitose` → `drépanocytaire` 0.57). Matches are
 * ranked by strict word similarity (whole words) in tiers — strong ≥ 0.75, good ≥ 0.5, loose — and within a tier
 * common codes come first, so that a loose match (`malaria` ~ `maladie`) never outranks a real one.
 */
export const WORD_THRESHOLD = 0.5;
const STRONG = 0.75;
const GOOD = 0.5;
const CHAPTERS = sql.raw(`array[${CHAPTER_ORDER.map((c) => `'${c}'`).join(',')}]::text[]`);

/** A typed code or code prefix: `B50`, `b50.9`, `B509`, `O8`, `A00-A09`. */
const CODE_LIKE = /^[A-Za-z][0-9]{1,2}(\.?[0-9A-Za-z]{1,2}|\.)?$/;
const BLOCK_LIKE = /^[A-Za-z][0-9]{2}-[A-Za-z][0-9]{2}$/;

/** Lower case, no accents, single spaces. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s’']+/g, ' ')
    .trim();

/**
 * Words clinicians type that the classification's labels do not use: the search also looks for the labels'
 * wording (`drépanocytose` → `hématies falciformes`, `HTA` → `hypertension`, `snake bite` → `snake venom`).
 */
const SYNONYMS: readonly [RegExp, string][] = [
  [/\bdrepanocyto\w*/, 'hematies falciformes'],
  [/\bdrepano\b/, 'hematies falciformes'],
  [/\bsickle cell disease\b/, 'sickle-cell'],
  [/\bpalu\b/, 'paludisme'],
  [/\bsida\b/, 'vih'],
  [/\baids\b/, 'hiv'],
  [/\bhta\b/, 'hypertension'],
  [/\bavc\b/, 'accident vasculaire cerebral'],
  [/\bavc\b/, 'infarctus cerebral'],
  [/\bavc\b/, 'hemorragie intracerebrale'],
  [/\bbpco\b/, 'maladie pulmonaire obstructive chronique'],
  [/\bcopd\b/, 'chronic obstructive pulmonary disease'],
  [/\bira\b/, 'insuffisance renale aigue'],
  [/\bira\b/, 'infections aigues des voies respiratoires'],
  [/\birc\b/, 'maladie renale chronique'],
  [/\bdeshydratation\b/, 'hypovolemie'],
  [/\btb\b/, 'tuberculose'],
  [/\bmorsure de serpent\b/, 'venin de serpent'],
  [/\bsnake ?bite\b/, 'snake venom'],
  [/\bpaludisme (grave|severe|complique)\b/, 'compliquees paludisme'],
  [/\bsevere malaria\b/, 'severe complicated falciparum malaria'],
  [/\bmalnutrition aigue severe\b/, 'malnutrition proteino-energetique grave'],
  [/\bsepticemie\b/, 'sepsis'],
  [/\bpre-? ?eclampsie\b/, 'preeclampsie'],
  [/\bgastro\b/, 'gastro-enterite'],
  [/\binfection urinaire\b/, 'infection des voies urinaires'],
  [/\buti\b/, 'urinary tract infection'],
];

export interface SearchFilters {
  kind?: Icd10Kind | undefined;
  common?: boolean | undefined;
}

function filterSql(f: SearchFilters): SQL[] {
  const out: SQL[] = [];
  if (f.kind) out.push(sql`c.kind = ${f.kind}`);
  if (f.common !== undefined) out.push(sql`c.common = ${f.common}`);
  return out;
}

/** The WHERE and ORDER BY of a search (exported so that tests can EXPLAIN it). */
export function searchParts(
  term: string,
  filters: SearchFilters,
): { where: SQL; order: SQL; words: boolean } {
  const trimmed = term.trim();
  const exactCode = BLOCK_LIKE.test(trimmed) ? trimmed.toUpperCase() : normalizeIcd10Code(trimmed);
  const arms: SQL[] = [sql`c.code = ${exactCode}`];
  const order: SQL[] = [sql`(c.code = ${exactCode}) desc`];
  const words = !CODE_LIKE.test(trimmed);
  if (!words) {
    // The search text starts with the code: a prefix LIKE on it is served by the trigram index.
    const prefix = sql`${SEARCH_TEXT} like ${`${exactCode.toLowerCase()}%`}`;
    arms.push(prefix);
    order.push(sql`(${prefix}) desc`, sql`c.common desc`);
  } else {
    const folded = fold(trimmed);
    const terms = [folded];
    for (const [re, replacement] of SYNONYMS) {
      if (re.test(folded)) terms.push(folded.replace(re, replacement));
    }
    for (const t of terms) arms.push(sql`${SEARCH_TEXT} %> ${t}`);
    const scores = terms.map((t) => sql`strict_word_similarity(${t}, ${SEARCH_TEXT})`);
    const score = scores.length === 1 ? scores[0]! : sql`greatest(${sql.join(scores, sql`, `)})`;
    const tier = sql`case when ${score} >= ${STRONG} then 0 when ${score} >= ${GOOD} then 1 else 2 end`;
    order.push(tier, sql`c.common desc`, sql`${score} desc`);
  }
  order.push(sql`length(c.code)`, sql`c.code collate "C"`);
  const where = sql.join([sql`(${sql.join(arms, sql` or `)})`, ...filterSql(filters)], sql` and `);
  return { where, order: sql.join(order, sql`, `), words };
}

/**
 * Sets, for the current transaction, the word-similarity threshold of `%>` and steers the planner to the
 * trigram index: on a small catalogue its estimates favour a sequential scan that evaluates the unaccented
 * text of every row (measured on PGlite with 2,221 rows: 45–55 ms by sequential scan, 4–10 ms by the index).
 */
export async function setWordThreshold(q: Queryable) {
  await q.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(WORD_THRESHOLD)}, true),
    set_config('enable_seqscan', 'off', true)`);
}

/**
 * Searches the catalogue by code prefix or by words (French or English, accents, case and typos ignored),
 * ordered exact code, code prefix, common codes, then similarity. Every arm uses an index (the primary key or
 * the trigram GIN index). Run it in a transaction: the similarity threshold is set with `set_config(…, true)`.
 */
export async function searchIcd10(
  q: Queryable,
  term: string,
  filters: SearchFilters,
  limit: number,
  offset: number,
): Promise<{ rows: Icd10DbRow[]; count: number }> {
  const { where, order, words } = searchParts(term, filters);
  if (words) await setWordThreshold(q);
  const rows = await q.execute<Icd10DbRow>(sql`select ${COLUMNS} from icd10_codes c where ${where}
    order by ${order} limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from icd10_codes c where ${where}`,
  );
  return { rows: rows.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * Browsing: the children of `parent` in code order, or (no parent) the chapters in their order — or, with a
 * `kind` filter and no parent, every entry of that kind in code order.
 */
export async function browseIcd10(
  q: Queryable,
  parent: string | undefined,
  filters: SearchFilters,
  limit: number,
  offset: number,
): Promise<{ rows: Icd10DbRow[]; count: number }> {
  const conds = filterSql(filters);
  if (parent) conds.unshift(sql`c.parent_code = ${parent}`);
  else if (!filters.kind) conds.unshift(sql`c.kind = 'chapter'`);
  const where = conds.length ? sql.join(conds, sql` and `) : sql`true`;
  const order = parent || filters.kind ? sql`` : sql`array_position(${CHAPTERS}, c.code),`;
  const rows = await q.execute<Icd10DbRow>(sql`select ${COLUMNS} from icd10_codes c where ${where}
    order by ${order} c.code collate "C" limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from icd10_codes c where ${where}`,
  );
  return { rows: rows.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/** One entry with its ancestors (chapter first) and its children (code order); null when unknown. */
export async function findIcd10(
  q: Queryable,
  code: string,
): Promise<{ entry: Icd10DbRow; parents: Icd10DbRow[]; children: Icd10DbRow[] } | null> {
  const chain = await q.execute<Icd10DbRow & { depth: number }>(sql`
    with recursive up as (
      select ${COLUMNS}, 0 as depth from icd10_codes c where c.code = ${code}
      union all
      select ${COLUMNS}, up.depth + 1 from icd10_codes c join up on c.code = up.parent_code
      where up.depth < 5
    )
    select * from up order by depth desc`);
  const entry = chain.rows.at(-1);
  if (entry?.depth !== 0) return null;
  const children = await q.execute<Icd10DbRow>(
    sql`select ${COLUMNS} from icd10_codes c where c.parent_code = ${code} order by c.code collate "C"`,
  );
  return { entry, parents: chain.rows.slice(0, -1), children: children.rows };
}
