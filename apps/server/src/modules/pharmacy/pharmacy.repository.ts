import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type {
  TFrequency,
  TLot,
  TMovement,
  TPresentation,
  TStockItem,
} from '@greensen/shared/contracts/pharmacy';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  DEPARTMENT_REF_COLUMNS,
  isoRequired,
  PATIENT_REF_COLUMNS,
  personRef,
  type RefRow,
  textArray,
} from '../../lib/clinical.js';
import { containsPattern, sqlList } from '../../lib/queries.js';
import { prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import { fold } from './pharmacy.rules.js';

/**
 * The pharmacy's reads (issue 18): the medication reference and its search, stock from the per-presentation
 * summaries (`stock_items`, kept by the ledger's trigger: no page scans lots or the ledger), lots, the ledger,
 * prescriptions and the facts the safety checks need.
 */

// Reference ----------------------------------------------------------------------------------------------

export interface MedicationDbRow {
  [column: string]: unknown;
  id: string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  group_fr: string;
  group_en: string;
  brands: string[] | string;
  allergy_classes: string[] | string;
  essential: boolean;
}
const MEDICATION_COLUMNS = sql.raw(
  `m.id, m.inn_fr, m.inn_en, m.atc_code, m.group_fr, m.group_en, array_to_json(m.brands) as brands,
   array_to_json(m.allergy_classes) as allergy_classes, m.essential`,
);
const SEARCH_TEXT = sql.raw('f_unaccent(lower(m.search_text))');
/** Word similarity of a typo-tolerant match (`artemeter` → `artéméther`, `amoxiciline` → `amoxicilline`). */
export const MEDICATION_WORD_THRESHOLD = 0.45;

export interface MedicationFilters {
  search?: string | undefined;
  atc?: string | undefined;
  inStockAt?: string | undefined;
}

export function medicationSearchParts(hospitalId: string, f: MedicationFilters) {
  const where: SQL[] = [sql`m.is_active`];
  const order: SQL[] = [];
  let words = false;
  if (f.atc) where.push(sql`m.atc_code like ${`${f.atc.toUpperCase()}%`}`);
  if (f.inStockAt)
    where.push(sql`exists (select 1 from stock_items s join medication_presentations pr on pr.id = s.presentation_id
      where pr.medication_id = m.id and s.pharmacy_id = ${f.inStockAt} and s.hospital_id = ${hospitalId}
        and s.on_hand > 0)`);
  const term = f.search?.trim();
  if (term) {
    const folded = fold(term);
    // The ATC code and the brands are in the searched text: a typed code is found by the substring arm.
    const arms: SQL[] = [sql`${SEARCH_TEXT} like ${containsPattern(folded)}`];
    if (folded.length >= 3) {
      arms.push(sql`${SEARCH_TEXT} %> ${folded}`);
      words = true;
    }
    where.push(sql`(${sql.join(arms, sql` or `)})`);
    const innStarts = sql`(f_unaccent(lower(m.inn_fr)) like ${`${folded}%`} or f_unaccent(lower(m.inn_en)) like ${`${folded}%`})`;
    order.push(
      sql`(m.atc_code = ${term.toUpperCase()}) desc nulls last`,
      sql`${innStarts} desc`,
      sql`word_similarity(${folded}, ${SEARCH_TEXT}) desc`,
    );
  }
  order.push(sql`m.inn_fr`, sql`m.id`);
  return { where: sql.join(where, sql` and `), order: sql.join(order, sql`, `), words };
}

/**
 * Sets, for the current transaction, the word-similarity threshold of `%>` and steers the planner to the trigram
 * index (as the ICD-10 search does): a sequential scan evaluates the unaccented text of every medicine.
 */
export async function setMedicationSearch(q: Queryable) {
  await q.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(MEDICATION_WORD_THRESHOLD)}, true),
    set_config('enable_seqscan', 'off', true)`);
}

/** One page of the search and the number of matches, in one statement (run it in a transaction). */
export async function searchMedications(
  q: Queryable,
  hospitalId: string,
  f: MedicationFilters,
  limit: number,
  offset: number,
): Promise<{ rows: MedicationDbRow[]; count: number }> {
  const { where, order, words } = medicationSearchParts(hospitalId, f);
  if (words) await setMedicationSearch(q);
  const rows = await q.execute<MedicationDbRow & { total: number }>(
    sql`select ${MEDICATION_COLUMNS}, count(*) over () as total from medications m where ${where}
      order by ${order} limit ${limit} offset ${offset}`,
  );
  if (rows.rows.length || offset === 0) return { rows: rows.rows, count: Number(rows.rows[0]?.total ?? 0) };
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from medications m where ${where}`,
  );
  return { rows: [], count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findMedication(q: Queryable, id: string): Promise<MedicationDbRow | null> {
  const res = await q.execute<MedicationDbRow>(
    sql`select ${MEDICATION_COLUMNS} from medications m where m.id = ${id}`,
  );
  return res.rows[0] ?? null;
}

export interface PresentationDbRow {
  [column: string]: unknown;
  id: string;
  medication_id: string;
  form: TPresentation['form'];
  strength: string;
  route: TPresentation['route'];
  unit: string;
  paediatric: boolean;
  is_active: boolean;
}
const PRESENTATION_COLUMNS = sql.raw(
  'pr.id, pr.medication_id, pr.form, pr.strength, pr.route, pr.unit, pr.paediatric, pr.is_active',
);

export async function presentationsOf(
  q: Queryable,
  medicationIds: readonly string[],
  activeOnly = true,
): Promise<Map<string, TPresentation[]>> {
  const out = new Map<string, TPresentation[]>();
  if (!medicationIds.length) return out;
  const res = await q.execute<PresentationDbRow>(sql`select ${PRESENTATION_COLUMNS}
    from medication_presentations pr where pr.medication_id in (${sqlList(medicationIds)})
    ${activeOnly ? sql`and pr.is_active` : sql``} order by pr.sort_order, pr.id`);
  for (const r of res.rows) {
    const list = out.get(r.medication_id) ?? [];
    list.push(toPresentation(r));
    out.set(r.medication_id, list);
  }
  return out;
}

export const toPresentation = (r: PresentationDbRow): TPresentation => ({
  id: r.id,
  form: r.form,
  strength: r.strength,
  route: r.route,
  unit: r.unit,
  paediatric: r.paediatric,
  is_active: r.is_active,
});

export const toMedication = (r: MedicationDbRow, presentations: TPresentation[]) => ({
  id: r.id,
  inn_fr: r.inn_fr,
  inn_en: r.inn_en,
  atc_code: r.atc_code,
  group_fr: r.group_fr,
  group_en: r.group_en,
  brands: textArray(r.brands),
  allergy_classes: textArray(r.allergy_classes),
  essential: r.essential,
  presentations,
});

/** A presentation with its medicine: what prescribing, substitution and receipts check. */
export interface PresentationFacts extends PresentationDbRow {
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  allergy_classes: string[] | string;
}
export async function presentationFacts(
  q: Queryable,
  ids: readonly string[],
): Promise<Map<string, PresentationFacts>> {
  if (!ids.length) return new Map();
  const res = await q.execute<PresentationFacts>(sql`select ${PRESENTATION_COLUMNS}, m.inn_fr, m.inn_en,
      m.atc_code, array_to_json(m.allergy_classes) as allergy_classes
    from medication_presentations pr join medications m on m.id = pr.medication_id
    where pr.id in (${sqlList([...new Set(ids)])})`);
  return new Map(res.rows.map((r) => [r.id, r]));
}

// Departments --------------------------------------------------------------------------------------------

export interface DepartmentRow {
  [column: string]: unknown;
  id: string;
  code: string;
  name: string;
  kind: string;
  is_active: boolean;
}
export async function findDepartment(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<DepartmentRow>(
    sql`select id, code, name, kind::text as kind, is_active from departments where id = ${id} and hospital_id = ${hospitalId}`,
  );
  return res.rows[0] ?? null;
}
/** The active members of the hospital's active pharmacy departments, with their role there (decision 0022). */
export async function pharmacyStaff(q: Queryable, hospitalId: string) {
  const res = await q.execute<{ user_id: string; role_code: string }>(sql`select m.user_id, m.role_code
    from memberships m
    join departments d on d.id = m.department_id and d.kind = 'pharmacy' and d.is_active
    join users u on u.id = m.user_id and u.is_active
    where m.hospital_id = ${hospitalId} and m.is_active`);
  return res.rows;
}

export async function pharmaciesOf(q: Queryable, hospitalId: string) {
  const res = await q.execute<DepartmentRow>(sql`select id, code, name, kind::text as kind, is_active
    from departments where hospital_id = ${hospitalId} and kind = 'pharmacy' and is_active order by name, id`);
  return res.rows;
}
const departmentRef = (r: { d_id: string; d_code: string; d_name: string; d_kind: string }) => ({
  id: r.d_id,
  code: r.d_code,
  name: r.d_name,
  kind: r.d_kind,
});

// Stock --------------------------------------------------------------------------------------------------

export interface StockFilters {
  pharmacy?: string | undefined;
  search?: string | undefined;
  alert?: 'low' | 'out' | 'expiring' | 'expired' | undefined;
  presentation?: string | undefined;
  medication?: string | undefined;
}

interface StockDbRow extends PresentationDbRow {
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
  m_id: string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  on_hand: number;
  lots: number;
  nearest_expiry: string | null;
  reorder_level: number | null;
}

/** The flags of a stock line on `today` (YYYY-MM-DD) with an expiring window of `days`. */
export function stockFlags(
  r: { on_hand: number; reorder_level: number | null; nearest_expiry: string | null },
  today: string,
  horizon: string,
): TStockItem['flags'] {
  const flags: TStockItem['flags'] = [];
  if (r.on_hand === 0) flags.push('out');
  else if (r.reorder_level !== null && r.on_hand <= r.reorder_level) flags.push('low');
  if (r.nearest_expiry && r.nearest_expiry < today) flags.push('expired');
  else if (r.nearest_expiry && r.nearest_expiry <= horizon) flags.push('expiring');
  return flags;
}

function alertSql(alert: StockFilters['alert'], today: string, horizon: string): SQL {
  switch (alert) {
    case 'out':
      return sql`s.on_hand = 0`;
    case 'low':
      return sql`s.on_hand > 0 and s.reorder_level is not null and s.on_hand <= s.reorder_level`;
    case 'expired':
      return sql`s.nearest_expiry < ${today}::date`;
    case 'expiring':
      return sql`s.nearest_expiry >= ${today}::date and s.nearest_expiry <= ${horizon}::date`;
    default:
      return sql`true`;
  }
}

export async function listStock(
  q: Queryable,
  hospitalId: string,
  f: StockFilters,
  dates: { today: string; horizon: string },
  limit: number,
  offset: number,
): Promise<{ rows: TStockItem[]; count: number }> {
  const conds: SQL[] = [sql`s.hospital_id = ${hospitalId}`, alertSql(f.alert, dates.today, dates.horizon)];
  if (f.pharmacy) conds.push(sql`s.pharmacy_id = ${f.pharmacy}`);
  if (f.presentation) conds.push(sql`s.presentation_id = ${f.presentation}`);
  if (f.medication) conds.push(sql`pr.medication_id = ${f.medication}`);
  let words = false;
  if (f.search?.trim()) {
    const { where, words: w } = medicationSearchParts(hospitalId, { search: f.search });
    conds.push(where);
    words = w;
  }
  if (words) await setMedicationSearch(q);
  const where = sql.join(conds, sql` and `);
  const joins = sql`join medication_presentations pr on pr.id = s.presentation_id
    join medications m on m.id = pr.medication_id`;
  // A pharmacy's page is a range of `stock_items_pharmacy_sort_idx` (the pharmacy fixed, by name).
  const res = await q.execute<StockDbRow>(sql`select ${PRESENTATION_COLUMNS}, d.id as d_id, d.code as d_code,
      d.name as d_name, d.kind::text as d_kind, m.id as m_id, m.inn_fr, m.inn_en, m.atc_code, s.on_hand, s.lots,
      s.nearest_expiry::text as nearest_expiry, s.reorder_level
    from stock_items s ${joins} join departments d on d.id = s.pharmacy_id
    where ${where} order by s.sort_key, s.presentation_id, s.pharmacy_id limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from stock_items s ${f.search || f.medication ? joins : sql``} where ${where}`,
  );
  return {
    rows: res.rows.map((r) => ({
      pharmacy: departmentRef(r),
      medication: { id: r.m_id, inn_fr: r.inn_fr, inn_en: r.inn_en, atc_code: r.atc_code },
      presentation: toPresentation(r),
      on_hand: Number(r.on_hand),
      lots: Number(r.lots),
      nearest_expiry: r.nearest_expiry,
      reorder_level: r.reorder_level === null ? null : Number(r.reorder_level),
      flags: stockFlags(
        { on_hand: Number(r.on_hand), reorder_level: r.reorder_level, nearest_expiry: r.nearest_expiry },
        dates.today,
        dates.horizon,
      ),
    })),
    count: Number(counted.rows[0]?.n ?? 0),
  };
}

interface LotDbRow extends PresentationDbRow {
  lot_id: string;
  lot_number: string;
  expiry_date: string;
  on_hand: number;
  unit_cost: number | string | null;
  pharmacy_id: string;
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
  m_id: string;
  inn_fr: string;
  inn_en: string;
}
const LOT_SELECT = sql`select ${PRESENTATION_COLUMNS}, l.id as lot_id, l.lot_number,
    l.expiry_date::text as expiry_date, l.on_hand, l.unit_cost, l.pharmacy_id, d.id as d_id, d.code as d_code,
    d.name as d_name, d.kind::text as d_kind, m.id as m_id, m.inn_fr, m.inn_en
  from stock_lots l join medication_presentations pr on pr.id = l.presentation_id
  join medications m on m.id = pr.medication_id join departments d on d.id = l.pharmacy_id`;

const toLot = (r: LotDbRow, today: string): TLot => ({
  id: r.lot_id,
  pharmacy: departmentRef(r),
  medication: { id: r.m_id, inn_fr: r.inn_fr, inn_en: r.inn_en },
  presentation: toPresentation(r),
  lot_number: r.lot_number,
  expiry_date: r.expiry_date,
  on_hand: Number(r.on_hand),
  unit_cost: r.unit_cost === null ? null : Number(r.unit_cost),
  expired: r.expiry_date < today,
});

export interface LotFilters {
  pharmacy?: string | undefined;
  presentation?: string | undefined;
  available?: boolean | undefined;
  /** Lots with units left expiring on or before this date (alerts). */
  expiringBy?: string | undefined;
  ids?: readonly string[] | undefined;
}

export async function listLots(
  q: Queryable,
  hospitalId: string,
  f: LotFilters,
  today: string,
  limit: number,
  offset: number,
): Promise<{ rows: TLot[]; count: number }> {
  const conds: SQL[] = [sql`l.hospital_id = ${hospitalId}`];
  if (f.pharmacy) conds.push(sql`l.pharmacy_id = ${f.pharmacy}`);
  if (f.presentation) conds.push(sql`l.presentation_id = ${f.presentation}`);
  if (f.available ?? true) conds.push(sql`l.on_hand > 0`);
  if (f.expiringBy) conds.push(sql`l.on_hand > 0 and l.expiry_date <= ${f.expiringBy}::date`);
  if (f.ids) conds.push(f.ids.length ? sql`l.id in (${sqlList(f.ids)})` : sql`false`);
  const where = sql.join(conds, sql` and `);
  const res = await q.execute<LotDbRow>(
    sql`${LOT_SELECT} where ${where} order by l.expiry_date, l.id limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from stock_lots l where ${where}`,
  );
  return { rows: res.rows.map((r) => toLot(r, today)), count: Number(counted.rows[0]?.n ?? 0) };
}

export interface LockedLot {
  [column: string]: unknown;
  id: string;
  pharmacy_id: string;
  presentation_id: string;
  lot_number: string;
  expiry_date: string;
  on_hand: number;
  unit_cost: number | string | null;
}
const LOCKED_LOT_COLUMNS = sql.raw(
  'l.id, l.pharmacy_id, l.presentation_id, l.lot_number, l.expiry_date::text as expiry_date, l.on_hand, l.unit_cost',
);

/** A lot of the hospital, locked for the rest of the transaction. */
export async function lockLot(q: Queryable, hospitalId: string, id: string): Promise<LockedLot | null> {
  const res = await q.execute<LockedLot>(
    sql`select ${LOCKED_LOT_COLUMNS} from stock_lots l where l.id = ${id} and l.hospital_id = ${hospitalId} for update`,
  );
  return res.rows[0] ?? null;
}

/**
 * The dispensable lots of a presentation in a pharmacy, first expiry first, locked: unexpired, with units left.
 * Of two transactions that want the last unit, the second waits on the lock and then no longer sees the lot.
 */
export async function lockFefoLots(
  q: Queryable,
  pharmacyId: string,
  presentationId: string,
  today: string,
): Promise<LockedLot[]> {
  const res = await q.execute<LockedLot>(sql`select ${LOCKED_LOT_COLUMNS} from stock_lots l
    where l.pharmacy_id = ${pharmacyId} and l.presentation_id = ${presentationId}
      and l.expiry_date >= ${today}::date and l.on_hand > 0
    order by l.expiry_date, l.id for update`);
  return res.rows;
}

// Ledger -------------------------------------------------------------------------------------------------

export interface MovementFilters {
  pharmacy?: string | undefined;
  presentation?: string | undefined;
  lot?: string | undefined;
  kind?: TMovement['kind'] | undefined;
  medication?: string | undefined;
  ids?: readonly string[] | undefined;
}
interface MovementDbRow {
  [column: string]: unknown;
  id: string;
  kind: TMovement['kind'];
  quantity: number;
  reference: string | null;
  reason: string | null;
  prescription_id: string | null;
  at: Date | string;
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
  lot_id: string;
  lot_number: string;
  expiry_date: string;
  m_id: string;
  inn_fr: string;
  inn_en: string;
  pr_id: string;
  strength: string;
  form: TPresentation['form'];
  unit: string;
  u_id: string;
  u_first: string;
  u_last: string;
}

export async function listMovements(
  q: Queryable,
  hospitalId: string,
  f: MovementFilters,
  limit: number,
  offset: number,
): Promise<{ rows: TMovement[]; count: number }> {
  const conds: SQL[] = [sql`mv.hospital_id = ${hospitalId}`];
  if (f.pharmacy) conds.push(sql`mv.pharmacy_id = ${f.pharmacy}`);
  if (f.presentation) conds.push(sql`mv.presentation_id = ${f.presentation}`);
  if (f.lot) conds.push(sql`mv.lot_id = ${f.lot}`);
  if (f.kind) conds.push(sql`mv.kind = ${f.kind}`);
  if (f.medication)
    conds.push(
      sql`mv.presentation_id in (select id from medication_presentations where medication_id = ${f.medication})`,
    );
  if (f.ids) conds.push(f.ids.length ? sql`mv.id in (${sqlList(f.ids)})` : sql`false`);
  const where = sql.join(conds, sql` and `);
  const res = await q.execute<MovementDbRow>(sql`select mv.id, mv.kind, mv.quantity, mv.reference, mv.reason,
      mv.prescription_id, mv.at, d.id as d_id, d.code as d_code, d.name as d_name, d.kind::text as d_kind,
      l.id as lot_id, l.lot_number, l.expiry_date::text as expiry_date, m.id as m_id, m.inn_fr, m.inn_en,
      pr.id as pr_id, pr.strength, pr.form, pr.unit, u.id as u_id, u.first_name as u_first, u.last_name as u_last
    from stock_movements mv join departments d on d.id = mv.pharmacy_id join stock_lots l on l.id = mv.lot_id
    join medication_presentations pr on pr.id = mv.presentation_id join medications m on m.id = pr.medication_id
    join users u on u.id = mv.by_id
    where ${where} order by mv.at desc, mv.id desc limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from stock_movements mv where ${where}`,
  );
  return {
    rows: res.rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      pharmacy: departmentRef(r),
      lot: { id: r.lot_id, lot_number: r.lot_number, expiry_date: r.expiry_date },
      medication: { id: r.m_id, inn_fr: r.inn_fr, inn_en: r.inn_en },
      presentation: { id: r.pr_id, strength: r.strength, form: r.form, unit: r.unit },
      quantity: Number(r.quantity),
      reference: r.reference,
      reason: r.reason,
      prescription: r.prescription_id,
      by: personRef(r.u_id, r.u_first, r.u_last)!,
      at: isoRequired(r.at),
    })),
    count: Number(counted.rows[0]?.n ?? 0),
  };
}

// Prescriptions ------------------------------------------------------------------------------------------

export interface PrescriptionDbRow extends RefRow {
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
}
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

export interface LineDbRow extends PresentationDbRow {
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
}
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

/** Units per presentation in the hospital: unexpired and all, to warn of stock-outs when prescribing. */
export async function stockAvailability(
  q: Queryable,
  hospitalId: string,
  presentationIds: readonly string[],
  today: string,
): Promise<Map<string, { usable: number; all: number }>> {
  if (!presentationIds.length) return new Map();
  const res = await q.execute<{ presentation_id: string; usable: number; total: number }>(sql`
    select l.presentation_id, coalesce(sum(l.on_hand) filter (where l.expiry_date >= ${today}::date), 0)::int as usable,
      coalesce(sum(l.on_hand), 0)::int as total
    from stock_lots l where l.hospital_id = ${hospitalId} and l.on_hand > 0
      and l.presentation_id in (${sqlList([...new Set(presentationIds)])})
    group by l.presentation_id`);
  return new Map(
    res.rows.map((r) => [r.presentation_id, { usable: Number(r.usable), all: Number(r.total) }]),
  );
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
