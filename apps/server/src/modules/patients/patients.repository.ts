import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients } from '../../db/schema/index.js';
import { ageOf, allergiesRecorded, iso, isoRequired, textArray } from '../../lib/clinical.js';
import { containsPattern } from '../../lib/queries.js';
import { visitDischargedAt } from '../hospitalizations/stay-orders.repository.js';
import {
  classifySearch,
  foldName,
  namePrefixes,
  normalizeRecordNumber,
  oneEditVariants,
  phrasesOf,
  spellingsNear,
  trigramOverlap,
} from './search-terms.js';

export type PatientRow = typeof patients.$inferSelect;
export type PatientInsert = typeof patients.$inferInsert;

/** Name as stored for search: the indexed expression of `patients_name_trgm_idx`. */
const NAME = sql.raw(`f_unaccent(lower(p.last_name || ' ' || p.first_name))`);

/** Search results stop being counted past this many matches (`count_capped`); pages go on via `next`. */
export const SEARCH_COUNT_CAP = 1000;
/** The unfiltered list counts exactly up to this many records. */
export const LIST_COUNT_CAP = 10_000;
/** Similarity threshold of duplicate detection. */
export const DUPLICATE_NAME_THRESHOLD = 0.5;

const SUMMARY_COLUMNS = sql.raw(`p.id, p.record_number, p.first_name, p.last_name, p.sex,
  p.birth_date::text as birth_date, p.birth_date_estimated, p.phone, p.national_id,
  array_to_json(p.allergies) as allergies, p.allergies_recorded, p.deceased_at, p.archived_at`);

export type SummaryRow = {
  id: string;
  record_number: string;
  first_name: string;
  last_name: string;
  sex: 'F' | 'M';
  birth_date: string | null;
  birth_date_estimated: boolean;
  phone: string | null;
  national_id: string | null;
  allergies: string[] | string;
  allergies_recorded: boolean;
  deceased_at: Date | string | null;
  archived_at: Date | string | null;
};

export function toSummary(r: SummaryRow) {
  return {
    id: r.id,
    record_number: r.record_number,
    first_name: r.first_name,
    last_name: r.last_name,
    full_name: `${r.first_name} ${r.last_name}`,
    sex: r.sex,
    birth_date: r.birth_date,
    birth_date_estimated: r.birth_date_estimated,
    age: ageOf(r.birth_date),
    phone: r.phone,
    national_id: r.national_id,
    allergies: textArray(r.allergies),
    allergies_recorded: allergiesRecorded(r.allergies_recorded, r.allergies),
    deceased_at: iso(r.deceased_at),
    is_archived: r.archived_at !== null,
  };
}

export function toPatient(r: PatientRow) {
  return {
    ...toSummary({
      id: r.id,
      record_number: r.recordNumber,
      first_name: r.firstName,
      last_name: r.lastName,
      sex: r.sex,
      birth_date: r.birthDate,
      birth_date_estimated: r.birthDateEstimated,
      phone: r.phone,
      national_id: r.nationalId,
      allergies: r.allergies,
      allergies_recorded: r.allergiesRecorded,
      deceased_at: r.deceasedAt,
      archived_at: r.archivedAt,
    }),
    email: r.email,
    preferred_language: (r.preferredLanguage === 'en' || r.preferredLanguage === 'fr'
      ? r.preferredLanguage
      : null) as 'fr' | 'en' | null,
    address: r.address,
    emergency_contact_name: r.emergencyContactName,
    emergency_contact_phone: r.emergencyContactPhone,
    blood_group: r.bloodGroup as never,
    insurance_provider: r.insuranceProvider,
    insurance_number: r.insuranceNumber,
    archived_at: iso(r.archivedAt),
    archived_reason: r.archivedReason,
    created_at: isoRequired(r.createdAt),
    updated_at: isoRequired(r.updatedAt),
  };
}

export async function insertPatient(q: Queryable, values: PatientInsert): Promise<PatientRow> {
  const [row] = await q.insert(patients).values(values).returning();
  return row!;
}

export async function findPatient(q: Queryable, hospitalId: string, id: string): Promise<PatientRow | null> {
  const [row] = await q
    .select()
    .from(patients)
    .where(and(eq(patients.hospitalId, hospitalId), eq(patients.id, id)));
  return row ?? null;
}

/** Whether a patient is the hospital's (the check of every reference to a patient sent by a client). */
export async function patientInHospital(
  q: Queryable,
  hospitalId: string,
  patientId: string,
): Promise<boolean> {
  const res = await q.execute(
    sql`select id from patients where id = ${patientId} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] !== undefined;
}

/**
 * Changes a record and bumps its version; with `expectedVersion`, only when the record is still at that version
 * (FHIR `If-Match`): null otherwise, decided by the database row itself, whatever runs beside it.
 */
export async function updatePatient(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<PatientInsert>,
  expectedVersion?: number,
): Promise<PatientRow | null> {
  const [row] = await q
    .update(patients)
    .set({ ...values, updatedAt: new Date(), version: sql`${patients.version} + 1` })
    .where(
      and(
        eq(patients.hospitalId, hospitalId),
        eq(patients.id, id),
        expectedVersion === undefined ? undefined : eq(patients.version, expectedVersion),
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * The name keys of the btree indexes `patients_name_last_first_idx` and `patients_name_first_last_idx`
 * (hospital, key, id): the unaccented lower-cased "last first" and "first last" names in the "C" collation
 * (byte order), so that every name starting with a prefix is one contiguous, ordered range of the index.
 */
const KEY_LAST_FIRST = sql.raw(`(f_unaccent(lower(p.last_name || ' ' || p.first_name)) collate "C")`);
const KEY_FIRST_LAST = sql.raw(`(f_unaccent(lower(p.first_name || ' ' || p.last_name)) collate "C")`);
/** In the "C" collation every string that starts with `t` lies in [t, t + U+10FFFF). */
const PREFIX_END = '\u{10FFFF}';

/**
 * Below this many name matches by prefix — less than a page — the names one typo away are added too (and the
 * trigram fallback when nobody at all matched): a common name's page is full of exact matches anyway.
 */
export const FUZZY_GATE = 20;
/** One-typo variants are tried for terms up to this length (about 12 variants per character). */
const MAX_VARIANT_TERM = 32;
/** At most this many one-typo spellings found in the index are used (the closest first). */
const MAX_VARIANTS = 8;

/** Tier 4 reads this many of a word's nearest dictionary words (trigram distance), then keeps the close ones. */
const DICTIONARY_CANDIDATES = 12;
/**
 * One tier of a search: its rows are disjoint from the earlier tiers' (`where` excludes them) and ordered
 * by `order` then id. The runner asks for counts and pages of rows tier by tier.
 */
interface Tier {
  where: SQL;
  order: SQL;
  /** Set when only the first `limit` candidates (in index order) take part (trigram fallback). */
  candidates?: number;
}

/**
 * A page of a hospital's patients, optionally searched. Results come in tiers, each ordered, each excluding the
 * rows of the earlier ones:
 *  1. exact record number or national id; then, for digits, phone numbers containing them (ending with them
 *     first);
 *  2. names starting with the term, "last first" (`Mbuyi`, `Mbuyi Grâce`, `Mbu`), then "first last"
 *     (`Grâce`, `Grâce Mbuyi`) — accents and case ignored; two btree range scans in index order, so a page
 *     costs the same at 10,000 or 1,000,000 patients;
 *  3. when those are fewer than FUZZY_GATE: names starting with a spelling one typo away that exists in the
 *     index (`Mbouyi` → `Mbuyi`, `Mbuyi` → `Mbouyi`, `Tchilombo` → `Tshilombo`);
 *  4. when none of the above found anyone: each word of the term looked up in the hospital's dictionary of name
 *     words (two typos, or most of its trigrams shared); the names starting with the phrases those words make,
 *     then the names holding the closest ones anywhere (a second first name), the closest first.
 * `count` is exact up to SEARCH_COUNT_CAP (then `capped`); pages go on while they are full.
 */
export async function searchPatients(
  q: Queryable,
  hospitalId: string,
  opts: { search?: string | undefined; archived: boolean; limit: number; offset: number },
): Promise<{ rows: SummaryRow[]; count: number; capped: boolean }> {
  const archived = opts.archived ? sql`p.archived_at is not null` : sql`p.archived_at is null`;
  const term = (opts.search ?? '').trim().replace(/\s+/g, ' ');
  if (!term) {
    const rows = await q.execute<SummaryRow>(sql`select ${SUMMARY_COLUMNS} from patients p
      where p.hospital_id = ${hospitalId} and ${archived}
      order by p.created_at desc, p.id desc limit ${opts.limit} offset ${opts.offset}`);
    const counted = await q.execute<{
      n: number;
    }>(sql`select count(*)::int as n from (select 1 from patients p
      where p.hospital_id = ${hospitalId} and ${archived} limit ${LIST_COUNT_CAP + 1}) t`);
    const n = Number(counted.rows[0]?.n ?? 0);
    return { rows: rows.rows, count: Math.min(n, LIST_COUNT_CAP), capped: n > LIST_COUNT_CAP };
  }

  const scope = sql`p.hospital_id = ${hospitalId} and ${archived}`;
  const done: SQL[] = []; // conditions of the earlier tiers that found rows: later tiers exclude those rows
  const result: SummaryRow[] = [];
  let total = 0;
  let skip = opts.offset;
  let want = opts.limit;

  /** Counts a tier (up to what the count and the page need) and takes its part of the page. */
  const run = async (tier: Tier) => {
    // `is not true`: a condition on a null column (no national id, no phone) excludes nothing.
    const where = sql`${scope} and (${tier.where})${done.length ? sql` and (${sql.join(done, sql` or `)}) is not true` : sql``}`;
    // The trigram candidates are read once (materialized); the index ranges are read twice, cheaply.
    const head = tier.candidates
      ? sql`with c as materialized (select p.* from patients p where ${where} limit ${tier.candidates}) `
      : sql``;
    const from = tier.candidates ? sql`c p` : sql`patients p where ${where}`;
    // The tier's count (as far as the count and the page need) and its part of the page, in one statement:
    // the page comes as JSON, aggregated from its sorted subquery (no join reorders it).
    const countLimit = Math.max(SEARCH_COUNT_CAP + 1 - total, skip + want, 1);
    const res = await q.execute<{ n: number; rows: SummaryRow[] | string | null }>(sql`${head}select
      (select count(*)::int from (select 1 from ${from} limit ${countLimit}) t) as n,
      ${want > 0 ? sql`(select json_agg(x) from (select ${SUMMARY_COLUMNS} from ${from} order by ${tier.order}, p.id limit ${want} offset ${skip}) x)` : sql`null`} as rows`);
    const n = Number(res.rows[0]?.n ?? 0);
    // Only a tier that found someone has rows to exclude from the next ones (the check costs per row).
    if (n > 0) done.push(tier.where);
    const raw = res.rows[0]?.rows ?? null;
    const page: SummaryRow[] = typeof raw === 'string' ? JSON.parse(raw) : (raw ?? []);
    result.push(...page);
    want -= page.length;
    skip = Math.max(0, skip - n);
    total += n;
  };
  const enough = () => want === 0 && total > SEARCH_COUNT_CAP;

  const { kinds, digits } = classifySearch(term);
  const exact: SQL[] = [];
  if (kinds.includes('national_id')) exact.push(sql`p.national_id = ${term.toUpperCase()}`);
  if (kinds.includes('record_number')) exact.push(sql`p.record_number = ${normalizeRecordNumber(term)}`);
  if (exact.length) await run({ where: sql.join(exact, sql` or `), order: sql`p.record_number` });
  if (!enough() && kinds.includes('phone')) {
    await run({
      where: sql`p.phone like ${`%${digits}%`}`,
      order: sql`(p.phone like ${`%${digits}`}) desc, p.last_name, p.first_name`,
      candidates: SEARCH_COUNT_CAP,
    });
  }
  // A term with digits is a name too ("Inconnu 2"), unless it found its record by number; its digits are never
  // misspelt letters, so the one-typo and trigram tiers are for terms of letters only.
  const numbered = digits.length > 0;
  if (kinds.includes('name') && !(numbered && total > 0)) {
    /** The prefixes as the name keys hold names. */
    const prefixes = namePrefixes(term).map((prefix) => sql`f_unaccent(lower(${prefix}))`);
    const startsWith = (key: SQL, prefix: string | SQL) =>
      typeof prefix === 'string'
        ? sql`(${key} >= ${prefix} and ${key} < ${prefix + PREFIX_END})`
        : sql`(${key} >= ${prefix} and ${key} < (${prefix} || ${PREFIX_END}))`;
    /** Names starting with any of the prefixes: one index range each. */
    const startsWithAny = (key: SQL) =>
      sql.join(
        prefixes.map((prefix) => startsWith(key, prefix)),
        sql` or `,
      );
    if (!enough()) await run({ where: startsWithAny(KEY_LAST_FIRST), order: KEY_LAST_FIRST });
    if (!enough()) await run({ where: startsWithAny(KEY_FIRST_LAST), order: KEY_FIRST_LAST });
    if (!enough() && !numbered && total < FUZZY_GATE && term.length <= MAX_VARIANT_TERM) {
      const base = foldName(term);
      const variants = oneEditVariants(base);
      // Which spellings exist, as a last-first and as a first-last name: only those tiers run (an empty one
      // still costs a statement, most of a search on the embedded engine). Kept in JS: filtered in SQL, the
      // planner would pull the subquery up and run each look-up twice (in the filter and in the output).
      const found = await q.execute<{
        v: string;
        lf: boolean;
        fl: boolean;
      }>(sql`select v,
          exists (select 1 from patients p where ${scope} and ${startsWith(KEY_LAST_FIRST, sql`v`)}) as lf,
          exists (select 1 from patients p where ${scope} and ${startsWith(KEY_FIRST_LAST, sql`v`)}) as fl
        from json_array_elements_text(${JSON.stringify(variants)}::json) v`);
      const spellings = found.rows
        .filter((r) => r.lf || r.fl)
        .sort((a, b) => trigramOverlap(b.v, base) - trigramOverlap(a.v, base) || (a.v < b.v ? -1 : 1))
        .slice(0, MAX_VARIANTS);
      for (const { v, lf, fl } of spellings) {
        if (lf && !enough()) await run({ where: startsWith(KEY_LAST_FIRST, v), order: KEY_LAST_FIRST });
        if (fl && !enough()) await run({ where: startsWith(KEY_FIRST_LAST, v), order: KEY_FIRST_LAST });
      }
    }
    if (total === 0 && !numbered) {
      // Tier 4: each word of the term looked up in the hospital's dictionary of name words (migration 0040),
      // the nearest by trigram distance from its GiST index, kept when close enough (spellingsNear); then the
      // names starting with those words, as tier 2 reads them, and at last the names holding them anywhere.
      const words = foldName(term)
        .split(/[\s'’-]+/)
        .filter((w) => w.length >= 2);
      const near = await q.execute<{ i: number; word: string }>(sql`select t.i::int as i, w.word
        from json_array_elements_text(${JSON.stringify(words)}::json) with ordinality as t(term, i)
        cross join lateral (select n.word from patient_name_words n where n.hospital_id = ${hospitalId}
          order by n.word <-> t.term limit ${DICTIONARY_CANDIDATES}) w`);
      const choices = words.map((w, i) =>
        spellingsNear(
          w,
          near.rows.filter((r) => Number(r.i) === i + 1).map((r) => r.word),
        ),
      );
      if (words.length > 0 && choices.every((c) => c.length > 0)) {
        const phrases = phrasesOf(choices);
        for (const phrase of phrases) {
          if (!enough()) await run({ where: startsWith(KEY_LAST_FIRST, phrase), order: KEY_LAST_FIRST });
          if (!enough()) await run({ where: startsWith(KEY_FIRST_LAST, phrase), order: KEY_FIRST_LAST });
        }
        // A word in the middle of a name (a second first name, the second word of a compound name): the names
        // holding every word of the closest phrase, found through the trigram index, the closest first.
        if (total === 0) {
          const best = choices.map((c) => c[0]!);
          await run({
            where: sql.join(
              best.map((w) => sql`${NAME} like ${containsPattern(w)}`),
              sql` and `,
            ),
            order: sql`word_similarity(${best.join(' ')}, ${NAME}) desc, p.last_name, p.first_name`,
            candidates: SEARCH_COUNT_CAP,
          });
        }
      }
    }
  }
  return { rows: result, count: Math.min(total, SEARCH_COUNT_CAP), capped: total > SEARCH_COUNT_CAP };
}

export type DuplicateRow = SummaryRow & {
  name_score: number;
  same_birth: boolean;
  same_phone: boolean;
  same_national_id: boolean;
};

/**
 * Probable duplicates among the hospital's active records: a similar name (trigram similarity on the
 * unaccented name, first and last name in any order) with the same birth date (the same year ± 1 when
 * either date is estimated) or the same phone; or the same national id whatever the name.
 */
export async function findDuplicates(
  q: Queryable,
  hospitalId: string,
  input: {
    firstName: string;
    lastName: string;
    birthDate: string | null;
    estimated: boolean;
    phone: string | null;
    nationalId: string | null;
  },
  excludeId?: string,
): Promise<DuplicateRow[]> {
  await q.execute(
    sql`select set_config('pg_trgm.similarity_threshold', ${String(DUPLICATE_NAME_THRESHOLD)}, true)`,
  );
  const name = sql`f_unaccent(lower(${`${input.lastName} ${input.firstName}`}))`;
  const year = input.birthDate ? Number(input.birthDate.slice(0, 4)) : null;
  const sameBirth = input.birthDate
    ? sql`(p.birth_date = ${input.birthDate}::date or ((p.birth_date_estimated or ${input.estimated})
        and extract(year from p.birth_date) between ${year! - 1} and ${year! + 1}))`
    : sql`false`;
  const samePhone = input.phone ? sql`coalesce(p.phone = ${input.phone}, false)` : sql`false`;
  const sameNid = input.nationalId ? sql`coalesce(p.national_id = ${input.nationalId}, false)` : sql`false`;
  const exclude = excludeId ? sql`and p.id <> ${excludeId}` : sql``;
  const res = await q.execute<DuplicateRow>(sql`select ${SUMMARY_COLUMNS},
      similarity(${NAME}, ${name})::float8 as name_score, ${sameBirth} as same_birth,
      ${samePhone} as same_phone, ${sameNid} as same_national_id
    from patients p
    where p.hospital_id = ${hospitalId} and p.archived_at is null ${exclude}
      and ((${NAME} % ${name} and (${sameBirth} or ${samePhone})) or ${sameNid})
    order by same_national_id desc, name_score desc, p.id
    limit 10`);
  return res.rows;
}

/**
 * How many visits the record page shows at first (issue 16): a bounded page whatever the length of the
 * history; the rest is paged through `GET /api/admissions/?patient=`.
 */
export const RECENT_ADMISSIONS = 5;

/**
 * How many visits a patient has: one row of `patient_visit_counts`, which a trigger on admissions keeps (migration
 * 0051), whatever the length of the history (issue 38: the count read the patient's every visit in the index).
 */
export async function countAdmissions(q: Queryable, patientId: string): Promise<number> {
  const res = await q.execute<{ n: number }>(
    sql`select visits as n from patient_visit_counts where patient_id = ${patientId}`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * The statement of `recentAdmissions`: its order is `admissions_patient_idx`'s, so the first `limit` entries of
 * the index are read, without a sort, whatever the length of the history (issue 38).
 */
export function recentAdmissionsQuery(hospitalId: string, patientId: string, limit = RECENT_ADMISSIONS) {
  return sql`select a.id, a.status, a.admission_type, a.reason, a.admitted_at, a.closed_at,
      ${visitDischargedAt('a')} as discharged_at, a.queue_number, d.id as department_id, d.name as department_name, a.triage_level
    from admissions a join departments d on d.id = a.department_id
    where a.hospital_id = ${hospitalId} and a.patient_id = ${patientId}
    order by a.admitted_at desc, a.id desc limit ${limit}`;
}

/** The latest admissions of a patient (detail page timeline), newest first, as the visits list orders them. */
export async function recentAdmissions(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  limit = RECENT_ADMISSIONS,
) {
  const res = await q.execute<{
    id: string;
    status: string;
    admission_type: string;
    reason: string;
    admitted_at: Date | string;
    closed_at: Date | string | null;
    discharged_at: Date | string | null;
    queue_number: number;
    department_id: string;
    department_name: string;
    triage_level: string | null;
  }>(recentAdmissionsQuery(hospitalId, patientId, limit));
  return res.rows.map((r) => ({
    id: r.id,
    status: r.status,
    admission_type: r.admission_type,
    reason: r.reason,
    admitted_at: isoRequired(r.admitted_at),
    closed_at: iso(r.closed_at),
    discharged_at: iso(r.discharged_at),
    queue_number: Number(r.queue_number),
    department: { id: r.department_id, name: r.department_name },
    triage_level: r.triage_level,
  }));
}
