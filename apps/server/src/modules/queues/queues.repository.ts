import { ROLE_GROUPS } from '@greensen/shared/domain/roles';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { admissions, consultations, executions, patients, users } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  fullName,
  iso,
  isoRequired,
  minutesBetween,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';
import { containsPattern, hospitalMidnight, sqlList } from '../../lib/queries.js';

const KNOWN_CODES = Object.keys(ROLE_GROUPS);
const PRACTITIONER_CODES = Object.entries(ROLE_GROUPS)
  .filter(([, g]) => g === 'doctor' || g === 'head_doctor' || g === 'midwife')
  .map(([c]) => c);

/** Practitioner memberships: doctor, head doctor, midwife — and unknown codes, which are doctors (§6). */
const PRACTITIONER_MEMBERSHIP = sql`(upper(m.role_code) in (${sqlList(PRACTITIONER_CODES)}) or upper(m.role_code) not in (${sqlList(KNOWN_CODES)}))`;

export async function listDepartments(
  q: Queryable,
  hospitalId: string,
  kind: string | undefined,
  limit: number,
  offset: number,
) {
  const cond = sql`d.hospital_id = ${hospitalId} ${kind ? sql`and d.kind = ${kind}` : sql``}`;
  const rows = await q.execute<{
    id: string;
    code: string;
    name: string;
    kind: string;
    is_active: boolean;
    head_id: string | null;
    head_first: string | null;
    head_last: string | null;
  }>(
    sql`select d.id, d.code, d.name, d.kind, d.is_active, u.id as head_id, u.first_name as head_first,
        u.last_name as head_last
      from departments d left join users u on u.id = d.head_user_id
      where ${cond} order by d.name, d.id limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from departments d where ${cond}`,
  );
  return {
    rows: rows.rows.map(({ head_id, head_first, head_last, ...d }) => ({
      ...d,
      head: head_id ? { id: head_id, full_name: `${head_first} ${head_last}` } : null,
    })),
    count: Number(counted.rows[0]?.n ?? 0),
  };
}

export async function departmentExists(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ id: string }>(
    sql`select id from departments where hospital_id = ${hospitalId} and id = ${id}`,
  );
  return res.rows.length > 0;
}

type DoctorRow = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  role_codes: string[] | string;
  departments: { id: string; code: string; name: string; kind: string }[] | string | null;
  waiting: number;
  in_progress: number;
  completed_today: number;
  avg_minutes: number | string | null;
};

const parseJson = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function toDoctor(r: DoctorRow) {
  const avg = r.avg_minutes === null ? null : Math.round(Number(r.avg_minutes) * 10) / 10;
  return {
    id: r.id,
    full_name: fullName(r.first_name, r.last_name),
    email: r.email,
    role_codes: parseJson<string[]>(r.role_codes) ?? [],
    departments: parseJson(r.departments) ?? [],
    workload: {
      waiting: Number(r.waiting),
      in_progress: Number(r.in_progress),
      completed_today: Number(r.completed_today),
      average_consultation_minutes: avg,
    },
  };
}
export type DoctorView = ReturnType<typeof toDoctor>;

/**
 * Practitioners of the hospital with their departments and today's load, in one query (no N+1): open
 * executions and the executions completed since midnight (hospital time) are aggregated per doctor.
 */
export async function listDoctors(
  q: Queryable,
  hospitalId: string,
  f: {
    department?: string | undefined;
    search?: string | undefined;
    doctorId?: string;
    ordering: 'load' | 'name';
    /** The visit being assigned: the practitioners of its department come first. */
    admission?: string | undefined;
  },
  limit: number,
  offset: number,
): Promise<{ rows: DoctorView[]; count: number }> {
  const where: SQL[] = [
    sql`m.hospital_id = ${hospitalId}`,
    sql`m.is_active`,
    sql`u.is_active`,
    PRACTITIONER_MEMBERSHIP,
  ];
  if (f.department) where.push(sql`m.department_id = ${f.department}`);
  if (f.doctorId) where.push(sql`u.id = ${f.doctorId}`);
  if (f.search)
    where.push(
      sql`f_unaccent(lower(u.first_name || ' ' || u.last_name)) like ${containsPattern(f.search.toLowerCase())}`,
    );
  const cond = sql.join(where, sql` and `);
  const byOrdering =
    f.ordering === 'load'
      ? sql`(coalesce(l.waiting, 0) + coalesce(l.in_progress, 0)) asc, docs.last_name, docs.first_name, docs.id`
      : sql`docs.last_name, docs.first_name, docs.id`;
  const order = f.admission ? sql`docs.in_visit_department desc, ${byOrdering}` : byOrdering;
  const visitDepartment = f.admission
    ? sql`(select a.department_id from admissions a where a.id = ${f.admission} and a.hospital_id = ${hospitalId})`
    : sql`null::uuid`;
  const rows = await q.execute<DoctorRow>(sql`
    with docs as (
      select u.id, u.first_name, u.last_name, u.email,
        array_to_json(array_agg(distinct m.role_code)) as role_codes,
        coalesce(json_agg(distinct jsonb_build_object('id', d.id, 'code', d.code, 'name', d.name, 'kind', d.kind))
          filter (where d.id is not null), '[]'::json) as departments,
        coalesce(bool_or(m.department_id = ${visitDepartment}), false) as in_visit_department
      from memberships m
      join users u on u.id = m.user_id
      left join departments d on d.id = m.department_id
      where ${cond}
      group by u.id
    ), day as (select ${hospitalMidnight(hospitalId)} as start),
    l as (
      select e.doctor_id,
        count(*) filter (where e.status = 'assigned')::int as waiting,
        count(*) filter (where e.status = 'in_progress')::int as in_progress,
        count(*) filter (where e.status = 'completed')::int as completed_today,
        avg(extract(epoch from (e.completed_at - e.started_at)) / 60)
          filter (where e.status = 'completed' and e.started_at is not null) as avg_minutes
      from executions e, day
      where e.hospital_id = ${hospitalId} and e.doctor_id in (select id from docs)
        and (e.status in ('assigned', 'in_progress') or (e.status = 'completed' and e.completed_at >= day.start))
      group by e.doctor_id
    )
    select docs.id, docs.first_name, docs.last_name, docs.email, docs.role_codes, docs.departments,
      coalesce(l.waiting, 0) as waiting, coalesce(l.in_progress, 0) as in_progress,
      coalesce(l.completed_today, 0) as completed_today, l.avg_minutes
    from docs left join l on l.doctor_id = docs.id
    order by ${order}
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(sql`select count(distinct u.id)::int as n
    from memberships m join users u on u.id = m.user_id where ${cond}`);
  return { rows: rows.rows.map(toDoctor), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findDoctor(q: Queryable, hospitalId: string, id: string) {
  const res = await listDoctors(q, hospitalId, { doctorId: id, ordering: 'name' }, 1, 0);
  return res.rows[0] ?? null;
}

type ExecutionRow = RefRow & {
  e_id: string | null;
  e_status: 'assigned' | 'in_progress' | 'completed' | 'cancelled' | null;
  scheduled_at: Date | string | null;
  started_at: Date | string | null;
  completed_at: Date | string | null;
  admission_id: string;
  admission_status: string;
  queue_number: number;
  admitted_at: Date | string;
  closed_at: Date | string | null;
  triage_level: string | null;
  triage_rank: number | null;
  triage_target_minutes: number | null;
  doc_id: string | null;
  doc_first_name: string | null;
  doc_last_name: string | null;
};

function toExecution(r: ExecutionRow) {
  const end = r.started_at ?? r.closed_at;
  const waited = minutesBetween(r.admitted_at, end);
  const target = r.triage_target_minutes === null ? null : Number(r.triage_target_minutes);
  return {
    id: r.e_id,
    kind: 'consultation' as const,
    admission_id: r.admission_id,
    admission_status: r.admission_status,
    patient: patientRef(r),
    department: departmentRef(r),
    doctor: personRef(r.doc_id, r.doc_first_name, r.doc_last_name),
    status: r.e_status ?? ('unassigned' as const),
    priority: r.triage_rank === null ? null : Number(r.triage_rank),
    triage_level: r.triage_level,
    target_minutes: target,
    queue_number: Number(r.queue_number),
    admitted_at: isoRequired(r.admitted_at),
    scheduled_at: iso(r.scheduled_at),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    waited_minutes: waited,
    target_exceeded: target !== null && !r.started_at && waited > target,
  };
}

const EXECUTION_COLUMNS = sql`e.id as e_id, e.status as e_status, e.scheduled_at, e.started_at, e.completed_at,
  a.id as admission_id, a.status as admission_status, a.queue_number, a.admitted_at, a.closed_at,
  a.triage_level, a.triage_rank, a.triage_target_minutes,
  doc.id as doc_id, doc.first_name as doc_first_name, doc.last_name as doc_last_name,
  ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}`;

/** A doctor's executions, by triage level (untriaged last) then arrival. */
export async function doctorQueue(
  q: Queryable,
  hospitalId: string,
  doctorId: string,
  status: 'open' | 'completed' | 'all',
  limit: number,
  offset: number,
) {
  const statusCond =
    status === 'open'
      ? sql`e.status in ('assigned', 'in_progress')`
      : status === 'completed'
        ? sql`e.status = 'completed' and e.completed_at >= ${hospitalMidnight(hospitalId)}`
        : sql`(e.status in ('assigned', 'in_progress') or e.completed_at >= ${hospitalMidnight(hospitalId)})`;
  const cond = sql`e.hospital_id = ${hospitalId} and e.doctor_id = ${doctorId} and ${statusCond}`;
  const order =
    status === 'completed'
      ? sql`e.completed_at desc, e.id`
      : sql`a.triage_rank asc nulls last, a.admitted_at asc, e.id`;
  const rows = await q.execute<ExecutionRow>(sql`select ${EXECUTION_COLUMNS}
    from executions e
    join admissions a on a.id = e.admission_id
    join patients p on p.id = e.patient_id
    join departments d on d.id = a.department_id
    join users doc on doc.id = e.doctor_id
    where ${cond} order by ${order} limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from executions e where ${cond}`,
  );
  return { rows: rows.rows.map(toExecution), count: Number(counted.rows[0]?.n ?? 0) };
}

/** A department's open visits not yet in consultation: unassigned (waiting) and assigned. */
export async function departmentQueue(
  q: Queryable,
  hospitalId: string,
  departmentId: string,
  status: 'all' | 'unassigned' | 'assigned',
  limit: number,
  offset: number,
) {
  const statuses =
    status === 'all'
      ? sql`('waiting', 'assigned')`
      : status === 'assigned'
        ? sql`('assigned')`
        : sql`('waiting')`;
  const cond = sql`a.hospital_id = ${hospitalId} and a.department_id = ${departmentId} and a.status in ${statuses}`;
  const rows = await q.execute<ExecutionRow>(sql`select ${EXECUTION_COLUMNS}
    from admissions a
    join patients p on p.id = a.patient_id
    join departments d on d.id = a.department_id
    left join executions e on e.admission_id = a.id and e.status in ('assigned', 'in_progress')
    left join users doc on doc.id = e.doctor_id
    where ${cond}
    order by a.triage_rank asc nulls last, a.admitted_at asc, a.id
    limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from admissions a where ${cond}`,
  );
  return { rows: rows.rows.map(toExecution), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findExecutionView(q: Queryable, hospitalId: string, executionId: string) {
  const rows = await q.execute<ExecutionRow>(sql`select ${EXECUTION_COLUMNS}
    from executions e
    join admissions a on a.id = e.admission_id
    join patients p on p.id = e.patient_id
    join departments d on d.id = a.department_id
    join users doc on doc.id = e.doctor_id
    where e.hospital_id = ${hospitalId} and e.id = ${executionId}`);
  const row = rows.rows[0];
  return row ? toExecution(row) : null;
}

// Assigning and starting a consultation ------------------------------------------------------------------

/** Locks the visit's open consultation execution (assigned or in progress), or null. */
export async function lockOpenExecution(q: Queryable, admissionId: string) {
  const [row] = await q
    .select()
    .from(executions)
    .where(
      and(eq(executions.admissionId, admissionId), inArray(executions.status, ['assigned', 'in_progress'])),
    )
    .for('update');
  return row ?? null;
}

/** Writes the given columns of an execution. */
export async function updateExecutionColumns(
  q: Queryable,
  id: string,
  values: Partial<typeof executions.$inferInsert>,
) {
  await q.update(executions).set(values).where(eq(executions.id, id));
}

/** Inserts an execution; its id. */
export async function insertExecution(q: Queryable, values: typeof executions.$inferInsert): Promise<string> {
  const [row] = await q.insert(executions).values(values).returning({ id: executions.id });
  return row!.id;
}

/** Sets a visit's status. */
export async function setAdmissionStatus(
  q: Queryable,
  admissionId: string,
  status: (typeof admissions.$inferInsert)['status'],
  at: Date,
) {
  await q.update(admissions).set({ status, updatedAt: at }).where(eq(admissions.id, admissionId));
}

/** Inserts a consultation; the row written. */
export async function insertConsultation(q: Queryable, values: typeof consultations.$inferInsert) {
  const [row] = await q.insert(consultations).values(values).returning();
  return row!;
}

/** A patient's names and record number (notification texts), or undefined. */
export async function patientNameAndRecord(q: Queryable, patientId: string) {
  const [p] = await q
    .select({ first: patients.firstName, last: patients.lastName, record: patients.recordNumber })
    .from(patients)
    .where(eq(patients.id, patientId));
  return p;
}

/** A user's names, or undefined. */
export async function userNames(q: Queryable, userId: string) {
  const [u] = await q
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return u;
}
