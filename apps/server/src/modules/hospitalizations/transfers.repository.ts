/**
 * Transfers in SQL (issue 17): the transfer list and detail, the locked transfer and its steps, the other hospitals
 * of the installation. Every query filters on the hospital (the sending or the receiving one).
 */
import type { TTransfer } from '@greensen/shared/contracts/hospitalizations';
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { hospitals, transfers, wards } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';

/** A transfer is open while requested or accepted (one per stay; a discharge waits for it). Alias `t`. */
export const OPEN_TRANSFER = sql.raw(`('requested', 'accepted')`);

type TransferRow = RefRow & {
  id: string;
  hospital_id: string;
  kind: TTransfer['kind'];
  status: TTransfer['status'];
  hospitalization_id: string;
  to_d_id: string | null;
  to_d_code: string | null;
  to_d_name: string | null;
  to_d_kind: string | null;
  to_d_head: string | null;
  to_hospital_id: string | null;
  to_w_id: string | null;
  to_w_code: string | null;
  to_w_name: string | null;
  to_h_id: string | null;
  to_h_code: string | null;
  to_h_name: string | null;
  facility_name: string | null;
  reason: string;
  summary: string | null;
  treatments: string | null;
  rq_id: string;
  rq_first: string;
  rq_last: string;
  requested_at: Date | string;
  dc_id: string | null;
  dc_first: string | null;
  dc_last: string | null;
  decided_at: Date | string | null;
  reject_reason: string | null;
  completed_at: Date | string | null;
};

const TRANSFER_SELECT = sql`select t.id, t.hospital_id, t.kind::text as kind, t.status::text as status,
    t.hospitalization_id, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
    td.id as to_d_id, td.code as to_d_code, td.name as to_d_name, td.kind::text as to_d_kind,
    td.head_user_id as to_d_head, t.to_hospital_id,
    tw.id as to_w_id, tw.code as to_w_code, tw.name as to_w_name,
    th.id as to_h_id, th.code as to_h_code, th.name as to_h_name, t.facility_name, t.reason, t.summary,
    t.treatments, rq.id as rq_id, rq.first_name as rq_first, rq.last_name as rq_last, t.requested_at,
    dc.id as dc_id, dc.first_name as dc_first, dc.last_name as dc_last, t.decided_at, t.reject_reason,
    t.completed_at
  from transfers t
  join patients p on p.id = t.patient_id
  join departments d on d.id = t.from_department_id
  left join departments td on td.id = t.to_department_id
  left join wards tw on tw.id = t.to_ward_id
  left join hospitals th on th.id = t.to_hospital_id
  join users rq on rq.id = t.requested_by
  left join users dc on dc.id = t.decided_by`;

/** What decides who may take a transfer's next step (see TransferService). */
export interface TransferFacts {
  kind: TTransfer['kind'];
  status: TTransfer['status'];
  hospital_id: string;
  to_hospital_id: string | null;
  to_department_id: string | null;
  to_department_head: string | null;
}
export type TransferView = { transfer: Omit<TTransfer, 'can'>; facts: TransferFacts };

function toTransfer(r: TransferRow, hospitalId: string): TransferView {
  return {
    transfer: toTransferBody(r, hospitalId),
    facts: {
      kind: r.kind,
      status: r.status,
      hospital_id: r.hospital_id,
      to_hospital_id: r.to_hospital_id,
      to_department_id: r.to_d_id,
      to_department_head: r.to_d_head,
    },
  };
}

function toTransferBody(r: TransferRow, hospitalId: string): Omit<TTransfer, 'can'> {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    hospitalization: r.hospitalization_id,
    patient: patientRef(r),
    from_department: departmentRef(r),
    to_department: r.to_d_id
      ? { id: r.to_d_id, code: r.to_d_code ?? '', name: r.to_d_name ?? '', kind: r.to_d_kind ?? '' }
      : null,
    to_ward: r.to_w_id ? { id: r.to_w_id, code: r.to_w_code ?? '', name: r.to_w_name ?? '' } : null,
    to_hospital: r.to_h_id ? { id: r.to_h_id, code: r.to_h_code ?? '', name: r.to_h_name ?? '' } : null,
    facility_name: r.facility_name,
    incoming: r.hospital_id !== hospitalId,
    reason: r.reason,
    summary: r.summary,
    treatments: r.treatments,
    requested_by: personRef(r.rq_id, r.rq_first, r.rq_last)!,
    requested_at: isoRequired(r.requested_at),
    decided_by: personRef(r.dc_id, r.dc_first, r.dc_last),
    decided_at: iso(r.decided_at),
    reject_reason: r.reject_reason,
    completed_at: iso(r.completed_at),
  };
}

/** Transfers the hospital sent, or received from another hospital of the installation. */
const visibleTo = (hospitalId: string) =>
  sql`(t.hospital_id = ${hospitalId} or t.to_hospital_id = ${hospitalId})`;

export async function findTransfer(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<TransferRow>(
    sql`${TRANSFER_SELECT} where t.id = ${id} and ${visibleTo(hospitalId)}`,
  );
  return res.rows[0] ? toTransfer(res.rows[0], hospitalId) : null;
}

export async function listTransfers(
  q: Queryable,
  hospitalId: string,
  f: { status: string; direction: string; hospitalization?: string | undefined },
  limit: number,
  offset: number,
) {
  const parts: SQL[] = [];
  if (f.direction === 'incoming')
    parts.push(
      sql`(t.to_hospital_id = ${hospitalId} or (t.hospital_id = ${hospitalId} and t.kind = 'internal'))`,
    );
  else if (f.direction === 'outgoing') parts.push(sql`t.hospital_id = ${hospitalId}`);
  else parts.push(visibleTo(hospitalId));
  if (f.status === 'open') parts.push(sql`t.status in ${OPEN_TRANSFER}`);
  else if (f.status !== 'all') parts.push(sql`t.status = ${f.status}`);
  if (f.hospitalization) parts.push(sql`t.hospitalization_id = ${f.hospitalization}`);
  const where = sql.join(parts, sql` and `);
  const rows = await q.execute<TransferRow>(
    sql`${TRANSFER_SELECT} where ${where} order by t.requested_at desc, t.id desc limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from transfers t where ${where}`,
  );
  return { rows: rows.rows.map((r) => toTransfer(r, hospitalId)), count: Number(counted.rows[0]?.n ?? 0) };
}

/** Locks a transfer visible to the hospital, with what its rules need. */
export async function lockTransfer(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    hospital_id: string;
    hospitalization_id: string;
    patient_id: string;
    kind: TTransfer['kind'];
    status: TTransfer['status'];
    from_department_id: string;
    to_department_id: string | null;
    to_ward_id: string | null;
    to_hospital_id: string | null;
    requested_by: string;
    summary: string | null;
    treatments: string | null;
    to_department_head: string | null;
  }>(sql`select t.id, t.hospital_id, t.hospitalization_id, t.patient_id, t.kind::text as kind,
      t.status::text as status, t.from_department_id, t.to_department_id, t.to_ward_id, t.to_hospital_id,
      t.requested_by, t.summary, t.treatments,
      (select head_user_id from departments where id = t.to_department_id) as to_department_head
    from transfers t where t.id = ${id} and ${visibleTo(hospitalId)} for update`);
  return res.rows[0] ?? null;
}
export type LockedTransfer = NonNullable<Awaited<ReturnType<typeof lockTransfer>>>;

/** Transfers of a stay still requested or accepted (a discharge waits for them). */
export async function openTransferCount(q: Queryable, stayId: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from transfers where hospitalization_id = ${stayId} and status in ${OPEN_TRANSFER}`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** The other active hospitals of the installation (the receiving facility of an external transfer). */
export function otherActiveHospitals(q: Queryable, hospitalId: string) {
  return q
    .select({ id: hospitals.id, code: hospitals.code, name: hospitals.name })
    .from(hospitals)
    .where(and(eq(hospitals.isActive, true), ne(hospitals.id, hospitalId)))
    .orderBy(hospitals.name)
    .limit(500);
}

/** An active hospital of the installation, by id (the receiving hospital of an external transfer). */
export async function findActiveHospital(q: Queryable, id: string) {
  const [other] = await q
    .select({ id: hospitals.id })
    .from(hospitals)
    .where(and(eq(hospitals.id, id), eq(hospitals.isActive, true)));
  return other ?? null;
}

/** A ward of the hospital with its department and whether it is active (the receiving ward). */
export async function findWardOfHospital(q: Queryable, hospitalId: string, wardId: string) {
  const [ward] = await q
    .select({ departmentId: wards.departmentId, isActive: wards.isActive })
    .from(wards)
    .where(and(eq(wards.id, wardId), eq(wards.hospitalId, hospitalId)));
  return ward ?? null;
}

/** Records a transfer request; answers its id. */
export async function insertTransfer(q: Queryable, values: typeof transfers.$inferInsert) {
  const [row] = await q.insert(transfers).values(values).returning({ id: transfers.id });
  return row;
}

/** The receiving side's answer (accepted or rejected). */
export async function recordTransferDecision(
  q: Queryable,
  id: string,
  decision: {
    status: 'accepted' | 'rejected';
    decidedBy: string;
    decidedAt: Date;
    rejectReason: string | null;
  },
) {
  await q
    .update(transfers)
    .set({ ...decision, updatedAt: decision.decidedAt })
    .where(eq(transfers.id, id));
}

export async function markTransferCompleted(q: Queryable, id: string, now: Date) {
  await q
    .update(transfers)
    .set({ status: 'completed', completedAt: now, updatedAt: now })
    .where(eq(transfers.id, id));
}

export async function markTransferCancelled(q: Queryable, id: string, now: Date) {
  await q.update(transfers).set({ status: 'cancelled', updatedAt: now }).where(eq(transfers.id, id));
}

/** The patient's name, for a transfer's notification. */
export async function patientNameOf(q: Queryable, patientId: string) {
  const p = await q.execute<{ first_name: string; last_name: string }>(
    sql`select first_name, last_name from patients where id = ${patientId}`,
  );
  return p.rows[0] ?? null;
}
