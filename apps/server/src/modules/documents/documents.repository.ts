import type { DocumentKind, DocumentLanguage, TDocumentSource } from '@greensen/shared/contracts/documents';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { documents } from '../../db/schema/index.js';
import { PATIENT_REF_COLUMNS, patientRef, type RefRow } from '../../lib/clinical.js';
import { containsPattern } from '../../lib/queries.js';

// The SQL of issued documents (issue 19; decision 0023); who may issue, read and cancel is in documents.service.ts.

export type DocumentRow = RefRow & {
  id: string;
  number: string;
  kind: DocumentKind;
  language: DocumentLanguage;
  paper: 'A4' | 'A5';
  author_id: string;
  author_name: string;
  template_id: string;
  template_name: string;
  template_shipped: boolean;
  source_type: TDocumentSource['type'];
  source_id: string;
  body: string;
  storage_key: string;
  sha256: string;
  size_bytes: number;
  verification_token: string;
  verification_code: string;
  issued_at: Date | string;
  cancelled_at: Date | string | null;
  cancelled_by_id: string | null;
  cancelled_by_name: string | null;
  cancel_reason: string | null;
};

const SELECT = sql`select doc.id, doc.number, doc.kind, doc.language, doc.paper, doc.author_id,
    trim(au.first_name || ' ' || au.last_name) as author_name, doc.template_id, doc.template_name,
    doc.template_shipped, doc.source_type, doc.source_id, doc.body, doc.storage_key, doc.sha256, doc.size_bytes,
    doc.verification_token, doc.verification_code, doc.issued_at, doc.cancelled_at, doc.cancel_reason,
    cb.id as cancelled_by_id, trim(cb.first_name || ' ' || cb.last_name) as cancelled_by_name, ${PATIENT_REF_COLUMNS}
  from documents doc join patients p on p.id = doc.patient_id join users au on au.id = doc.author_id
  left join users cb on cb.id = doc.cancelled_by`;

/**
 * An administrative document (`ADMINISTRATIVE_KINDS` of the contract: invoices and receipts), the only ones a
 * reader of no clinical document (a secretary) sees.
 */
const ADMINISTRATIVE_DOCUMENT = sql`doc.kind in ('invoice', 'receipt')`;

export interface DocumentFilters {
  patient?: string | undefined;
  kind?: DocumentKind | undefined;
  author?: string | undefined;
  status: 'all' | 'valid' | 'cancelled';
  source_type?: TDocumentSource['type'] | undefined;
  source?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
  search?: string | undefined;
}

export async function findDocumentRow(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<DocumentRow>(
    sql`${SELECT} where doc.id = ${id} and doc.hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** A page of the hospital's documents, newest first (administrative ones only unless `clinical`), and the count. */
export async function listDocuments(
  q: Queryable,
  hospitalId: string,
  f: DocumentFilters,
  clinical: boolean,
  limit: number,
  offset: number,
) {
  const conditions = [
    sql`doc.hospital_id = ${hospitalId}`,
    clinical ? null : ADMINISTRATIVE_DOCUMENT,
    f.patient ? sql`doc.patient_id = ${f.patient}` : null,
    f.kind ? sql`doc.kind = ${f.kind}` : null,
    f.author ? sql`doc.author_id = ${f.author}` : null,
    f.status === 'valid' ? sql`doc.cancelled_at is null` : null,
    f.status === 'cancelled' ? sql`doc.cancelled_at is not null` : null,
    f.source_type ? sql`doc.source_type = ${f.source_type}` : null,
    f.source ? sql`doc.source_id = ${f.source}` : null,
    f.date_from ? sql`doc.issued_on >= ${f.date_from}::date` : null,
    f.date_to ? sql`doc.issued_on <= ${f.date_to}::date` : null,
    f.search
      ? sql`(doc.number = upper(${f.search}) or f_unaccent(lower(p.first_name || ' ' || p.last_name)) like f_unaccent(lower(${containsPattern(f.search)})))`
      : null,
  ].filter((c): c is SQL => c !== null);
  const where = sql.join(conditions, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<DocumentRow>(
      sql`${SELECT} where ${where} order by doc.issued_at desc, doc.id desc limit ${limit} offset ${offset}`,
    ),
    q.execute<{ n: number }>(
      sql`select count(*)::int as n from documents doc join patients p on p.id = doc.patient_id where ${where}`,
    ),
  ]);
  return { count: Number(count.rows[0]!.n), rows: rows.rows };
}

export async function insertDocument(q: Queryable, values: typeof documents.$inferInsert) {
  await q.insert(documents).values(values);
}

/** What a cancellation checks of a document of the hospital, locked; null when there is none. */
export async function lockDocumentForCancel(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    author_id: string;
    cancelled_at: Date | null;
    patient_id: string;
    kind: DocumentKind;
  }>(
    sql`select author_id, cancelled_at, patient_id, kind from documents
      where id = ${id} and hospital_id = ${hospitalId} for update`,
  );
  return res.rows[0] ?? null;
}

export async function markDocumentCancelled(q: Queryable, id: string, by: string, reason: string) {
  await q.execute(sql`update documents set cancelled_at = now(), cancelled_by = ${by},
      cancel_reason = ${reason} where id = ${id}`);
}

/** A patient as the documents show them (it exists). */
export async function patientRefOf(q: Queryable, patientId: string) {
  const res = await q.execute<RefRow>(
    sql`select ${PATIENT_REF_COLUMNS} from patients p where p.id = ${patientId}`,
  );
  return patientRef(res.rows[0]!);
}

/** The public verification's row: authenticity, and the patient's initials and year of birth (issue 37). */
export type VerificationRow = {
  kind: DocumentKind;
  number: string;
  issued_at: Date | string;
  issued_on: string;
  cancelled_at: Date | string | null;
  verification_code: string;
  hospital_name: string;
  hospital_code: string;
  author_name: string;
  role_code: string | null;
  patient_first_name: string;
  patient_last_name: string;
  /** The year of birth only (never the date): the public page shows nothing more of the patient. */
  patient_birth_year: number | null;
};

/** An issued document by its verification token (any hospital: the token is the secret), or null. */
export async function findVerification(q: Queryable, token: string): Promise<VerificationRow | null> {
  const res = await q.execute<VerificationRow>(sql`select doc.kind, doc.number, doc.issued_at,
      doc.issued_on::text as issued_on, doc.cancelled_at, doc.verification_code, h.name as hospital_name,
      h.code as hospital_code, trim(u.first_name || ' ' || u.last_name) as author_name,
      (select role_code from memberships m where m.user_id = doc.author_id and m.hospital_id = doc.hospital_id
        order by m.is_active desc, m.created_at limit 1) as role_code,
      p.first_name as patient_first_name, p.last_name as patient_last_name,
      extract(year from p.birth_date)::int as patient_birth_year
    from documents doc join hospitals h on h.id = doc.hospital_id join users u on u.id = doc.author_id
      join patients p on p.id = doc.patient_id
    where doc.verification_token = ${token}`);
  return res.rows[0] ?? null;
}
