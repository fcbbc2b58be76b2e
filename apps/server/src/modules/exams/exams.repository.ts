import {
  ageInYears,
  type ExamField,
  type ExamKind,
  type ExamResultEntry,
  type ExamStatus,
  type ExamUrgency,
  examResultLines,
} from '@greensen/shared/domain/exams';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { examOrders } from '../../db/schema/index.js';
import {
  ageOf,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';
import { containsPattern, hospitalMidnight, prefixPattern, sqlList } from '../../lib/queries.js';

/** The per-hospital sequence of order numbers. */
export const EXAM_ORDER_SEQUENCE = 'exam_order';

/** `HGG-EX-000042`: the hospital's code and the order's number, printed on specimen labels. */
export function formatOrderNumber(hospitalCode: string, n: number): string {
  return `${hospitalCode}-EX-${String(n).padStart(6, '0')}`;
}

// ---------------------------------------------------------------------------------------------------------
// Catalogue

type CatalogueRow = {
  id: string;
  code: string;
  kind: ExamKind;
  category: string;
  name_fr: string;
  name_en: string;
  specimen: string | null;
  fields: ExamField[] | string;
};

const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const toCatalogueExam = (r: CatalogueRow) => ({
  id: r.id,
  code: r.code,
  kind: r.kind,
  category: r.category,
  name_fr: r.name_fr,
  name_en: r.name_en,
  specimen: r.specimen,
  fields: jsonOf(r.fields),
});
export type CatalogueExam = ReturnType<typeof toCatalogueExam>;

export async function listCatalogue(
  q: Queryable,
  f: { search?: string | undefined; kind?: ExamKind | undefined; category?: string | undefined },
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`c.active`];
  if (f.kind) where.push(sql`c.kind = ${f.kind}`);
  if (f.category) where.push(sql`c.category = ${f.category}`);
  let rank: SQL | null = null;
  if (f.search) {
    const term = f.search.trim();
    const hay = sql`f_unaccent(lower(c.code || ' ' || c.name_fr || ' ' || c.name_en))`;
    const like = containsPattern(term);
    where.push(
      sql`(${hay} like f_unaccent(lower(${like})) escape '\\' or ${hay} %> f_unaccent(lower(${term})))`,
    );
    rank = sql`case when upper(c.code) = ${term.toUpperCase()} then 0
      when ${hay} like f_unaccent(lower(${prefixPattern(term)})) escape '\\' then 1 else 2 end`;
  }
  const cond = sql.join(where, sql` and `);
  const rows =
    await q.execute<CatalogueRow>(sql`select c.id, c.code, c.kind, c.category, c.name_fr, c.name_en,
      c.specimen, c.fields
    from exam_catalogue c where ${cond}
    order by ${rank ? sql`${rank}, ` : sql``}c.sort_order, c.code limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from exam_catalogue c where ${cond}`,
  );
  return { rows: rows.rows.map(toCatalogueExam), count: Number(counted.rows[0]?.n ?? 0) };
}

/** Active catalogue exams by id or code (case-insensitive), in one query. */
export async function findCatalogueExams(q: Queryable, refs: readonly string[]) {
  const ids = refs.filter((r) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(r));
  const codes = refs.map((r) => r.toUpperCase());
  const byId = ids.length
    ? sql`c.id in (${sql.join(
        ids.map((i) => sql`${i}::uuid`),
        sql`, `,
      )})`
    : sql`false`;
  const res = await q.execute<CatalogueRow>(sql`select c.id, c.code, c.kind, c.category, c.name_fr, c.name_en,
      c.specimen, c.fields
    from exam_catalogue c
    where c.active and (${byId} or upper(c.code) in (${sqlList(codes)}))`);
  return res.rows.map(toCatalogueExam);
}

/** The hospital's active performing department of a kind (`laboratory`, `imaging`), first by code. */
export async function performingDepartment(q: Queryable, hospitalId: string, kind: 'laboratory' | 'imaging') {
  const res = await q.execute<{ id: string }>(
    sql`select id from departments where hospital_id = ${hospitalId} and kind = ${kind} and is_active
      order by code limit 1`,
  );
  return res.rows[0]?.id ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Orders

type OrderRow = RefRow & {
  id: string;
  order_number: string;
  consultation_id: string | null;
  admission_id: string | null;
  urgency: ExamUrgency;
  clinical_info: string | null;
  status: ExamStatus;
  results: Record<string, ExamResultEntry> | string | null;
  report: string | null;
  abnormal: boolean;
  requested_by: string;
  requested_at: Date | string;
  started_at: Date | string | null;
  resulted_at: Date | string | null;
  validated_at: Date | string | null;
  acknowledged_at: Date | string | null;
  cancelled_at: Date | string | null;
  cancel_reason: string | null;
  version: number;
  department_id: string | null;
  c_id: string;
  c_code: string;
  c_kind: ExamKind;
  c_category: string;
  c_name_fr: string;
  c_name_en: string;
  c_specimen: string | null;
  c_fields: ExamField[] | string;
  rq_first: string;
  rq_last: string;
  st_id: string | null;
  st_first: string | null;
  st_last: string | null;
  rs_id: string | null;
  rs_first: string | null;
  rs_last: string | null;
  va_id: string | null;
  va_first: string | null;
  va_last: string | null;
  ca_id: string | null;
  ca_first: string | null;
  ca_last: string | null;
};

const ORDER_SELECT = sql`select o.id, o.order_number, o.consultation_id, o.admission_id, o.urgency, o.clinical_info,
    o.status, o.results, o.report, o.abnormal, o.requested_by, o.requested_at, o.started_at, o.resulted_at,
    o.validated_at, o.acknowledged_at, o.cancelled_at, o.cancel_reason, o.version, o.department_id,
    c.id as c_id, c.code as c_code, c.kind as c_kind, c.category as c_category, c.name_fr as c_name_fr,
    c.name_en as c_name_en, c.specimen as c_specimen, c.fields as c_fields,
    d.id as d_id, d.code as d_code, d.name as d_name, d.kind as d_kind,
    rq.first_name as rq_first, rq.last_name as rq_last,
    st.id as st_id, st.first_name as st_first, st.last_name as st_last,
    rs.id as rs_id, rs.first_name as rs_first, rs.last_name as rs_last,
    va.id as va_id, va.first_name as va_first, va.last_name as va_last,
    ca.id as ca_id, ca.first_name as ca_first, ca.last_name as ca_last,
    ${PATIENT_REF_COLUMNS}
  from exam_orders o
  join patients p on p.id = o.patient_id
  join exam_catalogue c on c.id = o.exam_id
  join users rq on rq.id = o.requested_by
  left join departments d on d.id = o.department_id
  left join users st on st.id = o.started_by
  left join users rs on rs.id = o.resulted_by
  left join users va on va.id = o.validated_by
  left join users ca on ca.id = o.cancelled_by`;

/** An order with everything its views need; `actions` are added by the service (they depend on the user). */
export function toOrderView(r: OrderRow) {
  const fields = jsonOf(r.c_fields);
  const results = r.results === null ? null : jsonOf(r.results);
  // Reference ranges use the age at sampling (the start of the work; the request before that).
  const referenceAge = ageInYears(r.p_birth_date, new Date(r.started_at ?? r.requested_at));
  const facts = { sex: r.p_sex, age: referenceAge };
  return {
    id: r.id,
    order_number: r.order_number,
    patient: patientRef(r),
    exam: {
      id: r.c_id,
      code: r.c_code,
      kind: r.c_kind,
      category: r.c_category,
      name_fr: r.c_name_fr,
      name_en: r.c_name_en,
      specimen: r.c_specimen,
    },
    department: r.d_id ? { id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind } : null,
    consultation: r.consultation_id,
    admission: r.admission_id,
    urgency: r.urgency,
    clinical_info: r.clinical_info,
    status: r.status,
    abnormal: r.abnormal,
    result_lines: examResultLines(fields, results, facts),
    has_report: Boolean(r.report?.trim()),
    requested_by: personRef(r.requested_by, r.rq_first, r.rq_last)!,
    requested_at: isoRequired(r.requested_at),
    started_at: iso(r.started_at),
    resulted_at: iso(r.resulted_at),
    validated_at: iso(r.validated_at),
    acknowledged_at: iso(r.acknowledged_at),
    cancelled_at: iso(r.cancelled_at),
    version: Number(r.version),
    // Detail-only parts.
    fields,
    results,
    report: r.report,
    reference_age: referenceAge,
    started_by: personRef(r.st_id, r.st_first, r.st_last),
    resulted_by: personRef(r.rs_id, r.rs_first, r.rs_last),
    validated_by: personRef(r.va_id, r.va_first, r.va_last),
    cancelled_by: personRef(r.ca_id, r.ca_first, r.ca_last),
    cancel_reason: r.cancel_reason,
    // For the rules (not serialized: the response schema drops unknown keys).
    department_id: r.department_id,
    patient_birth_date: r.p_birth_date,
    current_age: ageOf(r.p_birth_date),
  };
}
export type OrderView = ReturnType<typeof toOrderView>;

export async function findOrders(q: Queryable, hospitalId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const res = await q.execute<OrderRow>(
    sql`${ORDER_SELECT} where o.hospital_id = ${hospitalId} and o.id in (${sql.join(
      ids.map((i) => sql`${i}::uuid`),
      sql`, `,
    )}) order by o.order_number`,
  );
  return res.rows.map(toOrderView);
}

export async function findOrder(q: Queryable, hospitalId: string, id: string) {
  return (await findOrders(q, hospitalId, [id]))[0] ?? null;
}

/** The order's row, locked for the rest of the transaction (null when absent or of another hospital). */
export async function lockOrder(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    status: ExamStatus;
    requested_by: string;
    department_id: string | null;
    version: number;
    patient_id: string;
    consultation_id: string | null;
    exam_id: string;
    urgency: ExamUrgency;
    abnormal: boolean;
    acknowledged_at: Date | string | null;
  }>(sql`select id, status, requested_by, department_id, version, patient_id, consultation_id, exam_id,
      urgency, abnormal, acknowledged_at
    from exam_orders where hospital_id = ${hospitalId} and id = ${id} for update`);
  const row = res.rows[0];
  return row ? { ...row, version: Number(row.version) } : null;
}

export interface OrderFilters {
  status?: ExamStatus[] | undefined;
  urgency?: ExamUrgency | undefined;
  department?: string | undefined;
  kind?: ExamKind | undefined;
  patient?: string | undefined;
  consultation?: string | undefined;
  requestedBy?: string | undefined;
  abnormal?: boolean | undefined;
  /** Requested that day (YYYY-MM-DD) in the hospital's time zone. */
  date?: string | undefined;
  search?: string | undefined;
  /** Validated and not acknowledged yet (the requester's alerts). */
  unacknowledged?: boolean | undefined;
  ordering: 'priority' | 'recent' | 'alerts';
}

function orderConditions(hospitalId: string, f: OrderFilters): SQL {
  const where: SQL[] = [sql`o.hospital_id = ${hospitalId}`];
  if (f.status?.length) where.push(sql`o.status in (${sqlList(f.status)})`);
  if (f.urgency) where.push(sql`o.urgency = ${f.urgency}`);
  if (f.department) where.push(sql`o.department_id = ${f.department}`);
  if (f.kind) where.push(sql`c.kind = ${f.kind}`);
  if (f.patient) where.push(sql`o.patient_id = ${f.patient}`);
  if (f.consultation) where.push(sql`o.consultation_id = ${f.consultation}`);
  if (f.requestedBy) where.push(sql`o.requested_by = ${f.requestedBy}`);
  if (f.abnormal !== undefined) where.push(sql`o.abnormal = ${f.abnormal}`);
  if (f.unacknowledged) where.push(sql`o.acknowledged_at is null`);
  if (f.date) {
    where.push(
      sql`o.requested_at >= ${hospitalMidnight(hospitalId, f.date)} and o.requested_at < ${hospitalMidnight(hospitalId, f.date, 1)}`,
    );
  }
  if (f.search) {
    const term = f.search.trim();
    const like = containsPattern(term);
    where.push(sql`(p.record_number = ${term.toUpperCase()} or o.order_number = ${term.toUpperCase()}
      or f_unaccent(lower(p.last_name || ' ' || p.first_name)) %> f_unaccent(lower(${term}))
      or f_unaccent(lower(p.last_name || ' ' || p.first_name)) like f_unaccent(lower(${like})) escape '\\'
      or f_unaccent(lower(c.code || ' ' || c.name_fr || ' ' || c.name_en)) like f_unaccent(lower(${like})) escape '\\')`);
  }
  return sql.join(where, sql` and `);
}

/** A page of orders with the count; urgent first then the oldest (`priority`), or the newest first. */
export async function listOrders(
  q: Queryable,
  hospitalId: string,
  f: OrderFilters,
  limit: number,
  offset: number,
): Promise<{ rows: OrderView[]; count: number }> {
  const cond = orderConditions(hospitalId, f);
  const order =
    f.ordering === 'priority'
      ? sql`(o.urgency = 'urgent') desc, o.requested_at asc, o.id`
      : f.ordering === 'alerts'
        ? sql`(o.urgency = 'urgent') desc, o.validated_at desc, o.id desc`
        : sql`o.requested_at desc, o.id desc`;
  const rows = await q.execute<OrderRow>(
    sql`${ORDER_SELECT} where ${cond} order by ${order} limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n from exam_orders o
    join patients p on p.id = o.patient_id join exam_catalogue c on c.id = o.exam_id where ${cond}`);
  return { rows: rows.rows.map(toOrderView), count: Number(counted.rows[0]?.n ?? 0) };
}

/** How many of the filtered orders are urgent (the alerts' badge). */
export async function countUrgent(q: Queryable, hospitalId: string, f: OrderFilters) {
  const cond = orderConditions(hospitalId, { ...f, urgency: 'urgent' });
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n from exam_orders o
    join patients p on p.id = o.patient_id join exam_catalogue c on c.id = o.exam_id where ${cond}`);
  return Number(counted.rows[0]?.n ?? 0);
}

/** The consultation facts the consultation-access rule needs (null when absent or of another hospital). */
export async function consultationFacts(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    patient_id: string;
    doctor_id: string;
    department_id: string;
    status: 'in_progress' | 'completed' | 'cancelled';
    admission_id: string | null;
    admission_type: string | null;
  }>(sql`select c.id, c.patient_id, c.doctor_id, c.department_id, c.status, c.admission_id,
      a.admission_type
    from consultations c left join admissions a on a.id = c.admission_id
    where c.hospital_id = ${hospitalId} and c.id = ${id}`);
  return res.rows[0] ?? null;
}

export async function patientFacts(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    first_name: string;
    last_name: string;
    record_number: string;
    archived_at: Date | string | null;
  }>(sql`select id, first_name, last_name, record_number, archived_at from patients
    where hospital_id = ${hospitalId} and id = ${id}`);
  return res.rows[0] ?? null;
}

/** The columns a step of an order's workflow sets (status, who and when, results…). */
export type ExamOrderChange = Partial<typeof examOrders.$inferInsert>;

/** Changes an order, its version one higher (the optimistic check of the next change). */
export async function updateExamOrder(q: Queryable, id: string, values: ExamOrderChange) {
  await q
    .update(examOrders)
    .set({ ...values, version: sql`${examOrders.version} + 1`, updatedAt: new Date() })
    .where(eq(examOrders.id, id));
}

/** A new exam order (its number taken by the caller from the hospital's sequence); returns its id. */
export async function insertExamOrder(q: Queryable, values: typeof examOrders.$inferInsert): Promise<string> {
  const [row] = await q.insert(examOrders).values(values).returning({ id: examOrders.id });
  return row!.id;
}

/** The requester has seen the validated result: stamped once, the order's version unchanged. */
export async function markExamAcknowledged(q: Queryable, id: string) {
  await q
    .update(examOrders)
    .set({ acknowledgedAt: new Date(), updatedAt: new Date() })
    .where(eq(examOrders.id, id));
}
