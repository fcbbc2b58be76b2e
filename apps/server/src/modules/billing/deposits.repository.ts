import type { TDepositStay } from '@greensen/shared/contracts/billing';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { OPEN_STAY } from '../care/care.repository.js';
import { stayPatientMatches } from '../hospitalizations/hospitalizations.repository.js';

// The SQL of deposits on admission (issue 21, decision 0036): a deposit is a payment of the stay's invoice.

/** The live invoice of a stay (the partial unique index `invoices_hospitalization_uq` finds it). */
export async function liveInvoiceOfStay(
  q: Queryable,
  hospitalId: string,
  stayId: string,
): Promise<string | null> {
  const res = await q.execute<{ id: string }>(sql`select id from invoices
    where hospitalization_id = ${stayId} and hospital_id = ${hospitalId} and kind = 'invoice'
      and status <> 'cancelled'`);
  return res.rows[0]?.id ?? null;
}

/** The patient of a stay of the hospital, or null. */
export async function patientOfStay(
  q: Queryable,
  hospitalId: string,
  stayId: string,
): Promise<string | null> {
  const res = await q.execute<{ patient_id: string }>(
    sql`select patient_id from hospitalizations where id = ${stayId} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0]?.patient_id ?? null;
}

type DepositStayRow = {
  id: string;
  status: TDepositStay['status'];
  patient_id: string;
  record_number: string;
  first_name: string;
  last_name: string;
  department: string;
  requested_at: Date | string;
  admitted_at: Date | string | null;
};

const DEPOSIT_STAY_SELECT = sql`select s.id, s.status::text as status, s.patient_id, p.record_number,
  p.first_name, p.last_name, d.name as department, s.requested_at, s.admitted_at`;
const DEPOSIT_STAY_FROM = sql`from hospitalizations s
  join patients p on p.id = s.patient_id
  join departments d on d.id = s.department_id`;

function toDepositStay(r: DepositStayRow): TDepositStay {
  return {
    id: r.id,
    status: r.status,
    patient: {
      id: r.patient_id,
      record_number: r.record_number,
      full_name: fullName(r.first_name, r.last_name),
    },
    department: r.department,
    requested_at: isoRequired(r.requested_at),
    admitted_at: iso(r.admitted_at),
  };
}

/**
 * The open stays of the hospital for the cash desk (decision 0088), newest first, filtered by the patient's name
 * or record number as the ward's list is; the count only past a full first page.
 */
export async function listDepositStays(
  q: Queryable,
  hospitalId: string,
  search: string | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: TDepositStay[]; count: number }> {
  const where = sql`s.hospital_id = ${hospitalId} and s.status in ${OPEN_STAY}${
    search ? sql` and ${stayPatientMatches(search)}` : sql``
  }`;
  const res = await q.execute<DepositStayRow>(sql`${DEPOSIT_STAY_SELECT} ${DEPOSIT_STAY_FROM} where ${where}
    order by s.requested_at desc, s.id desc limit ${limit} offset ${offset}`);
  const rows = res.rows.map(toDepositStay);
  if (offset === 0 && rows.length < limit) return { rows, count: rows.length };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n ${DEPOSIT_STAY_FROM} where ${where}`,
  );
  return { rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/** A deposit receipt's stay (any status: the receipt outlives the stay), or null. */
export async function depositStayOf(q: Queryable, hospitalId: string, stayId: string) {
  const res = await q.execute<DepositStayRow>(
    sql`${DEPOSIT_STAY_SELECT} ${DEPOSIT_STAY_FROM} where s.hospital_id = ${hospitalId} and s.id = ${stayId}`,
  );
  const row = res.rows[0];
  if (!row) return null;
  const { id, department, requested_at, admitted_at } = toDepositStay(row);
  return { id, department, requested_at, admitted_at };
}
