/**
 * A nurse's patients in SQL (issue 17): the open stays of the wards she works in, each with its latest vitals and
 * NEWS2, what is due and the open transfer. Every query filters on the hospital.
 */
import type { TNursePatient } from '@greensen/shared/contracts/hospitalizations';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { DEPARTMENT_REF_COLUMNS, isoRequired, PATIENT_REF_COLUMNS } from '../../lib/clinical.js';
import type { Lang } from '../../lib/i18n.js';
import { latestVitalsOf, news2SummaryOf } from '../care/vital-signs.repository.js';
import { type StayRow, toStay, wardNurseRole } from './hospitalizations.repository.js';
import { OPEN_STAY } from './stay-orders.repository.js';
import { OPEN_TRANSFER } from './transfers.repository.js';

/** Whether a user is an active nurse or charge nurse of the hospital. */
export async function isActiveNurse(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from memberships where hospital_id = ${hospitalId}
                  and user_id = ${userId} and is_active and ${wardNurseRole()}`,
  );
  return Number(res.rows[0]?.n ?? 0) > 0;
}

// The nurse's patients ---------------------------------------------------------------------------------------

interface NurseRow extends StayRow {
  v_at: Date | string | null;
  v_temperature: number | string | null;
  v_hr: number | null;
  v_rr: number | null;
  v_sys: number | null;
  v_dia: number | null;
  v_spo2: number | null;
  v_news2_score: number | null;
  v_news2: Record<string, unknown> | string | null;
}

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The stays in the wards a nurse looks after (the departments of her nurse memberships; all wards when one of
 * them has no department), with the latest set of the patient's one series of vitals (triage, consultation or
 * ward, with its NEWS2: care/vital-signs.repository, decision 0068) and what needs her eye; the highest NEWS2
 * first (issue 37), then by ward, room and bed.
 */
export async function nursePatients(
  q: Queryable,
  hospitalId: string,
  nurseId: string,
  includePending: boolean,
  lang: Lang,
  limit: number,
  offset: number,
): Promise<{ rows: TNursePatient[]; count: number }> {
  const scope = sql`exists (select 1 from memberships m where m.hospital_id = ${hospitalId}
      and m.user_id = ${nurseId} and m.is_active and ${wardNurseRole('m')}
      and (m.department_id is null or m.department_id = coalesce(w.department_id, s.department_id)))`;
  const status = includePending ? sql`s.status in ${OPEN_STAY}` : sql`s.status = 'admitted'`;
  const where = sql`s.hospital_id = ${hospitalId} and ${status} and ${scope}`;
  // The page of stays first (a materialised CTE: the stay, its bed, room and ward, what the scope and the order
  // read), then its lookups: two small join problems instead of one of nine tables, whose planning took twenty
  // times the statement's run (decision 0044). The count rides on the page (a window over the matching stays);
  // read apart only for a page past the end. The page comes back as one JSON value (a row per stay, in order):
  // one field to decode instead of some forty per stay, a third of the embedded engine's time for this read.
  const answer = await q.execute<{
    rows: (NurseRow & { total: number | string })[];
  }>(sql`with page as materialized (
      select s.id, s.status, s.reason, s.expected_days, s.requested_at, s.admitted_at, s.ended_at, s.patient_id,
        s.department_id, s.doctor_id, s.provisional_icd_code,
        b.id as b_id, b.label as b_label, r.id as r_id, r.name as r_name, w.id as w_id, w.code as w_code,
        w.name as w_name, count(*) over () as total,
        v.recorded_at as v_at, v.temperature as v_temperature, v.heart_rate as v_hr, v.respiratory_rate as v_rr,
        v.systolic_bp as v_sys, v.diastolic_bp as v_dia, v.spo2 as v_spo2, v.news2_score as v_news2_score,
        v.news2 as v_news2,
        row_number() over (order by v.news2_score desc nulls last, w.name nulls last, r.name nulls last,
          b.label nulls last, s.requested_at) as ord
      from hospitalizations s left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id
      left join wards w on w.id = r.ward_id
      left join lateral ${latestVitalsOf(hospitalId, sql`s.patient_id`)} v on true
      where ${where} order by ord limit ${limit} offset ${offset})
    select coalesce(json_agg(y order by y.ord), '[]'::json) as rows from (
    select x.ord, x.id, x.status::text as status, x.reason, x.expected_days, x.requested_at, x.admitted_at,
      x.ended_at, ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}, u.id as u_id, u.first_name as u_first,
      u.last_name as u_last, x.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
      x.b_id, x.b_label, x.r_id, x.r_name, x.w_id, x.w_code, x.w_name,
      ((coalesce(x.ended_at, now()) at time zone ho.time_zone)::date
        - (x.requested_at at time zone ho.time_zone)::date + 1)::int as days,
      (select t.id from transfers t where t.hospitalization_id = x.id and t.status in ${OPEN_TRANSFER}
        limit 1) as open_transfer, x.total,
      x.v_at, x.v_temperature, x.v_hr, x.v_rr, x.v_sys, x.v_dia, x.v_spo2, x.v_news2_score, x.v_news2
    from page x
    join hospitals ho on ho.id = ${hospitalId}
    join patients p on p.id = x.patient_id
    join departments d on d.id = x.department_id
    join users u on u.id = x.doctor_id
    left join icd10_codes i on i.code = x.provisional_icd_code) y`);
  const rows = answer.rows[0]?.rows ?? [];
  const first = rows[0];
  const count = first
    ? Number(first.total)
    : offset === 0
      ? 0
      : Number(
          (
            await q.execute<{ n: number }>(sql`select count(*)::int as n from hospitalizations s
      left join beds b on b.id = s.bed_id left join rooms r on r.id = b.room_id left join wards w on w.id = r.ward_id
      where ${where}`)
          ).rows[0]?.n ?? 0,
        );
  return {
    count,
    rows: rows.map((r) => {
      const stay = toStay(r, lang);
      const flags: TNursePatient['flags'] = [];
      if (stay.patient.allergies.length > 0) flags.push('allergies');
      if (stay.open_transfer) flags.push('transfer');
      if (stay.expected_days !== null && stay.days > stay.expected_days) flags.push('overstay');
      return {
        ...stay,
        latest_vitals: r.v_at
          ? {
              recorded_at: isoRequired(r.v_at),
              temperature: numberOrNull(r.v_temperature),
              heart_rate: numberOrNull(r.v_hr),
              respiratory_rate: numberOrNull(r.v_rr),
              systolic_bp: numberOrNull(r.v_sys),
              diastolic_bp: numberOrNull(r.v_dia),
              spo2: numberOrNull(r.v_spo2),
            }
          : null,
        news2: r.v_at
          ? news2SummaryOf({ news2_score: r.v_news2_score, news2: r.v_news2, recorded_at: r.v_at })
          : null,
        flags,
      };
    }),
  };
}
