import { type AdmissionStatus, OPEN_ADMISSION_STATUSES } from '@greensen/shared/domain/admissions';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { admissions, consultations, departments, executions, patients } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  iso,
  isoRequired,
  minutesBetween,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { visitDischargedAt } from '../hospitalizations/stay-orders.repository.js';

export type AdmissionRow = typeof admissions.$inferSelect;

type AdmissionViewRow = RefRow & {
  id: string;
  admission_type: 'outpatient' | 'emergency' | 'maternity' | 'inpatient';
  reason: string;
  status: AdmissionStatus;
  queue_number: number;
  queue_date: string;
  admitted_at: Date | string;
  triage_id: string | null;
  triage_level: string | null;
  triage_rank: number | null;
  triage_target_minutes: number | null;
  t_scale: 'FRENCH' | 'SATS' | null;
  t_recorded_at: Date | string | null;
  doc_id: string | null;
  doc_first_name: string | null;
  doc_last_name: string | null;
  cancel_reason: string | null;
  cancelled_at: Date | string | null;
  closed_at: Date | string | null;
  discharged_at: Date | string | null;
};

const VIEW_SELECT = sql`select a.id, a.admission_type, a.reason, a.status, a.queue_number, a.queue_date::text as queue_date,
    a.admitted_at, a.triage_id, a.triage_level, a.triage_rank, a.triage_target_minutes, a.cancel_reason,
    a.cancelled_at, a.closed_at, ${visitDischargedAt('a')} as discharged_at, t.scale as t_scale, t.recorded_at as t_recorded_at,
    doc.id as doc_id, doc.first_name as doc_first_name, doc.last_name as doc_last_name,
    ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}
  from admissions a
  join patients p on p.id = a.patient_id
  join departments d on d.id = a.department_id
  left join triage_records t on t.id = a.triage_id
  left join lateral (select e.doctor_id from executions e
    where e.admission_id = a.id and (e.status in ('assigned', 'in_progress')
      or (e.status = 'completed' and a.status not in ('waiting', 'assigned', 'in_consultation')))
    order by e.status = 'completed', e.created_at desc limit 1) oe on true
  left join users doc on doc.id = oe.doctor_id`;

export function toAdmission(r: AdmissionViewRow) {
  return {
    id: r.id,
    patient: patientRef(r),
    department: departmentRef(r),
    admission_type: r.admission_type,
    reason: r.reason,
    status: r.status,
    queue_number: Number(r.queue_number),
    queue_date: r.queue_date,
    admitted_at: isoRequired(r.admitted_at),
    triage:
      r.triage_id && r.triage_level && r.t_scale && r.t_recorded_at
        ? {
            id: r.triage_id,
            scale: r.t_scale,
            level: r.triage_level,
            rank: Number(r.triage_rank),
            target_minutes: r.triage_target_minutes === null ? null : Number(r.triage_target_minutes),
            recorded_at: isoRequired(r.t_recorded_at),
          }
        : null,
    doctor: personRef(r.doc_id, r.doc_first_name, r.doc_last_name),
    cancel_reason: r.cancel_reason,
    cancelled_at: iso(r.cancelled_at),
    closed_at: iso(r.closed_at),
    discharged_at: iso(r.discharged_at),
    waited_minutes: minutesBetween(r.admitted_at, r.closed_at),
  };
}
export type AdmissionView = ReturnType<typeof toAdmission>;

export async function findAdmissionView(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<AdmissionViewRow>(
    sql`${VIEW_SELECT} where a.hospital_id = ${hospitalId} and a.id = ${id}`,
  );
  const row = res.rows[0];
  return row ? toAdmission(row) : null;
}

/** The admission row, locked for the rest of the transaction (status changes are serialized per visit). */
export async function lockAdmission(
  q: Queryable,
  hospitalId: string,
  id: string,
): Promise<AdmissionRow | null> {
  const [row] = await q
    .select()
    .from(admissions)
    .where(and(eq(admissions.hospitalId, hospitalId), eq(admissions.id, id)))
    .for('update');
  return row ?? null;
}

export interface AdmissionFilters {
  status?: AdmissionStatus[] | undefined;
  department?: string | undefined;
  admission_type?: string | undefined;
  date?: string | undefined;
  doctor?: string | undefined;
  patient?: string | undefined;
  search?: string | undefined;
  ordering: 'queue' | '-admitted_at' | 'admitted_at';
}

export async function listAdmissions(
  q: Queryable,
  hospitalId: string,
  f: AdmissionFilters,
  limit: number,
  offset: number,
): Promise<{ rows: AdmissionView[]; count: number }> {
  const where: SQL[] = [sql`a.hospital_id = ${hospitalId}`];
  if (f.status?.length) where.push(sql`a.status in (${sqlList(f.status)})`);
  if (f.department) where.push(sql`a.department_id = ${f.department}`);
  if (f.admission_type) where.push(sql`a.admission_type = ${f.admission_type}`);
  if (f.date) where.push(sql`a.queue_date = ${f.date}::date`);
  if (f.patient) where.push(sql`a.patient_id = ${f.patient}`);
  if (f.doctor)
    where.push(sql`exists (select 1 from executions e where e.admission_id = a.id and e.doctor_id = ${f.doctor}
      and e.status <> 'cancelled')`);
  if (f.search) {
    const term = f.search.trim();
    where.push(sql`(p.record_number = ${term.toUpperCase()}
      or f_unaccent(lower(p.last_name || ' ' || p.first_name)) %> f_unaccent(lower(${term})))`);
  }
  const cond = sql.join(where, sql` and `);
  const order =
    f.ordering === 'queue'
      ? sql`a.triage_rank asc nulls last, a.admitted_at asc, a.id`
      : f.ordering === 'admitted_at'
        ? sql`a.admitted_at asc, a.id`
        : sql`a.admitted_at desc, a.id desc`;
  const rows = await q.execute<AdmissionViewRow>(
    sql`${VIEW_SELECT} where ${cond} order by ${order} limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from admissions a join patients p on p.id = a.patient_id where ${cond}`,
  );
  return { rows: rows.rows.map(toAdmission), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function openAdmissionOf(q: Queryable, hospitalId: string, patientId: string) {
  const [row] = await q
    .select({ id: admissions.id })
    .from(admissions)
    .where(
      and(
        eq(admissions.hospitalId, hospitalId),
        eq(admissions.patientId, patientId),
        inArray(admissions.status, [...OPEN_ADMISSION_STATUSES]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Ends (or cancels) the open execution and consultation of a visit that ends. */
export async function closeOpenWork(q: Queryable, admissionId: string, outcome: 'completed' | 'cancelled') {
  const now = new Date();
  await q
    .update(executions)
    .set({ status: outcome, completedAt: outcome === 'completed' ? now : null, updatedAt: now })
    .where(
      and(eq(executions.admissionId, admissionId), inArray(executions.status, ['assigned', 'in_progress'])),
    );
  await q
    .update(consultations)
    .set({ status: outcome, completedAt: now, updatedAt: now })
    .where(and(eq(consultations.admissionId, admissionId), eq(consultations.status, 'in_progress')));
}

/** A patient of the hospital a visit (or a consultation) is opened for, with whether the record is archived. */
export async function patientForVisit(q: Queryable, hospitalId: string, patientId: string) {
  const [patient] = await q
    .select({ id: patients.id, archivedAt: patients.archivedAt })
    .from(patients)
    .where(and(eq(patients.hospitalId, hospitalId), eq(patients.id, patientId)));
  return patient ?? null;
}

/** Locks the patient's row: two registrations of one patient's visit are serialized (one open visit at a time). */
export async function lockPatientForVisit(q: Queryable, patientId: string) {
  await q.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId)).for('update');
}

/** A department of the hospital with its kind (the visit types it receives); `active` asks for an active one. */
export async function departmentForVisit(
  q: Queryable,
  hospitalId: string,
  departmentId: string,
  active: boolean,
) {
  const [department] = await q
    .select({ id: departments.id, kind: departments.kind })
    .from(departments)
    .where(
      active
        ? and(
            eq(departments.hospitalId, hospitalId),
            eq(departments.id, departmentId),
            eq(departments.isActive, true),
          )
        : and(eq(departments.hospitalId, hospitalId), eq(departments.id, departmentId)),
    );
  return department ?? null;
}

/** Opens a visit in the department's queue; answers its id. */
export async function insertAdmission(q: Queryable, values: typeof admissions.$inferInsert) {
  const [row] = await q.insert(admissions).values(values).returning({ id: admissions.id });
  return row!.id;
}

/** Columns of a visit a change or a status move writes. */
export type AdmissionChanges = Partial<typeof admissions.$inferInsert>;

export async function updateAdmissionFields(q: Queryable, id: string, values: AdmissionChanges) {
  await q.update(admissions).set(values).where(eq(admissions.id, id));
}

/** A visit back in the queue: its assigned (not started) execution is cancelled. */
export async function cancelAssignedExecution(q: Queryable, admissionId: string, now: Date) {
  await q
    .update(executions)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(executions.admissionId, admissionId), eq(executions.status, 'assigned')));
}
