/**
 * The SQL of an invoice's assembly (issue 21, decision 0027; issue 41): the encounter and its live invoice,
 * locked; the coverages that may pay; the acts derived from what the journey recorded; the acts not billed yet.
 */
import type { TInvoiceVisit } from '@greensen/shared/contracts/billing';
import type { PayerCategory } from '@greensen/shared/contracts/medical-acts';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { invoices } from '../../db/schema/index.js';
import { isoRequired } from '../../lib/clinical.js';
import { examOfStay, prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { notOnInvoice, ruleJoin, type SplitRow, splitRowsOf, tariffOn } from './invoice-lines.repository.js';
import { liveInvoice } from './invoice-money.js';
import { actsOfEncounter, type Encounter, findEncounter } from './medical-acts.repository.js';

/** A UUID v7 made by the database (rows derived in one INSERT … SELECT), like the application's ids. */
const UUID_V7 = sql.raw(
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`,
);

/**
 * The visit or stay of `ref` (404: null) with, in the same statement, the caller's billing roles (`roles`:
 * `billingRoles` of billing.access.ts) and the encounter's live invoice, locked until the transaction ends.
 */
export function lockEncounterForAssembly(
  q: Queryable,
  hospitalId: string,
  ref: { admission?: string | null | undefined; hospitalization?: string | null | undefined },
  roles: SQL,
) {
  const encCol = ref.admission ? sql`admission_id` : sql`hospitalization_id`;
  return findEncounter<{
    roles: string | null;
    invoice_id: string | null;
    invoice_status: string | null;
    invoice_payer_id: string | null;
    invoice_payer_category: PayerCategory | null;
  }>(q, hospitalId, ref, {
    columns: sql`, ${roles} as roles, inv.id as invoice_id, inv.status as invoice_status,
          inv.payer_id as invoice_payer_id, inv.payer_category as invoice_payer_category`,
    joins: sql`left join (select id, status, payer_id, payer_category from invoices
          where ${encCol} = ${ref.admission ? ref.admission : (ref.hospitalization ?? null)} and ${liveInvoice()} for update) inv on true`,
  });
}

/**
 * The patient's coverages valid on `day` whose payer is active (or the one `coverageId`), the latest first, with
 * the payer's category and eligibility.
 */
export async function coveragesValidOn(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  day: string,
  coverageId?: string | null,
) {
  const res = await q.execute<{
    id: string;
    payer_id: string;
    member_number: string;
    payer_category: PayerCategory;
    max_age_years: number | null;
    eligible_sex: 'F' | 'M' | null;
  }>(sql`select c.id, c.payer_id, c.member_number, py.payer_category, py.max_age_years, py.eligible_sex
      from patient_coverages c join payers py on py.id = c.payer_id
      where c.hospital_id = ${hospitalId} and c.patient_id = ${patientId} and py.is_active
        ${coverageId ? sql`and c.id = ${coverageId}` : sql``}
        and c.valid_from <= ${day}::date and (c.valid_to is null or c.valid_to >= ${day}::date)
      order by c.valid_from desc, c.id`);
  return res.rows;
}

/** A new draft; null when the encounter has a live invoice already (its unique index: another assembly won). */
export async function insertDraftInvoice(
  q: Queryable,
  values: typeof invoices.$inferInsert,
): Promise<string | null> {
  const [row] = await q.insert(invoices).values(values).onConflictDoNothing().returning({ id: invoices.id });
  return row?.id ?? null;
}

/** Changes a draft's payer (coverage, member number) or payer category. */
export async function updateDraftPayer(
  q: Queryable,
  invoiceId: string,
  set: Partial<typeof invoices.$inferInsert>,
) {
  await q.update(invoices).set(set).where(sql`${invoices.id} = ${invoiceId}`);
}

/**
 * Derives the performed acts the journey recorded, once each (`(source, source_ref)` is unique): completed
 * consultations and validated exams of a visit; bed-days, validated exams and dispensed medicines of a stay;
 * dispensed medicines of the visit's prescriptions. Answers the labels of the sources without an act in the
 * catalogue (at most 200).
 */
export async function deriveActsOfEncounter(q: Queryable, hospitalId: string, enc: Encounter) {
  const visit = enc.kind === 'admission';
  const encCol = visit ? sql`${enc.id}::uuid, null::uuid` : sql`null::uuid, ${enc.id}::uuid`;
  const insert = sql`insert into performed_acts (id, hospital_id, patient_id, act_id, admission_id,
      hospitalization_id, quantity, source, source_ref, performed_at, performed_by)`;
  const conflictClause = sql`on conflict (hospital_id, source, source_ref) where source_ref is not null do nothing`;
  // The encounter's own source: a visit's completed consultations; a stay's bed-days, one per calendar day of
  // the stay in the hospital's time zone, the day of discharge excluded (a stay that starts and ends the same
  // day counts one).
  const own = visit
    ? sql`${insert}
        select ${UUID_V7}, ${hospitalId}::uuid, c.patient_id, ma.id, ${encCol}, 1, 'consultation'::act_source, c.id::text,
          coalesce(c.completed_at, c.started_at), c.doctor_id
        from consultations c
        join medical_acts ma on ma.hospital_id = ${hospitalId} and ma.auto_source = 'consultation' and ma.is_active
        where c.admission_id = ${enc.id} and c.status = 'completed'
        ${conflictClause}`
    : sql`${insert}
        select ${UUID_V7}, ${hospitalId}::uuid, s.patient_id, ma.id, ${encCol}, 1, 'bed_day'::act_source,
          s.id::text || ':' || d::date::text, (d::date)::timestamp at time zone h.time_zone, null
        from hospitalizations s join hospitals h on h.id = s.hospital_id
        join medical_acts ma on ma.hospital_id = ${hospitalId} and ma.auto_source = 'bed_day' and ma.is_active
        cross join lateral generate_series(
          (s.admitted_at at time zone h.time_zone)::date,
          greatest((s.admitted_at at time zone h.time_zone)::date,
                   (coalesce(s.ended_at, now()) at time zone h.time_zone)::date - 1),
          interval '1 day') d
        where s.id = ${enc.id} and s.admitted_at is not null
        ${conflictClause}`;
  // A stay also bills the consultations of the visit it came from (issue 37), unless already derived.
  const visitConsultations = visit
    ? sql`select 1`
    : sql`${insert}
        select ${UUID_V7}, ${hospitalId}::uuid, c.patient_id, ma.id, ${encCol}, 1, 'consultation'::act_source, c.id::text,
          coalesce(c.completed_at, c.started_at), c.doctor_id
        from hospitalizations s join consultations c on c.admission_id = s.admission_id and c.status = 'completed'
        join medical_acts ma on ma.hospital_id = ${hospitalId} and ma.auto_source = 'consultation' and ma.is_active
        where s.id = ${enc.id}
        ${conflictClause} returning 1`;
  const examScope = visit
    ? sql`(eo.admission_id = ${enc.id} or eo.consultation_id in (select id from consultations where admission_id = ${enc.id}))`
    : sql`exists (select 1 from hospitalizations s where s.id = ${enc.id} and ${examOfStay('eo', 's')})`;
  // The stay's medicines are its orders (the one predicate the MAR and the stay page read).
  const rxScope = visit
    ? sql`pr.hospitalization_id is null and pr.consultation_id in (select id from consultations where admission_id = ${enc.id})`
    : sql`exists (select 1 from hospitalizations s where s.id = ${enc.id}
          and ${prescriptionOfStay('pr', sql`s.id`, sql`s.admission_id`)})`;
  // One statement (a refresh is a round trip per statement): the three derivations run as data-modifying
  // WITH clauses (each runs once, to completion, whether read or not; they insert from different sources so
  // none needs to see another's rows), and the statement answers what could not be derived for want of an act
  // in the catalogue.
  const missing = await q.execute<{ label: string }>(sql`with own as (${own} returning 1),
      visit_consultations as (${visitConsultations}),
      exams as (${insert}
        select ${UUID_V7}, ${hospitalId}::uuid, eo.patient_id, ma.id, ${encCol}, 1, 'exam'::act_source, eo.id::text,
          coalesce(eo.validated_at, eo.requested_at), eo.validated_by
        from exam_orders eo
        join medical_acts ma on ma.hospital_id = ${hospitalId} and ma.exam_id = eo.exam_id and ma.is_active
        where eo.hospital_id = ${hospitalId} and eo.status = 'validated' and ${examScope}
        ${conflictClause} returning 1),
      dispensed as (${insert}
        select ${UUID_V7}, ${hospitalId}::uuid, pr.patient_id, ma.id, ${encCol}, -sm.quantity, 'dispensation'::act_source,
          sm.id::text, sm.at, sm.by_id
        from stock_movements sm join prescriptions pr on pr.id = sm.prescription_id
        join medical_acts ma on ma.hospital_id = ${hospitalId} and ma.presentation_id = sm.presentation_id and ma.is_active
        where sm.hospital_id = ${hospitalId} and sm.kind = 'dispense' and ${rxScope}
        ${conflictClause} returning 1)
      select ec.code || ' ' || ec.name_fr as label from exam_orders eo join exam_catalogue ec on ec.id = eo.exam_id
        where eo.hospital_id = ${hospitalId} and eo.status = 'validated' and ${examScope}
          and not exists (select 1 from medical_acts ma where ma.hospital_id = ${hospitalId} and ma.exam_id = eo.exam_id and ma.is_active)
      union all
      select m.inn_fr || ' ' || mp.strength as label from stock_movements sm join prescriptions pr on pr.id = sm.prescription_id
        join medication_presentations mp on mp.id = sm.presentation_id join medications m on m.id = mp.medication_id
        where sm.hospital_id = ${hospitalId} and sm.kind = 'dispense' and ${rxScope}
          and not exists (select 1 from medical_acts ma where ma.hospital_id = ${hospitalId} and ma.presentation_id = sm.presentation_id and ma.is_active)
      limit 200`);
  return missing.rows.map((r) => r.label);
}

/** A row of `linesAndUnbilledActs`: a line of the invoice (`SplitRow`) or an act not billed yet. */
export type LineOrAct = SplitRow & {
  kind: 'line' | 'act';
  position: number | null;
  act_id: string | null;
  quantity: number | null;
  code: string | null;
  label_fr: string | null;
  label_en: string | null;
  price: string | number | null;
};

/**
 * In one statement: the invoice's lines as the split reads them (in position order), then the encounter's
 * performed acts not on the invoice yet (in the order they were performed) with their price for `category` on
 * the day they were performed (null: no tariff) and the payer's rule for their category.
 */
export async function linesAndUnbilledActs(
  q: Queryable,
  invoiceId: string,
  enc: Encounter,
  category: PayerCategory,
  payerId: string | null,
): Promise<LineOrAct[]> {
  const res =
    await q.execute<LineOrAct>(sql`select 'line' as kind, l.*, null::uuid as act_id, null::int as quantity, null as code, null as label_fr,
        null as label_en, null::bigint as price, null::timestamptz as performed_at
      from (${splitRowsOf(invoiceId, payerId)}) l
      union all
      select 'act', pa.id, null, ma.category, null, null, false, r.rate_percent, r.ceiling, pa.act_id, pa.quantity,
        ma.code, ma.label_fr, ma.label_en,
        ${tariffOn(sql`pa.act_id`, category, sql`pa.performed_at`)},
        pa.performed_at
      from performed_acts pa join medical_acts ma on ma.id = pa.act_id join hospitals h on h.id = pa.hospital_id
      ${ruleJoin(payerId, sql`ma.category`)}
      where ${actsOfEncounter(enc)} and pa.cancelled_at is null and ${notOnInvoice(invoiceId)}
      order by kind desc, position, performed_at, id`);
  return res.rows;
}

type InvoiceVisitRow = {
  id: string;
  admitted_at: Date | string;
  department: string;
  status: TInvoiceVisit['status'];
  invoice_id: string | null;
  invoice_status: 'draft' | 'issued' | null;
};

/**
 * « Facturer une visite »'s list (issue 37, decision 0088): the patient's visits in the hospital, newest first, with
 * their live invoice (one per visit: the unique index) — the date, department and status only; the count only past
 * a full first page.
 */
export async function listInvoiceVisits(
  q: Queryable,
  hospitalId: string,
  patientId: string,
  limit: number,
  offset: number,
): Promise<{ rows: TInvoiceVisit[]; count: number }> {
  const where = sql`a.hospital_id = ${hospitalId} and a.patient_id = ${patientId}`;
  const res = await q.execute<InvoiceVisitRow>(sql`select a.id, a.admitted_at, d.name as department,
      a.status::text as status, inv.id as invoice_id, inv.status::text as invoice_status
    from admissions a
    join departments d on d.id = a.department_id
    left join lateral (select i.id, i.status from invoices i
      where i.hospital_id = a.hospital_id and i.admission_id = a.id and ${liveInvoice('i')} limit 1) inv on true
    where ${where}
    order by a.admitted_at desc, a.id desc limit ${limit} offset ${offset}`);
  const rows = res.rows.map(
    (r): TInvoiceVisit => ({
      id: r.id,
      admitted_at: isoRequired(r.admitted_at),
      department: r.department,
      status: r.status,
      invoice: r.invoice_id && r.invoice_status ? { id: r.invoice_id, status: r.invoice_status } : null,
    }),
  );
  if (offset === 0 && rows.length < limit) return { rows, count: rows.length };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from admissions a where ${where}`,
  );
  return { rows, count: Number(counted.rows[0]?.n ?? 0) };
}
