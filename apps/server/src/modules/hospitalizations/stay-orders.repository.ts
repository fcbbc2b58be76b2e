/**
 * The orders of a stay (issue 37), defined once: a stay's orders are those written in the stay and those of the
 * visit it came from (the consultation that sent the patient in prescribed the first medicines, ordered the first
 * exams). The MAR, the stay page, the pharmacy's "patient left" and the stay's invoice all read them through
 * these predicates, so that no screen finds fewer orders than another.
 */

import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { iso, isoRequired } from '../../lib/clinical.js';
import type { Lang } from '../../lib/i18n.js';

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
