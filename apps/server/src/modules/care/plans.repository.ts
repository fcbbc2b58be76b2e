import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { carePlans } from '../../db/schema/index.js';
import { PATIENT_REF_COLUMNS } from '../../lib/clinical.js';
import { containsPattern } from '../../lib/queries.js';
import { inScope, OPEN_STAY, OPEN_VISIT, type PlanRow } from './care.repository.js';

/**
 * An emergency visit (alias `a`, its department `d`) still in the department: the visits a care plan may be
 * opened for (observation) and that the care list shows.
 */
export const OPEN_EMERGENCY_VISIT = sql`a.status in ${OPEN_VISIT} and d.kind = 'emergency'`;

export type CareTargetFilters = {
  department?: string | undefined;
  ward?: string | undefined;
  search?: string | undefined;
  kind: string;
};

/** A care target's row: a stay's or an emergency visit's, with its plan when there is one. */
export type CareTargetRow = PlanRow & { plan_id: string | null };

/**
 * The care targets: open stays (with a plan or not) and open emergency visits (with a plan or not), in the
 * departments `userId` works in, by ward, bed and since when. Both sides are read by their own indexes, then
 * merged.
 */
export async function careTargets(
  q: Queryable,
  hospitalId: string,
  userId: string,
  filters: CareTargetFilters,
  limit: number,
  offset: number,
): Promise<{ rows: CareTargetRow[]; count: number }> {
  const conds = (dept: SQL) => {
    const parts = [inScope(hospitalId, userId, dept)];
    if (filters.department) parts.push(sql`${dept} = ${filters.department}`);
    if (filters.search) {
      const like = containsPattern(filters.search.toLowerCase());
      parts.push(sql`(f_unaccent(lower(p.last_name || ' ' || p.first_name)) like f_unaccent(${like})
          or f_unaccent(lower(p.first_name || ' ' || p.last_name)) like f_unaccent(${like})
          or lower(p.record_number) like ${like})`);
    }
    return sql.join(parts, sql` and `);
  };
  const stays = sql`select cp.id as plan_id, s.hospital_id, s.id as hospitalization_id, null::uuid as admission_id,
        coalesce(cp.hypercapnic, false) as hypercapnic, ${PATIENT_REF_COLUMNS}, d.id as d_id, d.code as d_code,
        d.name as d_name, d.kind as d_kind, b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name,
        w.id as w_id, w.code as w_code, w.name as w_name, doc.id as doc_id, doc.first_name as doc_first,
        doc.last_name as doc_last, s.requested_at as since, w.name as sort_ward, b.label as sort_bed
      from hospitalizations s join patients p on p.id = s.patient_id join departments d on d.id = s.department_id
      left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
      left join users doc on doc.id = s.doctor_id
      left join care_plans cp on cp.hospitalization_id = s.id
      where s.hospital_id = ${hospitalId} and s.status in ${OPEN_STAY} and ${conds(sql`s.department_id`)}
        ${filters.ward ? sql`and w.id = ${filters.ward}` : sql``}`;
  const visits = sql`select cp.id as plan_id, a.hospital_id, null::uuid as hospitalization_id,
        a.id as admission_id, coalesce(cp.hypercapnic, false) as hypercapnic, ${PATIENT_REF_COLUMNS},
        d.id as d_id, d.code as d_code, d.name as d_name, d.kind as d_kind, null::uuid as b_id, null::text as b_label,
        null::uuid as r_id, null::text as r_name, null::uuid as w_id, null::text as w_code, null::text as w_name,
        doc.id as doc_id, doc.first_name as doc_first, doc.last_name as doc_last, a.admitted_at as since,
        null::text as sort_ward, null::text as sort_bed
      from admissions a join patients p on p.id = a.patient_id join departments d on d.id = a.department_id
      left join lateral (select e.doctor_id from executions e where e.admission_id = a.id
        order by e.created_at desc limit 1) ve on true
      left join users doc on doc.id = ve.doctor_id
      left join care_plans cp on cp.admission_id = a.id
      where a.hospital_id = ${hospitalId} and ${OPEN_EMERGENCY_VISIT}
        and ${conds(sql`a.department_id`)}`;
  const parts =
    filters.kind === 'inpatient' || filters.ward
      ? [stays]
      : filters.kind === 'emergency'
        ? [visits]
        : [stays, visits];
  const union = sql.join(
    parts.map((p) => sql`(${p})`),
    sql` union all `,
  );
  const res = await q.execute<CareTargetRow>(
    sql`select * from (${union}) t order by t.sort_ward nulls last, t.sort_bed nulls last, t.since
          limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n from (${union}) t`);
  return { rows: res.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

/** A stay or visit a plan is opened for: its patient, department, and whether a plan may still be opened. */
export type PlanTarget = { patient_id: string; department_id: string; open: boolean };

/** A stay of the hospital (open: the stay is open). */
export async function stayTarget(
  q: Queryable,
  hospitalId: string,
  stayId: string,
): Promise<PlanTarget | null> {
  const res = await q.execute<PlanTarget>(
    sql`select patient_id, department_id, status in ${OPEN_STAY} as open from hospitalizations
            where id = ${stayId} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** A visit of the hospital (open: an emergency visit still in the department). */
export async function visitTarget(
  q: Queryable,
  hospitalId: string,
  admissionId: string | null,
): Promise<PlanTarget | null> {
  const res = await q.execute<PlanTarget>(
    sql`select a.patient_id, a.department_id, ${OPEN_EMERGENCY_VISIT} as open
            from admissions a join departments d on d.id = a.department_id
            where a.id = ${admissionId} and a.hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** The plan of a stay, or of a visit (null: none yet). */
export async function planIdOfTarget(
  q: Queryable,
  target: { hospitalization?: string | null | undefined; admission?: string | null | undefined },
): Promise<string | null> {
  const res = await q.execute<{ id: string }>(
    target.hospitalization
      ? sql`select id from care_plans where hospitalization_id = ${target.hospitalization}`
      : sql`select id from care_plans where admission_id = ${target.admission ?? null}`,
  );
  return res.rows[0]?.id ?? null;
}

/**
 * Opens a plan, unless its stay's (or visit's) plan exists (`care_plans` is unique by stay and by visit): its id,
 * or null when another was opened at the same instant.
 */
export async function insertPlanUnlessExists(
  q: Queryable,
  values: typeof carePlans.$inferInsert,
): Promise<string | null> {
  const byStay = Boolean(values.hospitalizationId);
  const inserted = await q
    .insert(carePlans)
    .values(values)
    .onConflictDoNothing({
      target: byStay ? carePlans.hospitalizationId : carePlans.admissionId,
      where: byStay ? sql`hospitalization_id is not null` : sql`admission_id is not null`,
    })
    .returning({ id: carePlans.id });
  return inserted[0]?.id ?? null;
}

/** Changes a plan's own fields. */
export async function updatePlan(
  q: Queryable,
  planId: string,
  set: Partial<typeof carePlans.$inferInsert>,
): Promise<void> {
  await q.update(carePlans).set(set).where(sql`id = ${planId}`);
}

/** A user's name (null: no such user). */
export async function userName(
  q: Queryable,
  userId: string,
): Promise<{ first_name: string; last_name: string } | null> {
  const res = await q.execute<{ first_name: string; last_name: string }>(
    sql`select first_name, last_name from users where id = ${userId}`,
  );
  return res.rows[0] ?? null;
}
