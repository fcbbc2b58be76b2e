import type { TPresentation } from '@greensen/shared/contracts/pharmacy';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { textArray } from '../../lib/clinical.js';
import { containsPattern, sqlList } from '../../lib/queries.js';
import { fold } from './pharmacy.rules.js';

/**
 * The medication reference (issue 18): the medicines and their search (typo-tolerant, unaccented), their
 * presentations, and the facts of a presentation that prescribing, substitution and receipts check.
 */

export type MedicationDbRow = {
  id: string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  group_fr: string;
  group_en: string;
  brands: string[] | string;
  allergy_classes: string[] | string;
  essential: boolean;
};
const MEDICATION_COLUMNS = sql.raw(
  `m.id, m.inn_fr, m.inn_en, m.atc_code, m.group_fr, m.group_en, array_to_json(m.brands) as brands,
   array_to_json(m.allergy_classes) as allergy_classes, m.essential`,
);
const SEARCH_TEXT = sql.raw('f_unaccent(lower(m.search_text))');
/** Word similarity of a typo-tolerant match (`artemeter` → `artéméther`, `amoxiciline` → `amoxicilline`). */
export const MEDICATION_WORD_THRESHOLD = 0.45;

export interface MedicationFilters {
  search?: string | undefined;
  atc?: string | undefined;
  inStockAt?: string | undefined;
}

export function medicationSearchParts(hospitalId: string, f: MedicationFilters) {
  const where: SQL[] = [sql`m.is_active`];
  const order: SQL[] = [];
  let words = false;
  if (f.atc) where.push(sql`m.atc_code like ${`${f.atc.toUpperCase()}%`}`);
  if (f.inStockAt)
    where.push(sql`exists (select 1 from stock_items s join medication_presentations pr on pr.id = s.presentation_id
      where pr.medication_id = m.id and s.pharmacy_id = ${f.inStockAt} and s.hospital_id = ${hospitalId}
        and s.on_hand > 0)`);
  const term = f.search?.trim();
  if (term) {
    const folded = fold(term);
    // The ATC code and the brands are in the searched text: a typed code is found by the substring arm.
    const arms: SQL[] = [sql`${SEARCH_TEXT} like ${containsPattern(folded)}`];
    if (folded.length >= 3) {
      arms.push(sql`${SEARCH_TEXT} %> ${folded}`);
      words = true;
    }
    where.push(sql`(${sql.join(arms, sql` or `)})`);
    const innStarts = sql`(f_unaccent(lower(m.inn_fr)) like ${`${folded}%`} or f_unaccent(lower(m.inn_en)) like ${`${folded}%`})`;
    order.push(
      sql`(m.atc_code = ${term.toUpperCase()}) desc nulls last`,
      sql`${innStarts} desc`,
      sql`word_similarity(${folded}, ${SEARCH_TEXT}) desc`,
    );
  }
  order.push(sql`m.inn_fr`, sql`m.id`);
  return { where: sql.join(where, sql` and `), order: sql.join(order, sql`, `), words };
}

/**
 * Sets, for the current transaction, the word-similarity threshold of `%>` and steers the planner to the trigram
 * index (as the ICD-10 search does): a sequential scan evaluates the unaccented text of every medicine.
 */
export async function setMedicationSearch(q: Queryable) {
  await q.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(MEDICATION_WORD_THRESHOLD)}, true),
    set_config('enable_seqscan', 'off', true)`);
}

/** One page of the search and the number of matches, in one statement (run it in a transaction). */
export async function searchMedications(
  q: Queryable,
  hospitalId: string,
  f: MedicationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: MedicationDbRow[]; count: number }> {
  const { where, order, words } = medicationSearchParts(hospitalId, f);
  if (words) await setMedicationSearch(q);
  const rows = await q.execute<MedicationDbRow & { total: number }>(
    sql`select ${MEDICATION_COLUMNS}, count(*) over () as total from medications m where ${where}
      order by ${order} limit ${limit} offset ${offset}`,
  );
  if (rows.rows.length || offset === 0) return { rows: rows.rows, count: Number(rows.rows[0]?.total ?? 0) };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from medications m where ${where}`,
  );
  return { rows: [], count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findMedication(q: Queryable, id: string): Promise<MedicationDbRow | null> {
  const res = await q.execute<MedicationDbRow>(
    sql`select ${MEDICATION_COLUMNS} from medications m where m.id = ${id}`,
  );
  return res.rows[0] ?? null;
}

export type PresentationDbRow = {
  id: string;
  medication_id: string;
  form: TPresentation['form'];
  strength: string;
  route: TPresentation['route'];
  unit: string;
  paediatric: boolean;
  is_active: boolean;
};
export const PRESENTATION_COLUMNS = sql.raw(
  'pr.id, pr.medication_id, pr.form, pr.strength, pr.route, pr.unit, pr.paediatric, pr.is_active',
);

export async function presentationsOf(
  q: Queryable,
  medicationIds: readonly string[],
  activeOnly = true,
): Promise<Map<string, TPresentation[]>> {
  const out = new Map<string, TPresentation[]>();
  if (!medicationIds.length) return out;
  const res = await q.execute<PresentationDbRow>(sql`select ${PRESENTATION_COLUMNS}
    from medication_presentations pr where pr.medication_id in (${sqlList(medicationIds)})
    ${activeOnly ? sql`and pr.is_active` : sql``} order by pr.sort_order, pr.id`);
  for (const r of res.rows) {
    const list = out.get(r.medication_id) ?? [];
    list.push(toPresentation(r));
    out.set(r.medication_id, list);
  }
  return out;
}

export const toPresentation = (r: PresentationDbRow): TPresentation => ({
  id: r.id,
  form: r.form,
  strength: r.strength,
  route: r.route,
  unit: r.unit,
  paediatric: r.paediatric,
  is_active: r.is_active,
});

export const toMedication = (r: MedicationDbRow, presentations: TPresentation[]) => ({
  id: r.id,
  inn_fr: r.inn_fr,
  inn_en: r.inn_en,
  atc_code: r.atc_code,
  group_fr: r.group_fr,
  group_en: r.group_en,
  brands: textArray(r.brands),
  allergy_classes: textArray(r.allergy_classes),
  essential: r.essential,
  presentations,
});

/** A presentation with its medicine: what prescribing, substitution and receipts check. */
export type PresentationFacts = PresentationDbRow & {
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  allergy_classes: string[] | string;
};
export async function presentationFacts(
  q: Queryable,
  ids: readonly string[],
): Promise<Map<string, PresentationFacts>> {
  if (!ids.length) return new Map();
  const res = await q.execute<PresentationFacts>(sql`select ${PRESENTATION_COLUMNS}, m.inn_fr, m.inn_en,
      m.atc_code, array_to_json(m.allergy_classes) as allergy_classes
    from medication_presentations pr join medications m on m.id = pr.medication_id
    where pr.id in (${sqlList([...new Set(ids)])})`);
  return new Map(res.rows.map((r) => [r.id, r]));
}
