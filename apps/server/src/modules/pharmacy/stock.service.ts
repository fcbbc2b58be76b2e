import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import type { TSafetyOverrideInput } from '@greensen/shared/contracts/medication-safety';
import type {
  TDispenseCreate,
  TLot,
  TLotCorrection,
  TMedicationDetail,
  TReceiptCreate,
  TStockItem,
} from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { stockItems, stockLots, stockMovements } from '../../db/schema/index.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isCheckViolation, notFound } from '../../lib/errors.js';
import { sqlList } from '../../lib/queries.js';
import {
  findMedication,
  type MedicationFilters,
  presentationFacts,
  presentationsOf,
  searchMedications,
  toMedication,
} from './medications.repository.js';
import { addDispensedUnits, countLinesToDispense, linesOf, lockPrescription } from './pharmacy.repository.js';
import { fold } from './pharmacy.rules.js';
import { managesPharmacy, type PrescriptionService } from './prescriptions.service.js';
import {
  findDepartment,
  type LockedLot,
  type LotFilters,
  listLots,
  listMovements,
  listStock,
  lockFefoLots,
  lockLot,
  type MovementFilters,
  pharmaciesOf,
  type StockFilters,
} from './stock.repository.js';

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

interface NewMovement {
  pharmacyId: string;
  lotId: string;
  presentationId: string;
  kind: (typeof stockMovements.$inferInsert)['kind'];
  quantity: number;
  reference?: string | null;
  reason?: string | null;
  prescriptionId?: string | null;
  prescriptionLineId?: string | null;
}

/**
 * Stock by lot and its ledger (issue 18): receipts, corrections, transfers, reorder levels, alerts, the
 * medication reference's reads, and dispensing against signed prescriptions. Every change of a lot is a ledger
 * row; the database applies it to the lot (and refuses a negative lot) in the same statement.
 */
export class StockService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly prescriptions: PrescriptionService,
  ) {}

  /** Today in the hospital's time zone and its expiring window (hospital setting `pharmacy_expiring_days`). */
  private async dates(q: Queryable, hospitalId: string) {
    const res = await q.execute<{ today: string; days: string | null }>(sql`select
        (now() at time zone h.time_zone)::date::text as today,
        s.pharmacy_expiring_days as days
      from hospitals h left join hospital_settings s on s.hospital_id = h.id where h.id = ${hospitalId}`);
    const today = res.rows[0]!.today;
    const days = Number(res.rows[0]?.days ?? DEFAULT_HOSPITAL_SETTINGS.pharmacy_expiring_days);
    return { today, days, horizon: addDays(today, days) };
  }

  /** A pharmacy department of the hospital (404 otherwise) that the caller works in (403 otherwise). */
  private async pharmacy(q: Queryable, ctx: ServiceContext, id: string, field = 'pharmacy') {
    const d = await findDepartment(q, scopedHospital(ctx).id, id);
    if (d?.kind !== 'pharmacy' || !d.is_active) throw notFound(`pharmacy.${field}_unknown`);
    if (!managesPharmacy(ctx, id)) throw forbidden('pharmacy.not_member');
    return d;
  }

  private async move(tx: Tx, ctx: ServiceContext, moves: NewMovement[]): Promise<string[]> {
    if (!moves.length) return [];
    const hospital = scopedHospital(ctx);
    const by = actingUser(ctx).id;
    try {
      const rows = await tx
        .insert(stockMovements)
        .values(moves.map((m) => ({ ...m, hospitalId: hospital.id, byId: by })))
        .returning({ id: stockMovements.id });
      return rows.map((r) => r.id);
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

  private async movementsById(q: Queryable, ctx: ServiceContext, ids: string[]) {
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
    await tx
      .insert(stockLots)
      .values({
        hospitalId,
        pharmacyId,
        presentationId: l.presentation,
        lotNumber: l.lotNumber,
        expiryDate: l.expiry,
        unitCost: l.unitCost,
      })
      .onConflictDoNothing();
    const res = await tx.execute<{ id: string; expiry_date: string }>(
      sql`select id, expiry_date::text as expiry_date from stock_lots where pharmacy_id = ${pharmacyId}
        and presentation_id = ${l.presentation} and lot_number = ${l.lotNumber}`,
    );
    const lot = res.rows[0]!;
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
      await tx
        .insert(stockItems)
        .values({
          hospitalId: hospital.id,
          pharmacyId: body.pharmacy,
          presentationId: body.presentation,
          reorderLevel: body.level,
        })
        .onConflictDoUpdate({
          target: [stockItems.pharmacyId, stockItems.presentationId],
          set: { reorderLevel: body.level, updatedAt: new Date() },
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

  // Dispensing --------------------------------------------------------------------------------------------

  /**
   * Dispenses lines of a signed prescription from a pharmacy the caller works in, in one transaction: the
   * prescription is locked (two pharmacists cannot hand out the same line twice), lots are taken first expiry
   * first (or as chosen; expired lots never), the ledger rows move the lots, the lines count what was handed
   * out (never above what was prescribed: a CHECK), the prescription becomes partially dispensed or dispensed.
   */
  async dispense(
    ctx: ServiceContext,
    prescriptionId: string,
    body: TDispenseCreate & { overrides?: TSafetyOverrideInput[] | undefined },
  ) {
    const hospital = scopedHospital(ctx);
    const ids = await this.app.db.transaction(async (tx) => {
      const rx = await lockPrescription(tx, hospital.id, prescriptionId);
      if (!rx) throw notFound();
      const pharmacy = await this.pharmacy(tx, ctx, body.pharmacy);
      if (!['signed', 'partially_dispensed'].includes(rx.status)) throw conflict('pharmacy.not_dispensable');
      const lines = new Map((await linesOf(tx, [rx.id])).map((l) => [l.line_id, l]));
      // Issue 34: a line the pharmacy refused is never handed out afterwards (whatever its alerts).
      if (body.lines.some((l) => lines.get(l.line)?.refused_at)) throw conflict('pharmacy.line_refused');
      // Issue 34: the prescription as it stands now is checked again; a line under a blocking alert is
      // dispensed only with the pharmacist's written reason (recorded once, audited).
      const { assessment } = await this.prescriptions.dispenseSafety(
        tx,
        ctx,
        {
          id: rx.id,
          patientId: rx.patient_id,
          weightKg: rx.weight_kg === null ? null : Number(rx.weight_kg),
        },
        { lines: body.lines.map((l) => l.line), overrides: body.overrides },
      );
      await this.prescriptions.safetyService.enforce(
        tx,
        ctx,
        { prescriptionId: rx.id, patientId: rx.patient_id, stage: 'dispense' },
        assessment,
      );
      const { today } = await this.dates(tx, hospital.id);
      const wanted = new Map<string, number>();
      const moves: NewMovement[] = [];
      const substitutes = await presentationFacts(
        tx,
        body.lines.flatMap((l) => (l.presentation ? [l.presentation] : [])),
      );
      for (const [i, req] of body.lines.entries()) {
        const line = lines.get(req.line);
        if (!line) throw badRequest({ [`lines.${i}.line`]: ['pharmacy.line_unknown'] });
        const total = (wanted.get(line.line_id) ?? 0) + req.quantity;
        const remaining = Number(line.quantity) - Number(line.dispensed_quantity);
        if (total > remaining) throw conflict('pharmacy.above_remaining', { remaining });
        wanted.set(line.line_id, total);
        let presentation = line.id;
        if (req.presentation && req.presentation !== line.id) {
          const sub = substitutes.get(req.presentation);
          const sameInn =
            sub &&
            (sub.medication_id === line.m_id ||
              fold(sub.inn_en) === fold(line.inn_en) ||
              fold(sub.inn_fr) === fold(line.inn_fr));
          if (!sub?.is_active || !sameInn)
            throw badRequest({ [`lines.${i}.presentation`]: ['pharmacy.substitution_inn'] });
          presentation = sub.id;
        }
        const picks = req.lots?.length
          ? await this.chosenLots(tx, pharmacy.id, presentation, req.lots, req.quantity, today, i)
          : await this.fefo(tx, pharmacy.id, presentation, req.quantity, today);
        for (const p of picks)
          moves.push({
            pharmacyId: pharmacy.id,
            lotId: p.lot,
            presentationId: presentation,
            kind: 'dispense',
            quantity: -p.quantity,
            reference: rx.number,
            prescriptionId: rx.id,
            prescriptionLineId: line.line_id,
          });
      }
      const movementIds = await this.move(tx, ctx, moves);
      for (const [lineId, quantity] of wanted)
        if (!(await addDispensedUnits(tx, lineId, quantity))) throw conflict('pharmacy.line_refused');
      // Refused lines are not waited for: what is left to hand out decides the status.
      const status = (await countLinesToDispense(tx, rx.id)) === 0 ? 'dispensed' : 'partially_dispensed';
      await tx.execute(
        sql`update prescriptions set status = ${status}, version = version + 1, updated_at = now() where id = ${rx.id}`,
      );
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.dispense',
          resourceType: 'prescription',
          resourceId: rx.id,
          patientId: rx.patient_id,
          details: {
            pharmacy: pharmacy.id,
            status,
            lines: [...wanted].map(([line, quantity]) => ({ line, quantity })),
          },
        },
        tx,
      );
      return movementIds;
    });
    return {
      prescription: await this.prescriptions.detail(ctx, prescriptionId),
      movements: await this.movementsById(this.app.db, ctx, ids),
    };
  }

  /** First expiry first out among the unexpired lots with units left (locked); 409 when they do not suffice. */
  private async fefo(tx: Tx, pharmacyId: string, presentationId: string, quantity: number, today: string) {
    const lots = await lockFefoLots(tx, pharmacyId, presentationId, today);
    const picks: { lot: string; quantity: number }[] = [];
    let left = quantity;
    for (const lot of lots) {
      if (left === 0) break;
      const take = Math.min(left, Number(lot.on_hand));
      picks.push({ lot: lot.id, quantity: take });
      left -= take;
    }
    if (left > 0)
      throw conflict('pharmacy.insufficient_stock', {
        available: lots.reduce((n, l) => n + Number(l.on_hand), 0),
      });
    return picks;
  }

  /** Lots chosen by the pharmacist: of this pharmacy and presentation, unexpired, with the units asked. */
  private async chosenLots(
    tx: Tx,
    pharmacyId: string,
    presentationId: string,
    chosen: { lot: string; quantity: number }[],
    quantity: number,
    today: string,
    i: number,
  ) {
    if (chosen.reduce((n, c) => n + c.quantity, 0) !== quantity)
      throw badRequest({ [`lines.${i}.lots`]: ['pharmacy.lots_total'] });
    const res = await tx.execute<LockedLot>(sql`select id, pharmacy_id, presentation_id, lot_number,
        expiry_date::text as expiry_date, on_hand, unit_cost from stock_lots
      where id in (${sqlList(chosen.map((c) => c.lot))}) order by expiry_date, id for update`);
    const byId = new Map(res.rows.map((l) => [l.id, l]));
    for (const c of chosen) {
      const lot = byId.get(c.lot);
      if (!lot || lot.pharmacy_id !== pharmacyId || lot.presentation_id !== presentationId)
        throw badRequest({ [`lines.${i}.lots`]: ['pharmacy.lot_unknown'] });
      if (lot.expiry_date < today) throw conflict('pharmacy.lot_expired');
      if (Number(lot.on_hand) < c.quantity)
        throw conflict('pharmacy.insufficient_stock', { available: Number(lot.on_hand) });
    }
    return chosen;
  }
}
