import type { ConsultationScope } from '@greensen/shared/contracts/consultations';
import type { TVitals } from '@greensen/shared/contracts/triage';
import type { ConsultationAccessUser } from '@greensen/shared/domain/consultation-access';
import type {
  ConsultationOutcome,
  ConsultationStatus,
  DiagnosisCertainty,
} from '@greensen/shared/domain/consultations';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  admissions,
  consultationAddenda,
  consultations,
  executions,
  patients,
} from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  fullName,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
  textArray,
} from '../../lib/clinical.js';
import { hospitalMidnight, sqlList } from '../../lib/queries.js';

/**
 * Consultation queries. Every one is scoped to the hospital; the lists apply the consultation-access rule in
 * SQL (`readableBy`), so that a page only ever holds rows the caller may read, and counts match the pages.
 */

const PRACTITIONERS: readonly DashboardGroup[] = ['doctor', 'head_doctor', 'midwife'];

/**
 * The consultation-access rule's "read" (or better) as a condition on `c` (consultations) and `a` (its
 * admission, left-joined) — the SQL twin of `consultationAccess` in shared, which decides each row's `access`:
 * secretaries nothing; head doctors everything; practitioners their own and their departments'; midwives the
 * maternity admissions; everyone else nothing.
 */
export function readableBy(user: ConsultationAccessUser): SQL {
  if (user.groups.includes('secretary')) return sql`false`;
  if (user.groups.includes('head_doctor')) return sql`true`;
  const parts: SQL[] = [];
  if (user.groups.some((g) => PRACTITIONERS.includes(g))) {
    parts.push(sql`c.doctor_id = ${user.id}`);
    if (user.departmentIds.length > 0) parts.push(sql`c.department_id in (${sqlList(user.departmentIds)})`);
  }
  if (user.groups.includes('midwife')) parts.push(sql`a.admission_type = 'maternity'`);
  return parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/** The facts the access rule needs, and what writes check; locked for the transaction with `lock`. */
export interface ConsultationFacts {
  id: string;
  status: ConsultationStatus;
  doctorId: string;
  departmentId: string;
  patientId: string;
  admissionId: string | null;
  executionId: string | null;
  admissionType: string | null;
  version: number;
  outcome: ConsultationOutcome | null;
  followUpDate: string | null;
  allergies: string[] | null;
  allergiesConfirmed: boolean;
}

export async function loadFacts(
  q: Queryable,
  hospitalId: string,
  id: string,
  lock = false,
): Promise<ConsultationFacts | null> {
  const res = await q.execute<{
    id: string;
    status: ConsultationStatus;
    doctor_id: string;
    department_id: string;
    patient_id: string;
    admission_id: string | null;
    execution_id: string | null;
    admission_type: string | null;
    version: number;
    outcome: ConsultationOutcome | null;
    follow_up_date: string | null;
    allergies: string[] | string | null;
    allergies_confirmed: boolean;
  }>(sql`select c.id, c.status, c.doctor_id, c.department_id, c.patient_id, c.admission_id, c.execution_id,
      a.admission_type, c.version, c.outcome, c.follow_up_date::text as follow_up_date,
      array_to_json(c.allergies) as allergies, c.allergies_confirmed
    from consultations c left join admissions a on a.id = c.admission_id
    where c.hospital_id = ${hospitalId} and c.id = ${id}
    ${lock ? sql`for update of c` : sql``}`);
  const r = res.rows[0];
  if (!r) return null;
  return {
    id: r.id,
    status: r.status,
    doctorId: r.doctor_id,
    departmentId: r.department_id,
    patientId: r.patient_id,
    admissionId: r.admission_id,
    executionId: r.execution_id,
    admissionType: r.admission_type,
    version: Number(r.version),
    outcome: r.outcome,
    followUpDate: r.follow_up_date,
    allergies: r.allergies === null ? null : textArray(r.allergies),
    allergiesConfirmed: r.allergies_confirmed,
  };
}

type ListRow = RefRow & {
  id: string;
  status: ConsultationStatus;
  doctor_id: string;
  department_id: string;
  admission_id: string | null;
  admission_type: 'outpatient' | 'emergency' | 'maternity' | 'inpatient' | null;
  reason: string | null;
  started_at: Date | string;
  completed_at: Date | string | null;
  outcome: ConsultationOutcome | null;
  doc_first_name: string;
  doc_last_name: string;
  pd_code: string | null;
  pd_label: string | null;
  pd_coded: boolean | null;
  pd_certainty: DiagnosisCertainty | null;
};

const LIST_COLUMNS = sql`c.id, c.status, c.doctor_id, c.department_id, c.admission_id, a.admission_type, c.reason,
  c.started_at, c.completed_at, c.outcome, doc.first_name as doc_first_name, doc.last_name as doc_last_name,
  pd.icd_code as pd_code, pd.label as pd_label, pd.coded as pd_coded, pd.certainty as pd_certainty,
  ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}`;

// The primary diagnosis joins through the one-primary unique index: at most one row per consultation.
const LIST_FROM = sql`from consultations c
  join patients p on p.id = c.patient_id
  join departments d on d.id = c.department_id
  join users doc on doc.id = c.doctor_id
  left join admissions a on a.id = c.admission_id
  left join consultation_diagnoses pd
    on pd.consultation_id = c.id and pd.rank = 'primary' and pd.removed_at is null`;

function toListItem(r: ListRow) {
  return {
    id: r.id,
    status: r.status,
    patient: patientRef(r),
    department: departmentRef(r),
    doctor: { id: r.doctor_id, full_name: fullName(r.doc_first_name, r.doc_last_name) },
    admission_id: r.admission_id,
    admission_type: r.admission_type,
    reason: r.reason,
    started_at: isoRequired(r.started_at),
    completed_at: iso(r.completed_at),
    primary_diagnosis:
      r.pd_label !== null
        ? {
            icd_code: r.pd_code,
            label: r.pd_label,
            coded: Boolean(r.pd_coded),
            certainty: r.pd_certainty ?? 'confirmed',
          }
        : null,
    outcome: r.outcome,
  };
}
export type ConsultationListView = ReturnType<typeof toListItem>;

export interface ConsultationFilters {
  scope: ConsultationScope;
  today?: boolean | undefined;
  status?: ConsultationStatus[] | undefined;
  date?: string | undefined;
  doctor?: string | undefined;
  department?: string | undefined;
  patient?: string | undefined;
  admission?: string | undefined;
  diagnosis?: string | undefined;
  search?: string | undefined;
  ordering: '-started_at' | 'started_at';
}

/** The facts of a row for `consultationAccess`. */
export const factsOf = (r: {
  doctor: { id: string };
  department: { id: string };
  status: ConsultationStatus;
  admission_type: string | null;
}) => ({
  doctorId: r.doctor.id,
  departmentId: r.department.id,
  status: r.status,
  admissionType: r.admission_type,
});

/**
 * The consultations the user may read, filtered. `scope`: mine (the user is the doctor), department (the
 * user's departments), all (everything readable). Run it in a transaction when `search` is set (the name
 * similarity threshold is set for the transaction only).
 */
export async function listConsultations(
  q: Queryable,
  hospitalId: string,
  user: ConsultationAccessUser,
  f: ConsultationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: ConsultationListView[]; count: number }> {
  const where: SQL[] = [sql`c.hospital_id = ${hospitalId}`, readableBy(user)];
  if (f.scope === 'mine') where.push(sql`c.doctor_id = ${user.id}`);
  if (f.scope === 'department')
    where.push(
      user.departmentIds.length > 0 ? sql`c.department_id in (${sqlList(user.departmentIds)})` : sql`false`,
    );
  if (f.today) where.push(sql`c.started_at >= ${hospitalMidnight(hospitalId)}`);
  if (f.date)
    where.push(
      sql`c.started_at >= ${hospitalMidnight(hospitalId, f.date)} and c.started_at < ${hospitalMidnight(hospitalId, f.date, 1)}`,
    );
  if (f.status?.length) where.push(sql`c.status in (${sqlList(f.status)})`);
  if (f.doctor) where.push(sql`c.doctor_id = ${f.doctor}`);
  if (f.department) where.push(sql`c.department_id = ${f.department}`);
  if (f.patient) where.push(sql`c.patient_id = ${f.patient}`);
  if (f.admission) where.push(sql`c.admission_id = ${f.admission}`);
  if (f.diagnosis) {
    // The prefix is validated by the contract (letters, digits, dots): no LIKE wildcard can come in.
    where.push(sql`c.id in (select dg.consultation_id from consultation_diagnoses dg
      where dg.hospital_id = ${hospitalId} and dg.removed_at is null and dg.icd_code like ${`${f.diagnosis}%`})`);
  }
  if (f.search) {
    const term = f.search.trim();
    where.push(sql`(p.record_number = ${term.toUpperCase()}
      or f_unaccent(lower(p.last_name || ' ' || p.first_name)) %> f_unaccent(lower(${term})))`);
  }
  const cond = sql.join(where, sql` and `);
  const order = f.ordering === 'started_at' ? sql`c.started_at asc, c.id` : sql`c.started_at desc, c.id desc`;
  const rows = await q.execute<ListRow>(
    sql`select ${LIST_COLUMNS} ${LIST_FROM} where ${cond} order by ${order} limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n from consultations c
    join patients p on p.id = c.patient_id
    left join admissions a on a.id = c.admission_id
    where ${cond}`);
  return { rows: rows.rows.map(toListItem), count: Number(counted.rows[0]?.n ?? 0) };
}

type DetailRow = ListRow & {
  execution_id: string | null;
  a_status: string | null;
  a_queue_number: number | null;
  history: string | null;
  current_treatment: string | null;
  allergies: string[] | string | null;
  allergies_confirmed: boolean;
  examination: string | null;
  vitals: TVitals | string | null;
  conclusion: string | null;
  plan: string | null;
  outcome_notes: string | null;
  follow_up_date: string | null;
  version: number;
  completed_by: string | null;
  cb_first_name: string | null;
  cb_last_name: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | string | null;
  updated_at: Date | string;
};

function toDetail(r: DetailRow) {
  const vitals = typeof r.vitals === 'string' ? (JSON.parse(r.vitals) as TVitals) : r.vitals;
  return {
    ...toListItem(r),
    admission:
      r.admission_id && r.admission_type && r.a_status
        ? {
            id: r.admission_id,
            status: r.a_status as never,
            admission_type: r.admission_type,
            queue_number: Number(r.a_queue_number),
          }
        : null,
    history: r.history,
    current_treatment: r.current_treatment,
    allergies: r.allergies === null ? null : textArray(r.allergies),
    allergies_confirmed: r.allergies_confirmed,
    examination: r.examination,
    vitals: vitals ?? null,
    conclusion: r.conclusion,
    plan: r.plan,
    outcome_notes: r.outcome_notes,
    follow_up_date: r.follow_up_date,
    version: Number(r.version),
    completed_by: personRef(r.completed_by, r.cb_first_name, r.cb_last_name),
    cancel_reason: r.cancel_reason,
    cancelled_at: iso(r.cancelled_at),
    updated_at: isoRequired(r.updated_at),
  };
}
export type ConsultationDetailView = ReturnType<typeof toDetail>;

export async function findConsultation(
  q: Queryable,
  hospitalId: string,
  id: string,
): Promise<ConsultationDetailView | null> {
  const res = await q.execute<DetailRow>(sql`select ${LIST_COLUMNS}, c.execution_id,
      a.status as a_status, a.queue_number as a_queue_number, c.history, c.current_treatment,
      array_to_json(c.allergies) as allergies, c.allergies_confirmed, c.examination, c.vitals, c.conclusion,
      c.plan, c.outcome_notes, c.follow_up_date::text as follow_up_date, c.version, c.completed_by,
      cb.first_name as cb_first_name, cb.last_name as cb_last_name, c.cancel_reason, c.cancelled_at, c.updated_at
    ${LIST_FROM}
    left join users cb on cb.id = c.completed_by
    where c.hospital_id = ${hospitalId} and c.id = ${id}`);
  const row = res.rows[0];
  return row ? toDetail(row) : null;
}

export async function listAddenda(q: Queryable, hospitalId: string, consultationId: string) {
  const res = await q.execute<{
    id: string;
    text: string;
    created_at: Date | string;
    author_id: string;
    first_name: string;
    last_name: string;
  }>(sql`select x.id, x.text, x.created_at, u.id as author_id, u.first_name, u.last_name
    from consultation_addenda x join users u on u.id = x.author_id
    where x.hospital_id = ${hospitalId} and x.consultation_id = ${consultationId}
    order by x.created_at, x.id`);
  return res.rows.map((r) => ({
    id: r.id,
    author: personRef(r.author_id, r.first_name, r.last_name)!,
    text: r.text,
    created_at: isoRequired(r.created_at),
  }));
}

// Writes of a consultation and what follows it (its visit, its execution, the patient's allergies) -----------

/** Starts a consultation; answers its id. */
export async function insertConsultation(q: Queryable, values: typeof consultations.$inferInsert) {
  const [row] = await q.insert(consultations).values(values).returning({ id: consultations.id });
  return row!.id;
}

/** The sections a draft save changes. */
export type ConsultationSections = Partial<typeof consultations.$inferInsert>;

/** A draft save: the sections, the next version. */
export async function saveConsultationDraft(
  q: Queryable,
  id: string,
  values: ConsultationSections,
  version: number,
) {
  await q
    .update(consultations)
    .set({ ...values, version, updatedAt: new Date() })
    .where(eq(consultations.id, id));
}

export async function markConsultationCompleted(
  q: Queryable,
  id: string,
  by: { completedBy: string; version: number; now: Date },
) {
  await q
    .update(consultations)
    .set({
      status: 'completed',
      completedAt: by.now,
      completedBy: by.completedBy,
      version: by.version,
      updatedAt: by.now,
    })
    .where(eq(consultations.id, id));
}

export async function markConsultationCancelled(
  q: Queryable,
  id: string,
  by: { reason: string; version: number; now: Date },
) {
  await q
    .update(consultations)
    .set({
      status: 'cancelled',
      cancelReason: by.reason,
      cancelledAt: by.now,
      version: by.version,
      updatedAt: by.now,
    })
    .where(eq(consultations.id, id));
}

/** The consultation's reason and outcome notes (the reason of the stay it opens). */
export async function consultationReasonAndNotes(q: Queryable, id: string) {
  const [row] = await q
    .select({ reason: consultations.reason, notes: consultations.outcomeNotes })
    .from(consultations)
    .where(eq(consultations.id, id));
  return row ?? null;
}

/** Locks the consultation's visit; answers its status. */
export async function lockVisitStatus(q: Queryable, admissionId: string) {
  const [admission] = await q
    .select({ status: admissions.status })
    .from(admissions)
    .where(eq(admissions.id, admissionId))
    .for('update');
  return admission ?? null;
}

/** The visit moves as the consultation's outcome says (and closes). */
export async function moveVisitByOutcome(
  q: Queryable,
  admissionId: string,
  to: (typeof admissions.$inferInsert)['status'],
  now: Date,
) {
  await q
    .update(admissions)
    .set({ status: to, closedAt: now, updatedAt: now })
    .where(eq(admissions.id, admissionId));
}

/** A visit in consultation goes back to `assigned` (its consultation was cancelled). */
export async function returnVisitToAssigned(q: Queryable, admissionId: string, now: Date) {
  await q
    .update(admissions)
    .set({ status: 'assigned', updatedAt: now })
    .where(and(eq(admissions.id, admissionId), eq(admissions.status, 'in_consultation')));
}

/** The consultation's execution (assigned or in progress) completes. */
export async function completeExecution(q: Queryable, executionId: string, now: Date) {
  await q
    .update(executions)
    .set({ status: 'completed', completedAt: now, updatedAt: now })
    .where(and(eq(executions.id, executionId), inArray(executions.status, ['assigned', 'in_progress'])));
}

/** An execution in progress goes back to `assigned` to the same doctor. */
export async function returnExecutionToAssigned(q: Queryable, executionId: string, now: Date) {
  await q
    .update(executions)
    .set({ status: 'assigned', startedAt: null, updatedAt: now })
    .where(and(eq(executions.id, executionId), eq(executions.status, 'in_progress')));
}

/** Confirmed allergies replace the patient's list. */
export async function confirmPatientAllergies(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  allergies: string[],
  now: Date,
) {
  await q
    .update(patients)
    .set({ allergies, allergiesRecorded: true, updatedAt: now })
    .where(and(eq(patients.id, patientId), eq(patients.hospitalId, hospitalId)));
}

/** A dated addendum on a completed consultation; answers its id. */
export async function insertAddendum(q: Queryable, values: typeof consultationAddenda.$inferInsert) {
  const [row] = await q.insert(consultationAddenda).values(values).returning({ id: consultationAddenda.id });
  return row!.id;
}
