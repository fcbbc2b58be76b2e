/**
 * Consultation diagnoses in SQL: a consultation's active diagnoses, one of them, the patient's previous ones (from
 * the consultations the caller may read), and their writes. Every read is scoped to the hospital.
 */
import type { ConsultationAccessUser } from '@greensen/shared/domain/consultation-access';
import type {
  ConsultationStatus,
  DiagnosisCertainty,
  DiagnosisRank,
} from '@greensen/shared/domain/consultations';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { consultationDiagnoses, icd10Codes } from '../../db/schema/index.js';
import { DEPARTMENT_REF_COLUMNS, isoRequired, personRef } from '../../lib/clinical.js';
import { readableBy } from './consultations.repository.js';

type DiagnosisRow = {
  id: string;
  consultation_id: string;
  icd_code: string | null;
  label: string;
  coded: boolean;
  rank: DiagnosisRank;
  certainty: DiagnosisCertainty;
  notes: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  u_id: string;
  u_first_name: string;
  u_last_name: string;
};

const DIAGNOSIS_COLUMNS = sql`dg.id, dg.consultation_id, dg.icd_code, dg.label, dg.coded, dg.rank, dg.certainty,
  dg.notes, dg.created_at, dg.updated_at, u.id as u_id, u.first_name as u_first_name, u.last_name as u_last_name`;

function toDiagnosis(r: DiagnosisRow) {
  return {
    id: r.id,
    consultation_id: r.consultation_id,
    icd_code: r.icd_code,
    label: r.label,
    coded: r.coded,
    rank: r.rank,
    certainty: r.certainty,
    notes: r.notes,
    created_by: personRef(r.u_id, r.u_first_name, r.u_last_name)!,
    created_at: isoRequired(r.created_at),
    updated_at: isoRequired(r.updated_at),
  };
}
export type DiagnosisView = ReturnType<typeof toDiagnosis>;

/** The active diagnoses of a consultation, primary first then in the order they were made. */
export async function listDiagnoses(
  q: Queryable,
  hospitalId: string,
  consultationId: string,
  limit = 100,
  offset = 0,
): Promise<{ rows: DiagnosisView[]; count: number }> {
  const cond = sql`dg.hospital_id = ${hospitalId} and dg.consultation_id = ${consultationId} and dg.removed_at is null`;
  const res = await q.execute<DiagnosisRow>(sql`select ${DIAGNOSIS_COLUMNS}
    from consultation_diagnoses dg join users u on u.id = dg.created_by
    where ${cond}
    order by (dg.rank = 'primary') desc, dg.created_at, dg.id
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from consultation_diagnoses dg where ${cond}`,
  );
  return { rows: res.rows.map(toDiagnosis), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findDiagnosis(
  q: Queryable,
  hospitalId: string,
  consultationId: string,
  diagnosisId: string,
): Promise<DiagnosisView | null> {
  const res = await q.execute<DiagnosisRow>(sql`select ${DIAGNOSIS_COLUMNS}
    from consultation_diagnoses dg join users u on u.id = dg.created_by
    where dg.hospital_id = ${hospitalId} and dg.consultation_id = ${consultationId} and dg.id = ${diagnosisId}
      and dg.removed_at is null`);
  const row = res.rows[0];
  return row ? toDiagnosis(row) : null;
}

type PatientDiagnosisRow = DiagnosisRow & {
  c_status: ConsultationStatus;
  c_started_at: Date | string;
  doc_id: string;
  doc_first_name: string;
  doc_last_name: string;
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
};

/**
 * The patient's diagnoses from the consultations the user may read (cancelled consultations left out), the
 * latest first.
 */
export async function listPatientDiagnoses(
  q: Queryable,
  hospitalId: string,
  user: ConsultationAccessUser,
  patientId: string,
  excludeConsultation: string | undefined,
  limit: number,
  offset: number,
) {
  const cond = sql`dg.hospital_id = ${hospitalId} and dg.patient_id = ${patientId} and dg.removed_at is null
    and c.status <> 'cancelled' and ${readableBy(user)}
    ${excludeConsultation ? sql`and c.id <> ${excludeConsultation}` : sql``}`;
  const res = await q.execute<PatientDiagnosisRow>(sql`select ${DIAGNOSIS_COLUMNS}, c.status as c_status,
      c.started_at as c_started_at, doc.id as doc_id, doc.first_name as doc_first_name,
      doc.last_name as doc_last_name, ${DEPARTMENT_REF_COLUMNS}
    from consultation_diagnoses dg
    join consultations c on c.id = dg.consultation_id
    left join admissions a on a.id = c.admission_id
    join users u on u.id = dg.created_by
    join users doc on doc.id = c.doctor_id
    join departments d on d.id = c.department_id
    where ${cond}
    order by dg.created_at desc, dg.id desc
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n
    from consultation_diagnoses dg
    join consultations c on c.id = dg.consultation_id
    left join admissions a on a.id = c.admission_id
    where ${cond}`);
  return {
    rows: res.rows.map((r) => ({
      ...toDiagnosis(r),
      consultation: {
        id: r.consultation_id,
        status: r.c_status,
        started_at: isoRequired(r.c_started_at),
        doctor: personRef(r.doc_id, r.doc_first_name, r.doc_last_name)!,
        department: { id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind },
      },
    })),
    count: Number(counted.rows[0]?.n ?? 0),
  };
}

/** The consultation's active primary diagnosis (one at most: a new primary demotes the previous one). */
function activePrimaryOf(consultationId: string): SQL {
  return and(
    eq(consultationDiagnoses.consultationId, consultationId),
    eq(consultationDiagnoses.rank, 'primary'),
    isNull(consultationDiagnoses.removedAt),
  )!;
}

/** Whether the consultation has an active primary diagnosis (completing it needs one). */
export async function hasPrimaryDiagnosis(q: Queryable, consultationId: string) {
  const [primary] = await q
    .select({ id: consultationDiagnoses.id })
    .from(consultationDiagnoses)
    .where(activePrimaryOf(consultationId));
  return Boolean(primary);
}

/** The ICD-10 code of a consultation's primary diagnosis, when it is coded. */
export async function primaryCode(q: Queryable, consultationId: string): Promise<string | null> {
  const [row] = await q
    .select({ code: consultationDiagnoses.icdCode })
    .from(consultationDiagnoses)
    .where(activePrimaryOf(consultationId));
  return row?.code ?? null;
}

/** Demotes the current primary diagnosis (if any, other than `except`) to secondary; returns its id. */
export async function demotePrimary(q: Queryable, consultationId: string, except?: string) {
  const rows = await q
    .update(consultationDiagnoses)
    .set({ rank: 'secondary', updatedAt: new Date() })
    .where(
      and(
        activePrimaryOf(consultationId),
        except ? sql`${consultationDiagnoses.id} <> ${except}` : sql`true`,
      ),
    )
    .returning({ id: consultationDiagnoses.id });
  return rows[0]?.id ?? null;
}

/** A codable entry of the ICD-10 catalogue (a category or a code), with its labels. */
export async function codableIcdEntry(q: Queryable, code: string) {
  const [entry] = await q
    .select({ code: icd10Codes.code, fr: icd10Codes.labelFr, en: icd10Codes.labelEn })
    .from(icd10Codes)
    .where(and(eq(icd10Codes.code, code), inArray(icd10Codes.kind, ['category', 'code'])));
  return entry ?? null;
}

/** Whether the consultation already has an active diagnosis with the code. */
export async function hasActiveDiagnosisCoded(q: Queryable, consultationId: string, code: string) {
  const [same] = await q
    .select({ id: consultationDiagnoses.id })
    .from(consultationDiagnoses)
    .where(
      and(
        eq(consultationDiagnoses.consultationId, consultationId),
        eq(consultationDiagnoses.icdCode, code),
        isNull(consultationDiagnoses.removedAt),
      ),
    );
  return Boolean(same);
}

/** Records a diagnosis; answers its id. */
export async function insertDiagnosis(q: Queryable, values: typeof consultationDiagnoses.$inferInsert) {
  const [row] = await q
    .insert(consultationDiagnoses)
    .values(values)
    .returning({ id: consultationDiagnoses.id });
  return row!.id;
}

/** Columns of a diagnosis its author's colleagues may change (rank, certainty, notes). */
export type DiagnosisChanges = Partial<typeof consultationDiagnoses.$inferInsert>;

export async function updateDiagnosisFields(q: Queryable, diagnosisId: string, values: DiagnosisChanges) {
  await q.update(consultationDiagnoses).set(values).where(eq(consultationDiagnoses.id, diagnosisId));
}

/** Removes a diagnosis: kept with `removed_at` (clinical records are never deleted). */
export async function markDiagnosisRemoved(q: Queryable, diagnosisId: string, removedBy: string, now: Date) {
  await q
    .update(consultationDiagnoses)
    .set({ removedAt: now, removedBy, updatedAt: now })
    .where(eq(consultationDiagnoses.id, diagnosisId));
}
