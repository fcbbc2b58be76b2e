import { AUDIT_COUNT_CAP, type TAuditActor } from '@greensen/shared/contracts/audit';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { prefixPattern } from '../../lib/queries.js';

export interface AuditFilters {
  user?: string | undefined;
  patient?: string | undefined;
  action?: string | undefined;
  outcome?: string | undefined;
  resource?: string | undefined;
  resource_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

type AuditRow = {
  id: string;
  occurred_at: Date | string;
  user_id: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  u_email: string | null;
  ob_id: string | null;
  ob_first_name: string | null;
  ob_last_name: string | null;
  role_code: string | null;
  hospital_id: string | null;
  p_id: string | null;
  p_record_number: string | null;
  p_first_name: string | null;
  p_last_name: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  outcome: string;
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown> | string | null;
  /** `occurred_at` as text, with its microseconds: the keyset of `auditBatches`. */
  at_key: string;
};

/** `details.system.on_behalf_of` is cast to uuid only when it is one (the join must never fail a listing). */
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** `LIKE` prefix of an action family (`patient.*` → `patient.%`), its wildcards escaped. */
const likePrefix = (action: string) => prefixPattern(action.slice(0, -1));

function conditions(hospitalId: string, f: AuditFilters): SQL {
  const where: SQL[] = [sql`a.hospital_id = ${hospitalId}`];
  if (f.user) where.push(sql`a.user_id = ${f.user}`);
  if (f.patient) where.push(sql`a.patient_id = ${f.patient}`);
  if (f.action)
    where.push(
      f.action.endsWith('.*') ? sql`a.action like ${likePrefix(f.action)}` : sql`a.action = ${f.action}`,
    );
  if (f.outcome) where.push(sql`a.outcome = ${f.outcome}`);
  if (f.resource) where.push(sql`a.resource_type = ${f.resource}`);
  if (f.resource_id) where.push(sql`a.resource_id = ${f.resource_id}`);
  if (f.from) where.push(sql`a.occurred_at >= ${f.from}::timestamptz`);
  if (f.to) where.push(sql`a.occurred_at < ${f.to}::timestamptz`);
  return sql.join(where, sql` and `);
}

/** The audit rows with who acted, on whose behalf, and the patient when it is one of the hospital's. */
const auditSelect = (hospitalId: string) => sql`
    select a.id, a.occurred_at, a.user_id, u.first_name as u_first_name, u.last_name as u_last_name,
           u.email as u_email, ob.id as ob_id, ob.first_name as ob_first_name, ob.last_name as ob_last_name,
           a.role_code, a.hospital_id, p.id as p_id, p.record_number as p_record_number,
           p.first_name as p_first_name, p.last_name as p_last_name, a.action, a.resource_type, a.resource_id,
           a.outcome, a.ip, a.request_id, a.details, a.occurred_at::text as at_key
      from audit_events a
      left join users u on u.id = a.user_id
      left join users ob on ob.id = (case when a.details->'system'->>'on_behalf_of' ~* ${UUID_PATTERN}
                                          then (a.details->'system'->>'on_behalf_of')::uuid end)
      left join patients p on p.id = a.patient_id and p.hospital_id = ${hospitalId}`;

/**
 * A page of a hospital's audit rows, newest first. Every query starts from the hospital (index
 * `audit_hospital_time_idx`, walked backwards in time) or from the user or patient filter (indexes
 * `audit_user_time_idx`, `audit_patient_time_idx`); the count stops at AUDIT_COUNT_CAP. The patient is named only
 * when it is one of this hospital's.
 */
export async function listAudit(
  q: Queryable,
  hospitalId: string,
  f: AuditFilters,
  limit: number,
  offset: number,
) {
  const where = conditions(hospitalId, f);
  const rows = await q.execute<AuditRow>(sql`${auditSelect(hospitalId)}
     where ${where}
     order by a.occurred_at desc, a.id desc
     limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from audit_events a where ${where} limit ${AUDIT_COUNT_CAP + 1}) t`,
  );
  const n = Number(counted.rows[0]?.n ?? 0);
  return {
    rows: rows.rows.map(toAuditEvent),
    count: Math.min(n, AUDIT_COUNT_CAP),
    capped: n > AUDIT_COUNT_CAP,
  };
}

interface SystemDetails {
  source?: unknown;
  on_behalf_of?: unknown;
  rule?: unknown;
}

/** Who acted (issue 14): the user; the system, from `details.system` written by the audit plugin; or nobody. */
function actorOf(r: AuditRow, details: Record<string, unknown> | null): TAuditActor {
  const system = details?.system as SystemDetails | undefined;
  if (system && typeof system.source === 'string')
    return {
      kind: 'system',
      source: system.source,
      on_behalf_of: r.ob_id ? { id: r.ob_id, full_name: fullName(r.ob_first_name, r.ob_last_name) } : null,
      rule: typeof system.rule === 'string' ? system.rule : null,
    };
  if (r.user_id) return { kind: 'user', id: r.user_id, full_name: fullName(r.u_first_name, r.u_last_name) };
  return { kind: 'anonymous' };
}

function toAuditEvent(r: AuditRow) {
  const details =
    typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details;
  return {
    id: r.id,
    occurred_at: isoRequired(r.occurred_at),
    actor: actorOf(r, details),
    user: r.user_id
      ? { id: r.user_id, full_name: fullName(r.u_first_name, r.u_last_name), email: r.u_email ?? '' }
      : null,
    role_code: r.role_code,
    hospital: r.hospital_id,
    patient: r.p_id
      ? { id: r.p_id, record_number: r.p_record_number, full_name: fullName(r.p_first_name, r.p_last_name) }
      : null,
    action: r.action,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
    outcome: r.outcome,
    ip: r.ip,
    request_id: r.request_id,
    details,
  };
}

export type AuditEvent = ReturnType<typeof toAuditEvent>;

/**
 * Every audit row of the filters, newest first, in batches walked by keyset (occurred_at, id) on the same
 * indexes as the list: the CSV export never holds more than one batch nor re-reads skipped rows.
 */
export async function* auditBatches(
  q: Queryable,
  hospitalId: string,
  f: AuditFilters,
  max: number,
  batch = 500,
): AsyncGenerator<AuditEvent[]> {
  const where = conditions(hospitalId, f);
  let after: { at: string; id: string } | null = null;
  let sent = 0;
  while (sent < max) {
    const keyset: SQL = after
      ? sql` and (a.occurred_at, a.id) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql``;
    const size = Math.min(batch, max - sent);
    const res = await q.execute<AuditRow>(sql`${auditSelect(hospitalId)}
       where ${where}${keyset} order by a.occurred_at desc, a.id desc limit ${size}`);
    if (res.rows.length === 0) return;
    const last = res.rows[res.rows.length - 1]!;
    // The text of the timestamp keeps its microseconds (a Date would lose them and repeat rows).
    after = { at: String(last.at_key), id: last.id };
    sent += res.rows.length;
    yield res.rows.map(toAuditEvent);
    if (res.rows.length < size) return;
  }
}

type AccessRow = {
  id: string;
  occurred_at: Date | string;
  user_id: string | null;
  first_name: string | null;
  last_name: string | null;
  role_code: string | null;
  action: string;
  resource_type: string | null;
  ip: string | null;
};

/**
 * Who opened a patient's record (reads of the patient or of their records: `*.read`), newest first, from the
 * hospital's audit rows about them (index `audit_patient_time_idx`).
 */
export async function listPatientAccess(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  limit: number,
  offset: number,
) {
  const where = sql`a.patient_id = ${patientId} and a.hospital_id = ${hospitalId} and a.outcome = 'success'
    and a.action like '%.read'`;
  const rows = await q.execute<AccessRow>(sql`
    select a.id, a.occurred_at, a.user_id, u.first_name, u.last_name, a.role_code, a.action, a.resource_type, a.ip
      from audit_events a left join users u on u.id = a.user_id
     where ${where} order by a.occurred_at desc, a.id desc limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from audit_events a where ${where} limit ${AUDIT_COUNT_CAP + 1}) t`,
  );
  const n = Number(counted.rows[0]?.n ?? 0);
  return {
    count: Math.min(n, AUDIT_COUNT_CAP),
    capped: n > AUDIT_COUNT_CAP,
    rows: rows.rows.map((r) => ({
      id: r.id,
      occurred_at: isoRequired(r.occurred_at),
      user: r.user_id ? { id: r.user_id, full_name: fullName(r.first_name, r.last_name) } : null,
      role_code: r.role_code,
      action: r.action,
      resource_type: r.resource_type,
      ip: r.ip,
    })),
  };
}
