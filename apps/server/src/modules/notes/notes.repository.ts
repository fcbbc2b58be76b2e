import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { notes } from '../../db/schema/index.js';
import { PATIENT_REF_COLUMNS, type PatientRefRow } from '../../lib/clinical.js';
import { containsPattern } from '../../lib/queries.js';

type NoteOwnRow = {
  id: string;
  author_id: string;
  author_first: string;
  author_last: string;
  title: string;
  body: string;
  tags: string[] | string;
  pinned: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};

/**
 * A note with its author's name: a patient note with its patient's reference columns, or a personal note, whose
 * patient columns (left join) are all null.
 */
export type NoteRow = NoteOwnRow &
  (
    | ({ patient_id: string } & PatientRefRow)
    | ({ patient_id: null } & { [column in keyof PatientRefRow]: null })
  );

const SELECT = sql`select n.id, n.patient_id, n.author_id, u.first_name as author_first, u.last_name as author_last,
    n.title, n.body, array_to_json(n.tags) as tags, n.pinned, n.created_at, n.updated_at, ${PATIENT_REF_COLUMNS}
  from notes n join users u on u.id = n.author_id left join patients p on p.id = n.patient_id`;

/** The filters of a list: always the hospital, the kind (an author's personal notes, or a patient's). */
export interface NoteFilter {
  hospitalId: string;
  personalOf?: string;
  patient?: string;
  search?: string | undefined;
  tag?: string | undefined;
  pinned?: boolean | undefined;
}

function whereOf(f: NoteFilter): SQL {
  const parts: SQL[] = [sql`n.hospital_id = ${f.hospitalId}`, sql`n.deleted_at is null`];
  if (f.personalOf) parts.push(sql`n.patient_id is null and n.author_id = ${f.personalOf}`);
  if (f.patient) parts.push(sql`n.patient_id = ${f.patient}`);
  if (f.tag) parts.push(sql`n.tags @> array[${f.tag}]::text[]`);
  if (f.pinned !== undefined) parts.push(sql`n.pinned = ${f.pinned}`);
  if (f.search) {
    // Words, accents and case ignored; every word must appear in the title, the body or a tag. The scan runs over
    // one author's or one patient's notes only (their indexes narrow it first).
    for (const word of f.search.split(/\s+/).filter(Boolean).slice(0, 8)) {
      const like = containsPattern(word);
      const term = sql`f_unaccent(lower(${like}))`;
      parts.push(sql`(f_unaccent(lower(n.title)) like ${term} or f_unaccent(lower(n.body)) like ${term}
        or exists (select 1 from unnest(n.tags) t where f_unaccent(lower(t)) like ${term}))`);
    }
  }
  return sql.join(parts, sql` and `);
}

export async function listNotes(q: Queryable, f: NoteFilter, page: number, pageSize: number) {
  const where = whereOf(f);
  const [rows, count] = await Promise.all([
    q.execute<NoteRow>(
      sql`${SELECT} where ${where} order by n.pinned desc, n.updated_at desc, n.id desc
        limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
    q.execute<{ n: number }>(sql`select count(*)::int as n from notes n where ${where}`),
  ]);
  return { rows: rows.rows, count: Number(count.rows[0]!.n) };
}

/** One live note of the hospital, or undefined. */
export async function findNote(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res = await q.execute<NoteRow>(
    sql`${SELECT} where n.id = ${id} and n.hospital_id = ${hospitalId} and n.deleted_at is null${lock ? sql` for update of n` : sql``}`,
  );
  return res.rows[0];
}

export async function insertNote(q: Queryable, values: typeof notes.$inferInsert) {
  await q.insert(notes).values(values);
}

/** Changes the given fields of a note. */
export async function updateNote(q: Queryable, id: string, set: Partial<typeof notes.$inferInsert>) {
  await q.update(notes).set(set).where(sql`${notes.id} = ${id}`);
}

/** Deletes a note softly. */
export async function markNoteDeleted(q: Queryable, id: string) {
  await q.execute(sql`update notes set deleted_at = now(), updated_at = now() where id = ${id}`);
}
