/** Documents' SQL (issue 41 moves the rest out of the service): the public verification's row. */
import type { DocumentKind } from '@greensen/shared/contracts/documents';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

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
