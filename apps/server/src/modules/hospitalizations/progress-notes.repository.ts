/**
 * Progress notes of a stay in SQL (issue 17): a page of signed notes with their addenda, a note's parent, a new
 * note. The stay is checked to be the hospital's by the caller.
 */
import type { TProgressNote } from '@greensen/shared/contracts/hospitalizations';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { progressNotes } from '../../db/schema/index.js';
import { isoRequired, personRef } from '../../lib/clinical.js';

type NoteRow = {
  id: string;
  addendum_of: string | null;
  text: string;
  signed_at: Date | string;
  a_id: string;
  a_first: string;
  a_last: string;
};
const NOTE_SELECT = sql`select n.id, n.addendum_of, n.text, n.signed_at, a.id as a_id, a.first_name as a_first,
    a.last_name as a_last
  from progress_notes n join users a on a.id = n.author_id`;
const toNote = (n: NoteRow) => ({
  id: n.id,
  text: n.text,
  author: personRef(n.a_id, n.a_first, n.a_last)!,
  signed_at: isoRequired(n.signed_at),
});

/** A page of a stay's notes (not addenda), newest first, each with its addenda oldest first; and their count. */
export async function stayNotes(q: Queryable, stayId: string, limit: number, offset: number) {
  const where = sql`n.hospitalization_id = ${stayId} and n.addendum_of is null`;
  const notes = await q.execute<NoteRow>(sql`${NOTE_SELECT} where ${where}
      order by n.signed_at desc, n.id desc limit ${limit} offset ${offset}`);
  const ids = notes.rows.map((n) => n.id);
  const addenda = ids.length
    ? await q.execute<NoteRow>(
        sql`${NOTE_SELECT} where n.addendum_of in (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )}) order by n.signed_at, n.id`,
      )
    : { rows: [] as NoteRow[] };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from progress_notes n where ${where}`,
  );
  const rows: TProgressNote[] = notes.rows.map((n) => ({
    ...toNote(n),
    addenda: addenda.rows.filter((a) => a.addendum_of === n.id).map(toNote),
  }));
  return { rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/** A note of the stay (an addendum's parent), with whether it is itself an addendum. */
export async function findStayNote(q: Queryable, stayId: string, noteId: string) {
  const parent = await q
    .select({ id: progressNotes.id, addendumOf: progressNotes.addendumOf })
    .from(progressNotes)
    .where(and(eq(progressNotes.id, noteId), eq(progressNotes.hospitalizationId, stayId)));
  return parent[0] ?? null;
}

/** Signs a note (or an addendum); answers its id. */
export async function insertNote(q: Queryable, values: typeof progressNotes.$inferInsert) {
  const [row] = await q.insert(progressNotes).values(values).returning({ id: progressNotes.id });
  return row!.id;
}

/** A note as the API shows it (without addenda). */
export async function findNote(q: Queryable, id: string) {
  const res = await q.execute<NoteRow>(sql`${NOTE_SELECT} where n.id = ${id}`);
  return toNote(res.rows[0]!);
}
