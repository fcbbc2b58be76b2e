import type { PatientDocumentCategory, TPatientDocument } from '@greensen/shared/contracts/documents';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patientDocuments } from '../../db/schema/index.js';
import { PATIENT_REF_COLUMNS, type RefRow } from '../../lib/clinical.js';

// The SQL of the files added to patients' records (issue 19; decision 0023); the rules are in
// patient-documents.service.ts.

export type PatientDocumentRow = RefRow & {
  id: string;
  category: PatientDocumentCategory;
  document_date: string | null;
  description: string | null;
  file_name: string;
  content_type: TPatientDocument['content_type'];
  size_bytes: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  uploader_name: string;
  uploaded_at: Date | string;
};

const SELECT = sql`select pd.id, pd.category, pd.document_date::text as document_date, pd.description, pd.file_name,
    pd.content_type, pd.size_bytes, pd.sha256, pd.storage_key, pd.uploaded_by,
    trim(u.first_name || ' ' || u.last_name) as uploader_name, pd.uploaded_at, ${PATIENT_REF_COLUMNS}
  from patient_documents pd join patients p on p.id = pd.patient_id join users u on u.id = pd.uploaded_by`;

/** A document of the hospital not deleted (locked with `lock`), or null. */
export async function findPatientDocument(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res = await q.execute<PatientDocumentRow>(
    sql`${SELECT} where pd.id = ${id} and pd.hospital_id = ${hospitalId} and pd.deleted_at is null${lock ? sql` for update of pd` : sql``}`,
  );
  return res.rows[0] ?? null;
}

export async function insertPatientDocument(q: Queryable, values: typeof patientDocuments.$inferInsert) {
  await q.insert(patientDocuments).values(values);
}

export interface PatientDocumentFilters {
  patient?: string | undefined;
  category?: PatientDocumentCategory | undefined;
  uploaded_by?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}

/** A page of the hospital's documents not deleted, newest first, and the count. */
export async function listPatientDocuments(
  q: Queryable,
  hospitalId: string,
  f: PatientDocumentFilters,
  limit: number,
  offset: number,
) {
  const where = sql.join(
    [
      sql`pd.hospital_id = ${hospitalId} and pd.deleted_at is null`,
      f.patient ? sql`pd.patient_id = ${f.patient}` : null,
      f.category ? sql`pd.category = ${f.category}` : null,
      f.uploaded_by ? sql`pd.uploaded_by = ${f.uploaded_by}` : null,
      f.date_from ? sql`pd.uploaded_at >= ${f.date_from}::date` : null,
      f.date_to ? sql`pd.uploaded_at < ${f.date_to}::date + 1` : null,
    ].filter((c): c is SQL => c !== null),
    sql` and `,
  );
  const [rows, count] = await Promise.all([
    q.execute<PatientDocumentRow>(
      sql`${SELECT} where ${where} order by pd.uploaded_at desc, pd.id desc limit ${limit} offset ${offset}`,
    ),
    q.execute<{ n: number }>(sql`select count(*)::int as n from patient_documents pd where ${where}`),
  ]);
  return { count: Number(count.rows[0]!.n), rows: rows.rows };
}

/** Deletes a document softly, with the reason. */
export async function markPatientDocumentDeleted(q: Queryable, id: string, by: string, reason: string) {
  await q.execute(sql`update patient_documents set deleted_at = now(), deleted_by = ${by},
      delete_reason = ${reason}, updated_at = now() where id = ${id} and deleted_at is null`);
}
