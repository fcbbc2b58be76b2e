import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { dictationRecordings } from '../../db/schema/index.js';
import { PATIENT_REF_COLUMNS, type RefRow } from '../../lib/clinical.js';

// The SQL of the recordings kept to be typed (issue 23, decision 0034); the rules are in dictation.service.ts.

export type RecordingRow = RefRow & {
  id: string;
  document_id: string;
  language: 'fr' | 'en';
  context: string | null;
  size_bytes: number;
  created_at: Date | string;
  typed_at: Date | string | null;
};

export async function insertRecording(q: Queryable, values: typeof dictationRecordings.$inferInsert) {
  await q.insert(dictationRecordings).values(values);
}

/** A page of an author's recordings in the hospital, typed or waiting, newest first, and the count. */
export async function listRecordings(
  q: Queryable,
  hospitalId: string,
  authorId: string,
  typed: boolean,
  limit: number,
  offset: number,
) {
  const where = sql`r.hospital_id = ${hospitalId} and r.author_id = ${authorId}
    and ${typed ? sql`r.typed_at is not null` : sql`r.typed_at is null`}`;
  const [rows, count] = await Promise.all([
    q.execute<RecordingRow>(sql`select r.id, r.document_id, r.language, r.context, r.size_bytes,
        r.created_at, r.typed_at, ${PATIENT_REF_COLUMNS}
      from dictation_recordings r join patients p on p.id = r.patient_id
      where ${where} order by r.created_at desc, r.id desc limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from dictation_recordings r where ${where}`),
  ]);
  return { count: Number(count.rows[0]!.n), rows: rows.rows };
}

/** Marks an author's recording typed (once: the first moment stays); null when it is not theirs in the hospital. */
export async function markRecordingTyped(q: Queryable, hospitalId: string, authorId: string, id: string) {
  const res =
    await q.execute<RecordingRow>(sql`update dictation_recordings r set typed_at = coalesce(r.typed_at, now()),
      updated_at = now()
    from patients p where p.id = r.patient_id and r.id = ${id} and r.hospital_id = ${hospitalId}
      and r.author_id = ${authorId}
    returning r.id, r.document_id, r.language, r.context, r.size_bytes, r.created_at, r.typed_at, ${PATIENT_REF_COLUMNS}`);
  return res.rows[0] ?? null;
}
