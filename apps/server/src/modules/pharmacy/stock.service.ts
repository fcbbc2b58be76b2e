import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import type {
  TLot,
  TLotCorrection,
  TMedicationDetail,
  TReceiptCreate,
  TStockItem,
} from '@greensen/shared/contracts/pharmacy';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isCheckViolation, notFound } from '../../lib/errors.js';
import {
  findMedication,
  type MedicationFilters,
  presentationFacts,
  presentationsOf,
  searchMedications,
  toMedication,
} from './medications.repository.js';
import { managesPharmacy } from './prescriptions.service.js';
import {
  ensureLot,
  findDepartment,
  insertMovements,
  type LockedLot,
  type LotFilters,
  listLots,
  listMovements,
  listStock,
  lockLot,
  type MovementFilters,
  type MovementKind,
  pharmaciesOf,
  type StockFilters,
  setReorderLevel,
  todayAndExpiringDays,
} from './stock.repository.js';

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

export interface NewMovement {
  pharmacyId: string;
  lotId: string;
  presentationId: string;
  kind: MovementKind;
  quantity: number;
  reference?: string | null;
  reason?: string | null;
  prescriptionId?: string | null;
  prescriptionLineId?: string | null;
}

/**
 * Stock by lot and its ledger (issue 18): receipts, corrections, transfers, reorder levels, alerts and the
 * medication reference's reads; dispensing against signed prescriptions is `dispensing.service.ts`. Every change of
 * a lot is a ledger row; the database applies it to the lot (and refuses a negative lot) in the same statement.
 */
export class StockService {
  constructor(private readonly app: FastifyInstance) {}

  /** Today in the hospital's time zone and its expiring window (hospital setting `pharmacy_expiring_days`). */
  async dates(q: Queryable, hospitalId: string) {
    const row = await todayAndExpiringDays(q, hospitalId);
    const today = row.today;
    const days = Number(row.days ?? DEFAULT_HOSPITAL_SETTINGS.pharmacy_expiring_days);
    return { today, days, horizon: addDays(today, days) };
  }

  /** A pharmacy department of the hospital (404 otherwise) that the caller works in (403 otherwise). */
  async pharmacy(q: Queryable, ctx: ServiceContext, id: string, field = 'pharmacy') {
    const d = await findDepartment(q, scopedHospital(ctx).id, id);
    if (d?.kind !== 'pharmacy' || !d.is_active) throw notFound(`pharmacy.${field}_unknown`);
    if (!managesPharmacy(ctx, id)) throw forbidden('pharmacy.not_member');
    return d;
  }

  /** Writes ledger rows by the caller; a lot that would go negative is a 409. */
  async move(tx: Tx, ctx: ServiceContext, moves: NewMovement[]): Promise<string[]> {
    if (!moves.length) return [];
    const hospital = scopedHospital(ctx);
    const by = actingUser(ctx).id;
    try {
      return await insertMovements(
        tx,
        moves.map((m) => ({ ...m, hospitalId: hospital.id, byId: by })),
      );
    } catch (error) {
      if (isCheckViolation(error)) throw conflict('pharmacy.insufficient_stock', { available: 0 });
      throw error;
    }
  }

  // Reference ---------------------------------------------------------------------------------------------

  async medications(ctx: ServiceContext, f: MedicationFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const { rows, count } = await this.app.db.transaction((tx) =>
      searchMedications(tx, hospital.id, f, pageSize, (page - 1) * pageSize),
    );
    const presentations = await presentationsOf(
      this.app.db,
      rows.map((r) => r.id),
    );
    return { count, rows: rows.map((r) => toMedication(r, presentations.get(r.id) ?? [])) };
  }

  async medication(ctx: ServiceContext, id: string): Promise<TMedicationDetail> {
    const hospital = scopedHospital(ctx);
    const row = await findMedication(this.app.db, id);
    if (!row) throw notFound();
    const presentations = (await presentationsOf(this.app.db, [id], false)).get(id) ?? [];
    const dates = await this.dates(this.app.db, hospital.id);
    const stock = await listStock(this.app.db, hospital.id, { medication: id }, dates, 500, 0);
    const movements = await listMovements(this.app.db, hospital.id, { medication: id }, 50, 0);
    return {
      ...toMedication(row, presentations),
      stock: stock.rows.map((s) => ({
        pharmacy: s.pharmacy,
        presentation: s.presentation.id,
        on_hand: s.on_hand,
        lots: s.lots,
        nearest_expiry: s.nearest_expiry,
      })),
      recent_movements: movements.rows,
    };
  }

  // Stock reads -------------------------------------------------------------------------------------------

  async pharmacies(ctx: ServiceContext) {
    const rows = await pharmaciesOf(this.app.db, scopedHospital(ctx).id);
    return {
      results: rows.map((d) => ({
        id: d.id,
        code: d.code,
        name: d.name,
        kind: d.kind,
        member: managesPharmacy(ctx, d.id),
      })),
    };
  }

  async stock(ctx: ServiceContext, f: StockFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    // A search sets its similarity threshold for the transaction; a plain page needs none.
    const read = async (q: Queryable) =>
      listStock(q, hospital.id, f, await this.dates(q, hospital.id), pageSize, (page - 1) * pageSize);
    return f.search ? this.app.db.transaction(read) : read(this.app.db);
  }

  async lots(ctx: ServiceContext, f: LotFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const { today } = await this.dates(this.app.db, hospital.id);
    return listLots(this.app.db, hospital.id, f, today, pageSize, (page - 1) * pageSize);
  }

  async movements(ctx: ServiceContext, f: MovementFilters, page: number, pageSize: number) {
    return listMovements(this.app.db, scopedHospital(ctx).id, f, pageSize, (page - 1) * pageSize);
  }

  async alerts(ctx: ServiceContext, pharmacy: string | undefined) {
    const hospital = scopedHospital(ctx);
    const dates = await this.dates(this.app.db, hospital.id);
    const [low, out, expiring] = await Promise.all([
      listStock(this.app.db, hospital.id, { pharmacy, alert: 'low' }, dates, 200, 0),
      listStock(this.app.db, hospital.id, { pharmacy, alert: 'out' }, dates, 200, 0),
      listLots(this.app.db, hospital.id, { pharmacy, expiringBy: dates.horizon }, dates.today, 200, 0),
    ]);
    return {
      low: low.rows,
      out: out.rows,
      expiring: expiring.rows.filter((lot) => !lot.expired),
      expired: expiring.rows.filter((lot) => lot.expired),
      expiring_days: dates.days,
    };
  }

  private async lotsById(q: Queryable, ctx: ServiceContext, ids: string[]): Promise<TLot[]> {
    const hospital = scopedHospital(ctx);
    const { today } = await this.dates(q, hospital.id);
    const { rows } = await listLots(q, hospital.id, { ids, available: false }, today, ids.length || 1, 0);
    return rows;
  }

  async movementsById(q: Queryable, ctx: ServiceContext, ids: string[]) {
    const { rows } = await listMovements(q, scopedHospital(ctx).id, { ids }, ids.length || 1, 0);
    // In the order they were written (the ledger lists newest first; one transaction shares one time).
    return rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  }

  // Stock writes ------------------------------------------------------------------------------------------

  /** A delivery from a supplier: each line into its lot (made, or added to when the lot number exists). */
  async receive(ctx: ServiceContext, body: TReceiptCreate) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const pharmacy = await this.pharmacy(tx, ctx, body.pharmacy);
      const { today } = await this.dates(tx, hospital.id);
      const facts = await presentationFacts(
        tx,
        body.lines.map((l) => l.presentation),
      );
      const moves: NewMovement[] = [];
      const lotIds: string[] = [];
      for (const [i, line] of body.lines.entries()) {
        if (!facts.get(line.presentation)?.is_active)
          throw badRequest({ [`lines.${i}.presentation`]: ['pharmacy.presentation_unknown'] });
        if (line.expiry_date < today)
          throw badRequest({ [`lines.${i}.expiry_date`]: ['pharmacy.receipt_expired'] });
        const lot = await this.lotFor(tx, hospital.id, pharmacy.id, {
          presentation: line.presentation,
          lotNumber: line.lot_number,
          expiry: line.expiry_date,
          unitCost: line.unit_cost ?? null,
        });
        if (!lot) throw badRequest({ [`lines.${i}.expiry_date`]: ['pharmacy.lot_expiry_mismatch'] });
        lotIds.push(lot);
        moves.push({
          pharmacyId: pharmacy.id,
          lotId: lot,
          presentationId: line.presentation,
          kind: 'receipt',
          quantity: line.quantity,
          reference: body.delivery_note,
          reason: body.supplier,
        });
      }
      const ids = await this.move(tx, ctx, moves);
      await this.app.audit.record(
        ctx,
        {
          action: 'pharmacy.receipt',
          resourceType: 'stock',
          resourceId: pharmacy.id,
          details: { delivery_note: body.delivery_note, lines: body.lines.length },
        },
        tx,
      );
      return {
        lots: await this.lotsById(tx, ctx, [...new Set(lotIds)]),
        movements: await this.movementsById(tx, ctx, ids),
      };
    });
  }

  /** The lot of that number in the pharmacy (made when new); null when it exists with another expiry date. */
  private async lotFor(
    tx: Tx,
    hospitalId: string,
    pharmacyId: string,
    l: { presentation: string; lotNumber: string; expiry: string; unitCost: number | null },
  ): Promise<string | null> {
    const lot = await ensureLot(tx, {
      hospitalId,
      pharmacyId,
      presentationId: l.presentation,
      lotNumber: l.lotNumber,
      expiryDate: l.expiry,
      unitCost: l.unitCost,
    });
    return lot.expiry_date === l.expiry ? lot.id : null;
  }

  /** A locked lot of the hospital (404) whose pharmacy the caller works in (403). */
  private async ownLot(tx: Tx, ctx: ServiceContext, id: string): Promise<LockedLot> {
    const lot = await lockLot(tx, scopedHospital(ctx).id, id);
    if (!lot) throw notFound();
    if (!managesPharmacy(ctx, lot.pharmacy_id)) throw forbidden('pharmacy.not_member');
    return lot;
  }

  /** An adjustment with a reason, an inventory count, or the write-off of what is left of a lot. */
  async correct(ctx: ServiceContext, lotId: string, body: TLotCorrection): Promise<TLot> {
    return this.app.db.transaction(async (tx) => {
      const lot = await this.ownLot(tx, ctx, lotId);
      const onHand = Number(lot.on_hand);
      let quantity: number;
      if (body.kind === 'adjustment') {
        if (body.quantity === 0) throw badRequest({ quantity: ['pharmacy.adjustment_zero'] });
        if (onHand + body.quantity < 0) throw conflict('pharmacy.insufficient_stock', { available: onHand });
        quantity = body.quantity;
      } else if (body.kind === 'inventory') quantity = body.counted - onHand;
      else {
        if (onHand === 0) throw conflict('pharmacy.nothing_to_write_off');
        quantity = -onHand;
      }
      await this.move(tx, ctx, [
        {
          pharmacyId: lot.pharmacy_id,
          lotId: lot.id,
          presentationId: lot.presentation_id,
          kind: body.kind,
          quantity,
          reason: body.reason ?? null,
        },
      ]);
      await this.app.audit.record(
        ctx,
        {
          action: `pharmacy.${body.kind}`,
          resourceType: 'stock_lot',
          resourceId: lot.id,
          details: { quantity, before: onHand },
        },
        tx,
      );
      return (await this.lotsById(tx, ctx, [lot.id]))[0]!;
    });
  }

  /** Moves units of a lot to another department of the hospital (a pharmacy or a ward's stock). */
  async transfer(
    ctx: ServiceContext,
    body: { lot: string; to_pharmacy: string; quantity: number; reason?: string | null | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const lot = await this.ownLot(tx, ctx, body.lot);
      const target = await findDepartment(tx, hospital.id, body.to_pharmacy);
      if (!target?.is_active) throw badRequest({ to_pharmacy: ['pharmacy.to_pharmacy_unknown'] });
      if (target.id === lot.pharmacy_id) throw badRequest({ to_pharmacy: ['pharmacy.same_pharmacy'] });
      const { today } = await this.dates(tx, hospital.id);
      if (lot.expiry_date < today) throw conflict('pharmacy.lot_expired');
      if (Number(lot.on_hand) < body.quantity)
        throw conflict('pharmacy.insufficient_stock', { available: Number(lot.on_hand) });
      const into = await this.lotFor(tx, hospital.id, target.id, {
        presentation: lot.presentation_id,
        lotNumber: lot.lot_number,
        expiry: lot.expiry_date,
        unitCost: lot.unit_cost === null ? null : Number(lot.unit_cost),
      });
      if (!into) throw conflict('pharmacy.lot_expiry_mismatch');
      const source = await findDepartment(tx, hospital.id, lot.pharmacy_id);
      const ids = await this.move(tx, ctx, [
        {
          pharmacyId: lot.pharmacy_id,
          lotId: lot.id,
          presentationId: lot.presentation_id,
          kind: 'transfer_out',
          quantity: -body.quantity,
          reference: target.code,
          reason: body.reason ?? null,
        },
        {
          pharmacyId: target.id,
          lotId: into,
          presentationId: lot.presentation_id,
          kind: 'transfer_in',
          quantity: body.quantity,
          reference: source?.code ?? null,
          reason: body.reason ?? null,
        },
      ]);
      await this.app.audit.record(
        ctx,
        {
          action: 'pharmacy.transfer',
          resourceType: 'stock_lot',
          resourceId: lot.id,
          details: { to: target.id, quantity: body.quantity },
        },
        tx,
      );
      return { movements: await this.movementsById(tx, ctx, ids) };
    });
  }

  async reorderLevel(
    ctx: ServiceContext,
    body: { pharmacy: string; presentation: string; level: number | null },
  ): Promise<TStockItem> {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      await this.pharmacy(tx, ctx, body.pharmacy);
      const facts = await presentationFacts(tx, [body.presentation]);
      if (!facts.get(body.presentation))
        throw badRequest({ presentation: ['pharmacy.presentation_unknown'] });
      await setReorderLevel(tx, {
        hospitalId: hospital.id,
        pharmacyId: body.pharmacy,
        presentationId: body.presentation,
        level: body.level,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'pharmacy.reorder_level',
          resourceType: 'stock',
          resourceId: body.pharmacy,
          details: { presentation: body.presentation, level: body.level },
        },
        tx,
      );
      const dates = await this.dates(tx, hospital.id);
      const { rows } = await listStock(
        tx,
        hospital.id,
        { pharmacy: body.pharmacy, presentation: body.presentation },
        dates,
        1,
        0,
      );
      return rows[0]!;
    });
  }
}
