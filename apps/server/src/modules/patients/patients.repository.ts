import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patients } from '../../db/schema/index.js';
import { ageOf, iso, isoRequired, textArray } from '../../lib/clinical.js';

export type PatientRow = typeof patients.$inferSelect;
export type PatientInsert = typeof patients.$inferInsert;

/** Name as stored for search: the indexed expression of `patients_name_trgm_idx`. */
const NAME = sql.raw(`f_unaccent(lower(p.last_name || ' ' || p.first_name))`);

/** Search results stop being counted past this many matches (`count_capped`); pages go on via `next`. */
export const SEARCH_COUNT_CAP = 1000;
/** The unfiltered list counts exactly up to this many records. */
export const LIST_COUNT_CAP = 10_000;
/** Word-similarity threshold of name search: `Mbouyi` → `Mbuyi` is 0.57. */
export const NAME_SEARCH_THRESHOLD = 0.4;
/** Similarity threshold of duplicate detection. */
export const DUPLICATE_NAME_THRESHOLD = 0.5;

const SUMMARY_COLUMNS = sql.raw(`p.id, p.record_number, p.first_name, p.last_name, p.sex,
  p.birth_date::text as birth_date, p.birth_date_estimated, p.phone, p.national_id,
  array_to_json(p.allergies) as allergies, p.archived_at`);

export interface SummaryRow {
  [column: string]: unknown;
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
  archived_at: Date | string | null;
}

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
      archived_at: r.archivedAt,
    }),
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

export async function updatePatient(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<PatientInsert>,
): Promise<PatientRow | null> {
  const [row] = await q
    .update(patients)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(patients.hospitalId, hospitalId), eq(patients.id, id)))
    .returning();
  return row ?? null;
}

export type SearchKind = 'record_number' | 'phone' | 'national_id' | 'name';

/** What a search term can be: a record number, a phone number, a national id and/or a name. */
export function classifySearch(term: string): { kinds: SearchKind[]; digits: string } {
  const digits = term.replace(/[^0-9]/g, '');
  const kinds: SearchKind[] = ['national_id'];
  if (/^[A-Za-z]{2,10}-?\d{1,9}$/.test(term)) kinds.push('record_number');
  if (/^\+?[0-9 .-]+$/.test(term) && digits.length >= 4) kinds.push('phone');
  if (/\p{L}/u.test(term)) kinds.push('name');
  return { kinds, digits };
}

/** `HGG123`, `hgg-123` and `HGG-000123` all mean `HGG-000123`. */
export function normalizeRecordNumber(term: string): string {
  const m = /^([A-Za-z]{2,10})-?(\d{1,9})$/.exec(term.trim());
  if (!m) return term.toUpperCase();
  return `${m[1]!.toUpperCase()}-${m[2]!.padStart(6, '0')}`;
}

/**
 * A page of a hospital's patients, optionally searched. Name matching uses the trigram GIN index on the
 * unaccented name (`%>` = word similarity above the transaction's threshold), ordered by similarity; exact
 * record-number, national-id and phone matches come first. Run it in a transaction: the threshold is set
 * with `set_config(…, true)`.
 */
export async function searchPatients(
  q: Queryable,
  hospitalId: string,
  opts: { search?: string | undefined; archived: boolean; limit: number; offset: number },
): Promise<{ rows: SummaryRow[]; count: number; capped: boolean }> {
  const archived = opts.archived ? sql`p.archived_at is not null` : sql`p.archived_at is null`;
  const term = opts.search?.trim() ?? '';
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
  const { kinds, digits } = classifySearch(term);
  const arms: SQL[] = [];
  const exact: SQL[] = [];
  if (kinds.includes('national_id')) {
    arms.push(sql`p.national_id = ${term.toUpperCase()}`);
    exact.push(sql`p.national_id = ${term.toUpperCase()}`);
  }
  if (kinds.includes('record_number')) {
    const rn = normalizeRecordNumber(term);
    arms.push(sql`p.record_number = ${rn}`);
    exact.push(sql`p.record_number = ${rn}`);
  }
  if (kinds.includes('phone')) {
    arms.push(sql`p.phone like ${`%${digits}%`}`);
    exact.push(sql`p.phone like ${`%${digits}`}`);
  }
  let score: SQL | null = null;
  if (kinds.includes('name')) {
    await q.execute(
      sql`select set_config('pg_trgm.word_similarity_threshold', ${String(NAME_SEARCH_THRESHOLD)}, true)`,
    );
    arms.push(sql`${NAME} %> f_unaccent(lower(${term}))`);
    score = sql`word_similarity(f_unaccent(lower(${term})), ${NAME})`;
  }
  const where = sql`p.hospital_id = ${hospitalId} and ${archived} and (${sql.join(arms, sql` or `)})`;
  const exactFirst = exact.length ? sql`(${sql.join(exact, sql` or `)}) desc,` : sql``;
  const rows = await q.execute<SummaryRow>(sql`select ${SUMMARY_COLUMNS} from patients p where ${where}
    order by ${exactFirst} ${score ? sql`${score} desc,` : sql``} p.last_name, p.first_name, p.id
    limit ${opts.limit} offset ${opts.offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from patients p where ${where} limit ${SEARCH_COUNT_CAP + 1}) t`,
  );
  const n = Number(counted.rows[0]?.n ?? 0);
  return { rows: rows.rows, count: Math.min(n, SEARCH_COUNT_CAP), capped: n > SEARCH_COUNT_CAP };
}

export interface DuplicateRow extends SummaryRow {
  name_score: number;
  same_birth: boolean;
  same_phone: boolean;
  same_national_id: boolean;
}

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

/** The latest admissions of a patient (detail page timeline). */
export async function recentAdmissions(q: Queryable, hospitalId: string, patientId: string, limit = 20) {
  const res = await q.execute<{
    id: string;
    status: string;
    admission_type: string;
    reason: string;
    admitted_at: Date | string;
    closed_at: Date | string | null;
    queue_number: number;
    department_id: string;
    department_name: string;
    triage_level: string | null;
  }>(sql`select a.id, a.status, a.admission_type, a.reason, a.admitted_at, a.closed_at, a.queue_number,
      d.id as department_id, d.name as department_name, a.triage_level
    from admissions a join departments d on d.id = a.department_id
    where a.hospital_id = ${hospitalId} and a.patient_id = ${patientId}
    order by a.admitted_at desc limit ${limit}`);
  return res.rows.map((r) => ({
    id: r.id,
    status: r.status,
    admission_type: r.admission_type,
    reason: r.reason,
    admitted_at: isoRequired(r.admitted_at),
    closed_at: iso(r.closed_at),
    queue_number: Number(r.queue_number),
    department: { id: r.department_id, name: r.department_name },
    triage_level: r.triage_level,
  }));
}
