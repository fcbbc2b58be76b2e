import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type { TFrequency, TPresentation } from '@greensen/shared/contracts/pharmacy';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { prescriptionLines, prescriptions } from '../../db/schema/index.js';
import { DEPARTMENT_REF_COLUMNS, PATIENT_REF_COLUMNS, type RefRow, textArray } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import { prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { PRESENTATION_COLUMNS, type PresentationDbRow } from './medications.repository.js';

/**
 * The pharmacy's prescriptions (issue 18): their reads (the lists, the dispensing queue), their lines, their
 * writes, and the facts the safety checks need. The medication reference is `medications.repository.ts`; the
 * pharmacies, stock, lots and ledger are `stock.repository.ts`.
 */

// Prescriptions ------------------------------------------------------------------------------------------

export type PrescriptionDbRow = RefRow & {
  id: string;
  number: string;
  status: 'draft' | 'signed' | 'partially_dispensed' | 'dispensed' | 'cancelled';
  prescriber_id: string;
  u_first: string;
  u_last: string;
  consultation_id: string | null;
  hospitalization_id: string | null;
  weight_kg: number | string | null;
  notes: string | null;
  version: number;
  created_at: Date | string;
  signed_at: Date | string | null;
  cancelled_at: Date | string | null;
  cancel_reason: string | null;
  line_count: number;
  allergy_override: boolean;
  summary: string | null;
  refused_lines: number;
  patient_left: boolean;
  patient_left_at: Date | string | null;
  urgent: boolean;
};
/**
 * The status of a prescription `rx`'s stay: the stay it was written in, or the one its consultation's visit led to
 * (the latest); null when it belongs to no stay.
 */
export const RX_STAY_STATUS = sql`(select h.status::text from hospitalizations h
    where h.patient_id = rx.patient_id and ${prescriptionOfStay('rx', sql`h.id`, sql`h.admission_id`)}
    order by h.requested_at desc limit 1)`;
/** When the patient of a prescription `rx` (patient `p`) left: the end of its stay, or the death. */
export const RX_PATIENT_LEFT_AT = sql`coalesce(p.deceased_at, (select h.ended_at from hospitalizations h
    where h.patient_id = rx.patient_id and ${prescriptionOfStay('rx', sql`h.id`, sql`h.admission_id`)}
    order by h.requested_at desc limit 1))`;
const OPEN_STAY_STATUSES = sqlList(OPEN_HOSPITALIZATION_STATUSES);
/**
 * A prescription `rx` is urgent when it was written for an emergency visit: the consultation's admission, or the
 * stay's (issue 37: the pharmacist's dispensing queue puts them first). Primary-key lookups only.
 */
export const RX_URGENT = sql`coalesce((select a.admission_type = 'emergency' from admissions a
    where a.id = coalesce((select c.admission_id from consultations c where c.id = rx.consultation_id),
                          (select h.admission_id from hospitalizations h where h.id = rx.hospitalization_id))), false)`;
/** The patient `p` of a prescription `rx` has left: its stay is over (discharged, transferred…) or the patient died. */
export const RX_PATIENT_LEFT = sql`(p.deceased_at is not null
    or coalesce(${RX_STAY_STATUS} not in (${OPEN_STAY_STATUSES}), false))`;
export const PRESCRIPTION_SELECT = sql`select rx.id, rx.number, rx.status, rx.prescriber_id,
    u.first_name as u_first, u.last_name as u_last, rx.consultation_id, rx.hospitalization_id, rx.weight_kg,
    rx.notes, rx.version, rx.created_at, rx.signed_at, rx.cancelled_at, rx.cancel_reason,
    ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS},
    (select count(*)::int from prescription_lines l where l.prescription_id = rx.id) as line_count,
    exists (select 1 from prescription_lines l where l.prescription_id = rx.id
      and l.allergy_override_reason is not null) as allergy_override,
    (select string_agg(m.inn_fr, ', ' order by l.position) from prescription_lines l
       join medications m on m.id = l.medication_id where l.prescription_id = rx.id) as summary,
    (select count(*)::int from prescription_lines l where l.prescription_id = rx.id
      and l.refused_at is not null) as refused_lines,
    ${RX_PATIENT_LEFT} as patient_left, case when ${RX_PATIENT_LEFT} then ${RX_PATIENT_LEFT_AT} end as patient_left_at,
    ${RX_URGENT} as urgent
  from prescriptions rx join patients p on p.id = rx.patient_id join departments d on d.id = rx.department_id
  join users u on u.id = rx.prescriber_id`;

export async function findPrescription(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<PrescriptionDbRow>(
    sql`${PRESCRIPTION_SELECT} where rx.id = ${id} and rx.hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

export interface PrescriptionFilters {
  patient?: string | undefined;
  consultation?: string | undefined;
  hospitalization?: string | undefined;
  status: string;
  /** Any of these statuses (FHIR searches: one FHIR status covers several of the app's); with `status: 'all'`. */
  statuses?: readonly string[] | undefined;
  mine?: boolean | undefined;
}
export async function listPrescriptions(
  q: Queryable,
  hospitalId: string,
  me: string,
  f: PrescriptionFilters,
  limit: number,
  offset: number,
) {
  const conds: SQL[] = [sql`rx.hospital_id = ${hospitalId}`];
  if (f.patient) conds.push(sql`rx.patient_id = ${f.patient}`);
  if (f.consultation) conds.push(sql`rx.consultation_id = ${f.consultation}`);
  // The stay's orders: written in it, or in the visit it came from (the one predicate the MAR reads too).
  if (f.hospitalization)
    conds.push(sql`exists (select 1 from hospitalizations fs where fs.id = ${f.hospitalization}
      and fs.hospital_id = ${hospitalId} and fs.patient_id = rx.patient_id
      and ${prescriptionOfStay('rx', sql`fs.id`, sql`fs.admission_id`)})`);
  if (f.mine) conds.push(sql`rx.prescriber_id = ${me}`);
  // The worklist holds what is left to hand out: a prescription whose remaining lines were all refused leaves it.
  if (f.status === 'to_dispense')
    conds.push(sql`rx.status in ('signed', 'partially_dispensed') and exists (select 1 from prescription_lines l
      where l.prescription_id = rx.id and l.dispensed_quantity < l.quantity and l.refused_at is null)`);
  else if (f.status !== 'all') conds.push(sql`rx.status = ${f.status}`);
  if (f.statuses)
    conds.push(f.statuses.length ? sql`rx.status::text in (${sqlList(f.statuses)})` : sql`false`);
  const where = sql.join(conds, sql` and `);
  // The pharmacy's worklist: urgent first (issue 37), then first come, first served; other lists the newest first.
  const order =
    f.status === 'to_dispense'
      ? sql`${RX_URGENT} desc, rx.signed_at, rx.id`
      : sql`rx.created_at desc, rx.id desc`;
  const res = await q.execute<PrescriptionDbRow>(
    sql`${PRESCRIPTION_SELECT} where ${where} order by ${order} limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from prescriptions rx where ${where}`,
  );
  return { rows: res.rows, count: Number(counted.rows[0]?.n ?? 0) };
}

export type LineDbRow = PresentationDbRow & {
  line_id: string;
  prescription_id: string;
  position: number;
  m_id: string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  allergy_classes: string[] | string;
  dose: number | string;
  dose_unit: string;
  line_route: TPresentation['route'];
  frequency: TFrequency | string;
  duration_days: number | null;
  quantity: number;
  dispensed_quantity: number;
  instructions: string | null;
  allergy_override_reason: string | null;
  refused_at: Date | string | null;
  refusal_reason: string | null;
  rb_id: string | null;
  rb_first: string | null;
  rb_last: string | null;
};
export async function linesOf(q: Queryable, prescriptionIds: readonly string[]): Promise<LineDbRow[]> {
  if (!prescriptionIds.length) return [];
  const res =
    await q.execute<LineDbRow>(sql`select ${PRESENTATION_COLUMNS}, l.id as line_id, l.prescription_id,
      l.position, m.id as m_id, m.inn_fr, m.inn_en, m.atc_code, array_to_json(m.allergy_classes) as allergy_classes,
      l.dose, l.dose_unit, l.route as line_route, l.frequency, l.duration_days, l.quantity, l.dispensed_quantity,
      l.instructions, l.allergy_override_reason, l.refused_at, l.refusal_reason,
      rb.id as rb_id, rb.first_name as rb_first, rb.last_name as rb_last
    from prescription_lines l join medication_presentations pr on pr.id = l.presentation_id
    join medications m on m.id = l.medication_id left join users rb on rb.id = l.refused_by
    where l.prescription_id in (${sqlList(prescriptionIds)}) order by l.prescription_id, l.position`);
  return res.rows;
}

/** What the safety checks need of the patient: allergies, age, and the latest weight of the last 30 days. */
export async function patientFacts(q: Queryable, hospitalId: string, patientId: string) {
  const res = await q.execute<{
    id: string;
    birth_date: string | null;
    allergies: string[] | string;
    weight: number | string | null;
  }>(sql`select p.id, p.birth_date::text as birth_date, array_to_json(p.allergies) as allergies,
      (select w.weight from (
         select t.weight, t.recorded_at as at from triage_records t
          where t.patient_id = p.id and t.weight is not null and t.recorded_at > now() - interval '30 days'
         union all
         select (c.vitals->>'weight')::numeric, c.updated_at from consultations c
          where c.patient_id = p.id and c.vitals ? 'weight' and jsonb_typeof(c.vitals->'weight') = 'number'
            and c.updated_at > now() - interval '30 days'
       ) w order by w.at desc limit 1) as weight
    from patients p where p.id = ${patientId} and p.hospital_id = ${hospitalId}`);
  const r = res.rows[0];
  if (!r) return null;
  return {
    id: r.id,
    birthDate: r.birth_date,
    allergies: textArray(r.allergies),
    weight: r.weight === null ? null : Number(r.weight),
  };
}

/** The medicines of the patient's active prescriptions (signed or partially dispensed), but `exclude`. */
export async function activeMedications(
  q: Queryable,
  patientId: string,
  exclude: string | null,
): Promise<{ medication_id: string; number: string }[]> {
  const res = await q.execute<{ medication_id: string; number: string }>(sql`select distinct l.medication_id,
      rx.number from prescription_lines l join prescriptions rx on rx.id = l.prescription_id
    where rx.patient_id = ${patientId} and rx.status in ('signed', 'partially_dispensed')
      and l.dispensed_quantity < l.quantity and l.refused_at is null ${exclude ? sql`and rx.id <> ${exclude}` : sql``}`);
  return res.rows;
}

// Writing a prescription ---------------------------------------------------------------------------------

/** What a prescription's origin says: a consultation of the hospital (its department, patient and status), or null. */
export async function consultationOrigin(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ department_id: string; patient_id: string; status: string }>(
    sql`select department_id, patient_id, status from consultations where id = ${id} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** What a prescription's origin says: a stay of the hospital (its department, patient and status), or null. */
export async function stayOrigin(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ department_id: string; patient_id: string; status: string }>(
    sql`select department_id, patient_id, status from hospitalizations where id = ${id} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}

/** A prescription of the hospital, locked for its author's change (a draft saved or signed, a cancellation). */
export async function lockPrescriptionForChange(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    status: string;
    version: number;
    patient_id: string;
    prescriber_id: string;
    weight_kg: number | string | null;
  }>(sql`select id, status, version, patient_id, prescriber_id, weight_kg from prescriptions
      where id = ${id} and hospital_id = ${hospitalId} for update`);
  return res.rows[0] ?? null;
}

export type NewPrescription = typeof prescriptions.$inferInsert;
export type NewPrescriptionLine = typeof prescriptionLines.$inferInsert;

/** A new draft; returns its id. */
export async function insertPrescription(q: Queryable, values: NewPrescription): Promise<string> {
  const [row] = await q.insert(prescriptions).values(values).returning({ id: prescriptions.id });
  return row!.id;
}

export async function insertPrescriptionLines(q: Queryable, lines: NewPrescriptionLine[]) {
  await q.insert(prescriptionLines).values(lines);
}

/** Every line of a draft (a save writes them again). */
export async function deletePrescriptionLines(q: Queryable, prescriptionId: string) {
  await q.delete(prescriptionLines).where(eq(prescriptionLines.prescriptionId, prescriptionId));
}

/** A draft saved: its weight and notes when given, its next version. */
export async function saveDraftHead(
  q: Queryable,
  id: string,
  change: { weightKg: number | null | undefined; notes: string | null | undefined; version: number },
) {
  await q
    .update(prescriptions)
    .set({
      ...(change.weightKg !== undefined ? { weightKg: change.weightKg } : {}),
      ...(change.notes !== undefined ? { notes: change.notes } : {}),
      version: change.version,
      updatedAt: new Date(),
    })
    .where(eq(prescriptions.id, id));
}

/** A draft signed (read-only from then on), at its next version. */
export async function markPrescriptionSigned(q: Queryable, id: string, version: number) {
  await q
    .update(prescriptions)
    .set({
      status: 'signed',
      signedAt: new Date(),
      version,
      updatedAt: new Date(),
    })
    .where(eq(prescriptions.id, id));
}

/** A prescription cancelled with its reason, at its next version. */
export async function markPrescriptionCancelled(
  q: Queryable,
  id: string,
  c: { by: string; reason: string; version: number },
) {
  const now = new Date();
  await q
    .update(prescriptions)
    .set({
      status: 'cancelled',
      cancelledAt: now,
      cancelledBy: c.by,
      cancelReason: c.reason,
      version: c.version,
      updatedAt: now,
    })
    .where(eq(prescriptions.id, id));
}

// Dispensing and refusal ---------------------------------------------------------------------------------

/** A prescription of the hospital, locked for a dispensing or a refusal (one at a time per prescription). */
export async function lockPrescription(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    status: string;
    number: string;
    patient_id: string;
    prescriber_id: string;
    weight_kg: number | string | null;
  }>(sql`select id, status, number, patient_id, prescriber_id, weight_kg from prescriptions
    where id = ${id} and hospital_id = ${hospitalId} for update`);
  return res.rows[0] ?? null;
}

/** Adds dispensed units to a line not refused; false when the line is refused (nothing changed). */
export async function addDispensedUnits(q: Queryable, lineId: string, quantity: number): Promise<boolean> {
  const res = await q.execute<{ id: string }>(sql`update prescription_lines
    set dispensed_quantity = dispensed_quantity + ${quantity}
    where id = ${lineId} and refused_at is null returning id`);
  return res.rows.length === 1;
}

/** The lines of a prescription still to hand out: not fully dispensed and not refused. */
export async function countLinesToDispense(q: Queryable, prescriptionId: string): Promise<number> {
  const res = await q.execute<{ n: number }>(sql`select count(*)::int as n from prescription_lines
    where prescription_id = ${prescriptionId} and dispensed_quantity < quantity and refused_at is null`);
  return Number(res.rows[0]?.n ?? 0);
}

/** A dispensing's outcome: the prescription partially dispensed or dispensed, at its next version. */
export async function setDispensingStatus(
  q: Queryable,
  id: string,
  status: 'dispensed' | 'partially_dispensed',
) {
  await q.execute(
    sql`update prescriptions set status = ${status}, version = version + 1, updated_at = now() where id = ${id}`,
  );
}

/** A refusal changes the prescription: its next version (the lines carry the refusal). */
export async function bumpPrescriptionVersion(q: Queryable, id: string) {
  await q.execute(sql`update prescriptions set version = version + 1, updated_at = now() where id = ${id}`);
}

/**
 * Refuses lines of a prescription that are neither refused nor fully dispensed (a conditional update: a line
 * dispensed or refused meanwhile is left alone). Returns the lines refused.
 */
export async function refuseLines(
  q: Queryable,
  prescriptionId: string,
  lineIds: readonly string[],
  by: string,
  reason: string,
): Promise<string[]> {
  if (!lineIds.length) return [];
  const res = await q.execute<{ id: string }>(sql`update prescription_lines
    set refused_at = now(), refused_by = ${by}, refusal_reason = ${reason}
    where prescription_id = ${prescriptionId} and id in (${sqlList(lineIds)})
      and refused_at is null and dispensed_quantity < quantity
    returning id`);
  return res.rows.map((r) => r.id);
}

/** The patient's name, for a notification. */
export async function patientName(q: Queryable, patientId: string) {
  const res = await q.execute<{ first_name: string; last_name: string }>(
    sql`select first_name, last_name from patients where id = ${patientId}`,
  );
  return res.rows[0] ?? null;
}
