/**
 * The laboratory's FHIR statements (decisions 0083, 0085): validated exams as DiagnosticReports, their values as
 * Observations, and the values posted through FHIR (the order they go into, their retry keys).
 */
import type { ExamField } from '@greensen/shared/domain/exams';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { examResultPosts } from '../../db/schema/index.js';
import { all, list, type Range, rangePredicate, TOTAL_CAP } from './fhir.repository.js';
import type { ExamReportRow } from './map-lab.js';

export interface ReportFilters {
  id?: string;
  patientId?: string;
  kinds?: ('lab' | 'imaging')[];
  /** LOINC codes (of the exam) or catalogue codes. */
  loinc?: string[];
  examCodes?: string[];
  date: Range[];
  lastUpdated: Range[];
  admissionIds?: string[];
  /**
   * Also the orders whose results are entered but not validated yet (in progress with values, completed): a read
   * by id of a laboratory Observation, which answers what an instrument posted (preliminary). Searches, reports
   * and `$everything` never set it: only validated exams are published there.
   */
  entered?: boolean;
}

const REPORT_FROM = sql`exam_orders eo join exam_catalogue ec on ec.id = eo.exam_id
  join patients p on p.id = eo.patient_id`;
const REPORT_EFFECTIVE = sql`coalesce(eo.started_at, eo.requested_at)`;
const REPORT_COLUMNS = sql`eo.id, eo.order_number, eo.patient_id, eo.admission_id, ec.kind, ec.code as exam_code,
  ec.name_fr, ec.name_en, ec.loinc as exam_loinc, ec.fields, eo.results, eo.report,
  ${REPORT_EFFECTIVE} as effective_at, eo.status::text as status, eo.validated_at, eo.validated_by, eo.resulted_by, eo.updated_at, eo.version,
  p.sex, p.birth_date::text as birth_date`;

function reportWhere(hospitalId: string, f: ReportFilters) {
  return all([
    sql`eo.hospital_id = ${hospitalId}`,
    f.entered ? sql`eo.status in ('in_progress', 'completed', 'validated')` : sql`eo.status = 'validated'`,
    f.id ? sql`eo.id = ${f.id}` : undefined,
    f.patientId ? sql`eo.patient_id = ${f.patientId}` : undefined,
    f.kinds ? sql`ec.kind::text in (${list(f.kinds, sql`''`)})` : undefined,
    f.loinc || f.examCodes
      ? sql`(ec.loinc in (${list(f.loinc ?? [])}) or ec.code in (${list(f.examCodes ?? [])}))`
      : undefined,
    f.admissionIds ? sql`eo.admission_id in (${list(f.admissionIds)})` : undefined,
    ...f.date.map((r) => rangePredicate(REPORT_EFFECTIVE, r)),
    ...f.lastUpdated.map((r) => rangePredicate(sql`eo.updated_at`, r)),
  ]);
}

/** The hospital's validated exams (reports), the latest first. */
export async function searchReports(
  q: Queryable,
  hospitalId: string,
  f: ReportFilters,
  limit: number,
  offset: number,
): Promise<{ rows: ExamReportRow[]; total: number }> {
  const where = reportWhere(hospitalId, f);
  const rows =
    limit > 0
      ? (
          await q.execute<ExamReportRow>(sql`select ${REPORT_COLUMNS} from ${REPORT_FROM} where ${where}
          order by ${REPORT_EFFECTIVE} desc, eo.id limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${REPORT_FROM} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

export interface LabValueFilters {
  orderId?: string;
  key?: string;
  patientId?: string;
  /** Analytes' LOINC codes. */
  loinc?: string[];
  date: Range[];
  lastUpdated: Range[];
  /** Entered values not validated yet too (see `ReportFilters.entered`). */
  entered?: boolean;
}

/** One row per valued field of a validated laboratory exam (its catalogue field in `field`, `key`). */
const LAB_VALUES_FROM = sql`${REPORT_FROM}
  cross join lateral jsonb_each(coalesce(eo.results, '{}'::jsonb)) r(key, val)
  cross join lateral (select x.f, x.n from jsonb_array_elements(ec.fields) with ordinality x(f, n)
    where x.f->>'key' = r.key limit 1) fd`;

/** The laboratory values of validated exams, the latest first (each with its report row and field key). */
export async function searchLabValues(
  q: Queryable,
  hospitalId: string,
  f: LabValueFilters,
  limit: number,
  offset: number,
): Promise<{ rows: (ExamReportRow & { key: string })[]; total: number }> {
  const where = all([
    reportWhere(hospitalId, {
      ...(f.orderId ? { id: f.orderId } : {}),
      ...(f.patientId ? { patientId: f.patientId } : {}),
      kinds: ['lab'],
      ...(f.entered ? { entered: true } : {}),
      date: f.date,
      lastUpdated: f.lastUpdated,
    }),
    sql`coalesce(r.val->>'value', '') <> ''`,
    f.key ? sql`r.key = ${f.key}` : undefined,
    f.loinc ? sql`fd.f->>'loinc' in (${list(f.loinc)})` : undefined,
  ]);
  const rows =
    limit > 0
      ? (
          await q.execute<ExamReportRow & { key: string }>(sql`select ${REPORT_COLUMNS}, r.key
          from ${LAB_VALUES_FROM} where ${where}
          order by ${REPORT_EFFECTIVE} desc, eo.id, fd.n limit ${limit} offset ${offset}`)
        ).rows
      : [];
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from ${LAB_VALUES_FROM} where ${where} limit ${TOTAL_CAP}) t`,
  );
  return { rows, total: Number(counted.rows[0]?.n ?? 0) };
}

// —— Laboratory values posted through FHIR (decision 0085) ——

/** A laboratory order a posted value may go into: its patient, status and exam's fields. */
export type LabOrderRow = {
  id: string;
  order_number: string;
  patient_id: string;
  status: string;
  kind: 'lab' | 'imaging';
  exam_code: string;
  fields: ExamField[] | string;
};

const LAB_ORDER_SELECT = sql`select eo.id, eo.order_number, eo.patient_id, eo.status::text as status, ec.kind,
    ec.code as exam_code, ec.fields
  from exam_orders eo join exam_catalogue ec on ec.id = eo.exam_id`;

/** The order a client names (`basedOn`: its id or its number), in the hospital, or null. */
export async function labOrderByRef(
  q: Queryable,
  hospitalId: string,
  ref: { id: string } | { number: string },
): Promise<LabOrderRow | null> {
  const which = 'id' in ref ? sql`eo.id = ${ref.id}` : sql`eo.order_number = ${ref.number}`;
  const res = await q.execute<LabOrderRow>(
    sql`${LAB_ORDER_SELECT} where eo.hospital_id = ${hospitalId} and ${which} limit 1`,
  );
  return res.rows[0] ?? null;
}

/** The patient's open laboratory orders (not validated, not cancelled) in the hospital, the oldest first. */
export async function openLabOrdersOf(q: Queryable, hospitalId: string, patientId: string) {
  const res = await q.execute<LabOrderRow>(
    sql`${LAB_ORDER_SELECT} where eo.hospital_id = ${hospitalId} and eo.patient_id = ${patientId}
      and ec.kind = 'lab' and eo.status in ('requested', 'in_progress', 'completed')
      order by eo.requested_at, eo.id`,
  );
  return res.rows;
}

/** The values already posted under these retry keys: key → the order and field they went into. */
export async function labPostsByKeys(q: Queryable, hospitalId: string, keys: string[]) {
  const res = await q.execute<{ idempotency_key: string; order_id: string; field_key: string }>(
    sql`select idempotency_key, order_id, field_key from exam_result_posts
      where hospital_id = ${hospitalId} and idempotency_key in (${list(keys)})`,
  );
  return new Map(res.rows.map((r) => [r.idempotency_key, { orderId: r.order_id, key: r.field_key }]));
}

export async function insertLabPost(
  q: Queryable,
  v: { hospitalId: string; key: string; orderId: string; fieldKey: string; postedBy: string },
) {
  await q.insert(examResultPosts).values({
    hospitalId: v.hospitalId,
    idempotencyKey: v.key,
    orderId: v.orderId,
    fieldKey: v.fieldKey,
    postedBy: v.postedBy,
  });
}
