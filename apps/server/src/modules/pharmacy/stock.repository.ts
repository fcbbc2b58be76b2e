import type { TLot, TMovement, TPresentation, TStockItem } from '@greensen/shared/contracts/pharmacy';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { stockItems, stockLots, stockMovements } from '../../db/schema/index.js';
import { isoRequired, personRef } from '../../lib/clinical.js';
import { sqlList } from '../../lib/queries.js';
import {
  medicationSearchParts,
  PRESENTATION_COLUMNS,
  type PresentationDbRow,
  setMedicationSearch,
  toPresentation,
} from './medications.repository.js';

/**
 * The pharmacies and their stock (issue 18): stock from the per-presentation summaries (`stock_items`, kept by the
 * ledger's trigger: no page scans lots or the ledger), the lots, the ledger and its writes.
 */

// Pharmacies ---------------------------------------------------------------------------------------------

export type DepartmentRow = {
  id: string;
  code: string;
  name: string;
  kind: string;
  is_active: boolean;
};
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

/** Today in the hospital's time zone and its setting `pharmacy_expiring_days` (null when it has none). */
export async function todayAndExpiringDays(q: Queryable, hospitalId: string) {
  const res = await q.execute<{ today: string; days: string | null }>(sql`select
        (now() at time zone h.time_zone)::date::text as today,
        s.pharmacy_expiring_days as days
      from hospitals h left join hospital_settings s on s.hospital_id = h.id where h.id = ${hospitalId}`);
  return res.rows[0]!;
}

// Stock --------------------------------------------------------------------------------------------------

export interface StockFilters {
  pharmacy?: string | undefined;
  search?: string | undefined;
  alert?: 'low' | 'out' | 'expiring' | 'expired' | undefined;
  presentation?: string | undefined;
  medication?: string | undefined;
}

type StockDbRow = PresentationDbRow & {
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
};

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

type LotDbRow = PresentationDbRow & {
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
};
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

export type LockedLot = {
  id: string;
  pharmacy_id: string;
  presentation_id: string;
  lot_number: string;
  expiry_date: string;
  on_hand: number;
  unit_cost: number | string | null;
};
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

/** Lots chosen by id, locked, first expiry first (of any pharmacy or presentation: the caller checks them). */
export async function lockLotsById(q: Queryable, ids: readonly string[]): Promise<LockedLot[]> {
  const res = await q.execute<LockedLot>(sql`select id, pharmacy_id, presentation_id, lot_number,
        expiry_date::text as expiry_date, on_hand, unit_cost from stock_lots
      where id in (${sqlList(ids)}) order by expiry_date, id for update`);
  return res.rows;
}

/**
 * The lot of that number of a presentation in the pharmacy, made when new (with the expiry date and cost given):
 * its id and its expiry date, which may be another one when the lot existed.
 */
export async function ensureLot(q: Queryable, lot: typeof stockLots.$inferInsert) {
  await q.insert(stockLots).values(lot).onConflictDoNothing();
  const res = await q.execute<{ id: string; expiry_date: string }>(
    sql`select id, expiry_date::text as expiry_date from stock_lots where pharmacy_id = ${lot.pharmacyId}
        and presentation_id = ${lot.presentationId} and lot_number = ${lot.lotNumber}`,
  );
  return res.rows[0]!;
}

/** The reorder level of a presentation in a pharmacy (null: none), its summary row made when new. */
export async function setReorderLevel(
  q: Queryable,
  v: { hospitalId: string; pharmacyId: string; presentationId: string; level: number | null },
) {
  await q
    .insert(stockItems)
    .values({
      hospitalId: v.hospitalId,
      pharmacyId: v.pharmacyId,
      presentationId: v.presentationId,
      reorderLevel: v.level,
    })
    .onConflictDoUpdate({
      target: [stockItems.pharmacyId, stockItems.presentationId],
      set: { reorderLevel: v.level, updatedAt: new Date() },
    });
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

// Ledger -------------------------------------------------------------------------------------------------

export interface MovementFilters {
  pharmacy?: string | undefined;
  presentation?: string | undefined;
  lot?: string | undefined;
  kind?: TMovement['kind'] | undefined;
  medication?: string | undefined;
  ids?: readonly string[] | undefined;
}
type MovementDbRow = {
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
};

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

export type NewMovementRow = typeof stockMovements.$inferInsert;
export type MovementKind = NewMovementRow['kind'];

/**
 * Ledger rows, in order; returns their ids. The database applies each to its lot in the same statement and
 * refuses a lot going negative (a check violation, for the caller to answer).
 */
export async function insertMovements(q: Queryable, rows: NewMovementRow[]): Promise<string[]> {
  const inserted = await q.insert(stockMovements).values(rows).returning({ id: stockMovements.id });
  return inserted.map((r) => r.id);
}
