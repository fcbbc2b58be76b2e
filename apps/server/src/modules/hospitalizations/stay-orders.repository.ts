/**
 * The orders of a stay (issue 37), defined once: a stay's orders are those written in the stay and those of the
 * visit it came from (the consultation that sent the patient in prescribed the first medicines, ordered the first
 * exams). The MAR, the stay page, the pharmacy's "patient left" and the stay's invoice all read them through
 * these predicates, so that no screen finds fewer orders than another.
 */

import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { iso, isoRequired } from '../../lib/clinical.js';
import type { Lang } from '../../lib/i18n.js';

/**
 * A stay is open while it waits for a bed or lies in one: `s.status in ${OPEN_STAY}`. Written as literals, as the
 * partial indexes of `hospitalizations` (schema/inpatient.ts) state it, so that the planner matches them.
 */
export const OPEN_STAY = sql.raw(`(${OPEN_HOSPITALIZATION_STATUSES.map((s) => `'${s}'`).join(', ')})`);

/**
 * A prescription (alias `rx`) is an order of the stay `stay` or of the visit `admission` (either may be null): it
 * was written in the stay, or in a consultation of the visit.
 */
export function prescriptionOfStay(rx: string, stay: SQL, admission: SQL): SQL {
  const r = sql.raw(rx);
  return sql`(${r}.hospitalization_id = ${stay}
    or exists (select 1 from consultations oc where oc.id = ${r}.consultation_id and oc.admission_id = ${admission}))`;
}

/**
 * An exam order (alias `eo`) of the stay `s` (alias): ordered in the visit it came from (or one of its
 * consultations), or for the patient while the stay was open.
 */
export function examOfStay(eo: string, s: string): SQL {
  const e = sql.raw(eo);
  const st = sql.raw(s);
  return sql`(${e}.patient_id = ${st}.patient_id and (${e}.admission_id = ${st}.admission_id
    or exists (select 1 from consultations oc where oc.id = ${e}.consultation_id and oc.admission_id = ${st}.admission_id)
    or (${e}.requested_at >= ${st}.requested_at and ${e}.requested_at <= coalesce(${st}.ended_at, now()))))`;
}

/** When the patient of the visit `a` (alias) left the stay it led to; null while there or with no stay. */
export function visitDischargedAt(a: string): SQL {
  const v = sql.raw(a);
  return sql`(select max(vs.ended_at) from hospitalizations vs where vs.admission_id = ${v}.id and vs.ended_at is not null)`;
}

/** A care plan (alias `cp`) of the stay `s` (alias): the stay's own, or the visit's it came from. */
export function carePlanOfStay(cp: string, s: string): SQL {
  const c = sql.raw(cp);
  const st = sql.raw(s);
  return sql`(${c}.hospitalization_id = ${st}.id or (${c}.admission_id is not null and ${c}.admission_id = ${st}.admission_id))`;
}

export interface StayOrderRow {
  kind: 'medication' | 'care' | 'exam';
  id: string;
  ref: string;
  label: string;
  detail: string | null;
  status: string;
  at: string;
  ended_at: string | null;
  /** A medicine's posology (null for care and exams). */
  dose: number | null;
  dose_unit: string | null;
  frequency: TFrequency | null;
}

/**
 * The active orders of a stay, every kind, oldest first: the signed prescriptions' lines (not refused), the care
 * orders still active, the exams not cancelled. One statement; at most `limit` of each kind.
 */
export async function stayOrders(q: Queryable, hospitalId: string, stayId: string, lang: Lang, limit = 100) {
  const res = await q.execute<{
    kind: StayOrderRow['kind'];
    id: string;
    ref: string;
    label: string;
    detail: string | null;
    status: string;
    at: Date | string;
    ended_at: Date | string | null;
    dose: number | string | null;
    dose_unit: string | null;
    frequency: TFrequency | string | null;
  }>(sql`with s as (select * from hospitalizations where id = ${stayId} and hospital_id = ${hospitalId})
    (select 'medication' as kind, l.id, rx.id as ref,
        ${lang === 'fr' ? sql`m.inn_fr` : sql`m.inn_en`} || ' ' || mp.strength as label,
        rx.number as detail, rx.status::text as status, rx.signed_at as at, null::timestamptz as ended_at,
        l.dose, l.dose_unit, l.frequency
      from s join prescriptions rx on rx.patient_id = s.patient_id and rx.hospital_id = s.hospital_id
        and rx.status in ('signed', 'partially_dispensed', 'dispensed')
      join prescription_lines l on l.prescription_id = rx.id and l.refused_at is null
      join medications m on m.id = l.medication_id join medication_presentations mp on mp.id = l.presentation_id
      where ${prescriptionOfStay('rx', sql`s.id`, sql`s.admission_id`)}
      order by rx.signed_at, l.position limit ${limit})
    union all
    (select 'care', o.id, cp.id, o.title, null, o.status::text, o.ordered_at, o.stopped_at,
        null::numeric, null::text, null::jsonb
      from s join care_plans cp on cp.patient_id = s.patient_id and ${carePlanOfStay('cp', 's')}
      join care_orders o on o.plan_id = cp.id and o.status = 'active'
      order by o.ordered_at limit ${limit})
    union all
    (select 'exam', eo.id, eo.id, ${lang === 'fr' ? sql`ec.name_fr` : sql`ec.name_en`}, eo.order_number,
        eo.status::text, eo.requested_at, eo.validated_at, null::numeric, null::text, null::jsonb
      from s join exam_orders eo on eo.hospital_id = s.hospital_id and eo.status <> 'cancelled'
      join exam_catalogue ec on ec.id = eo.exam_id
      where ${examOfStay('eo', 's')}
      order by eo.requested_at limit ${limit})`);
  return res.rows.map(
    (r): StayOrderRow => ({
      kind: r.kind,
      id: r.id,
      ref: r.ref,
      label: r.label,
      detail: r.detail,
      status: r.status,
      at: isoRequired(r.at),
      ended_at: iso(r.ended_at),
      dose: r.dose === null ? null : Number(r.dose),
      dose_unit: r.dose_unit,
      frequency: typeof r.frequency === 'string' ? (JSON.parse(r.frequency) as TFrequency) : r.frequency,
    }),
  );
}

/**
 * What the discharge summary tells of a stay beyond its own columns (issue 37): the medicines given during it (the
 * MAR's doses given, per medicine), the results that matter (its exams validated, abnormal ones first) and the
 * follow-up appointment booked after the discharge, if any.
 */
export async function stayClinicalRecord(q: Queryable, stayId: string) {
  const given = await q.execute<{
    inn_fr: string;
    inn_en: string;
    strength: string;
    doses: number;
    first_at: Date | string;
    last_at: Date | string;
  }>(sql`select m.inn_fr, m.inn_en, mp.strength, count(*)::int as doses,
      min(coalesce(ma.given_at, ma.scheduled_at)) as first_at, max(coalesce(ma.given_at, ma.scheduled_at)) as last_at
    from hospitalizations s join care_plans cp on cp.patient_id = s.patient_id and ${carePlanOfStay('cp', 's')}
    join medication_administrations ma on ma.plan_id = cp.id and ma.outcome = 'given'
    join prescription_lines l on l.id = ma.prescription_line_id
    join medications m on m.id = l.medication_id join medication_presentations mp on mp.id = l.presentation_id
    where s.id = ${stayId}
    group by m.inn_fr, m.inn_en, mp.strength order by min(coalesce(ma.given_at, ma.scheduled_at)) limit 50`);
  const results = await q.execute<{
    name_fr: string;
    name_en: string;
    validated_at: Date | string;
    abnormal: boolean;
    report: string | null;
  }>(sql`select ec.name_fr, ec.name_en, eo.validated_at, eo.abnormal, eo.report
    from hospitalizations s join exam_orders eo on eo.hospital_id = s.hospital_id and eo.status = 'validated'
    join exam_catalogue ec on ec.id = eo.exam_id
    where s.id = ${stayId} and ${examOfStay('eo', 's')}
    order by eo.abnormal desc, eo.validated_at limit 30`);
  const follow = await q.execute<{
    start_at: Date | string;
    first_name: string;
    last_name: string;
    department: string | null;
  }>(sql`select a.start_at, u.first_name, u.last_name, d.name as department
    from hospitalizations s join appointments a on a.patient_id = s.patient_id and a.hospital_id = s.hospital_id
      and a.status in ('booked', 'confirmed') and a.start_at >= coalesce(s.ended_at, now())
    join users u on u.id = a.provider_id left join departments d on d.id = a.department_id
    where s.id = ${stayId} order by a.start_at limit 1`);
  return { given: given.rows, results: results.rows, followUp: follow.rows[0] ?? null };
}
