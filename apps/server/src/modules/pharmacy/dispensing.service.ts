import type { TSafetyOverrideInput } from '@greensen/shared/contracts/medication-safety';
import type { TDispenseCreate, TPrescriptionRefuse } from '@greensen/shared/contracts/pharmacy';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { presentationFacts } from './medications.repository.js';
import {
  addDispensedUnits,
  bumpPrescriptionVersion,
  countLinesToDispense,
  type LineDbRow,
  linesOf,
  lockPrescription,
  patientName,
  refuseLines,
  setDispensingStatus,
} from './pharmacy.repository.js';
import { fold } from './pharmacy.rules.js';
import type { PrescriptionChecksService } from './prescription-checks.service.js';
import { DISPENSABLE, managesPharmacy, type PrescriptionService } from './prescriptions.service.js';
import { lockFefoLots, lockLotsById, pharmaciesOf } from './stock.repository.js';
import type { NewMovement, StockService } from './stock.service.js';

/**
 * The pharmacy's answer to a signed prescription (issue 18, issue 34): its lines dispensed from the stock (first
 * expiry first, or the lots chosen), or refused with a written reason. Both lock the prescription, so that they
 * never both win on one line.
 */
export class DispensingService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly prescriptions: PrescriptionService,
    private readonly checks: PrescriptionChecksService,
    private readonly stock: StockService,
  ) {}

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
      const pharmacy = await this.stock.pharmacy(tx, ctx, body.pharmacy);
      if (!DISPENSABLE.includes(rx.status)) throw conflict('pharmacy.not_dispensable');
      const lines = new Map((await linesOf(tx, [rx.id])).map((l) => [l.line_id, l]));
      // Issue 34: a line the pharmacy refused is never handed out afterwards (whatever its alerts).
      if (body.lines.some((l) => lines.get(l.line)?.refused_at)) throw conflict('pharmacy.line_refused');
      // Issue 34: the prescription as it stands now is checked again; a line under a blocking alert is
      // dispensed only with the pharmacist's written reason (recorded once, audited).
      const { assessment } = await this.checks.dispenseSafety(
        tx,
        ctx,
        {
          id: rx.id,
          patientId: rx.patient_id,
          weightKg: rx.weight_kg === null ? null : Number(rx.weight_kg),
        },
        { lines: body.lines.map((l) => l.line), overrides: body.overrides },
      );
      await this.checks.safetyService.enforce(
        tx,
        ctx,
        { prescriptionId: rx.id, patientId: rx.patient_id, stage: 'dispense' },
        assessment,
      );
      const { today } = await this.stock.dates(tx, hospital.id);
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
      const movementIds = await this.stock.move(tx, ctx, moves);
      for (const [lineId, quantity] of wanted)
        if (!(await addDispensedUnits(tx, lineId, quantity))) throw conflict('pharmacy.line_refused');
      // Refused lines are not waited for: what is left to hand out decides the status.
      const status = (await countLinesToDispense(tx, rx.id)) === 0 ? 'dispensed' : 'partially_dispensed';
      await setDispensingStatus(tx, rx.id, status);
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
      movements: await this.stock.movementsById(this.app.db, ctx, ids),
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
    const locked = await lockLotsById(
      tx,
      chosen.map((c) => c.lot),
    );
    const byId = new Map(locked.map((l) => [l.id, l]));
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

  /**
   * The pharmacist refuses to dispense lines (or every line left, `lines: null`) with a written reason (issue
   * 34, the answer to an alert or an override they do not accept): the prescription is locked like a dispensing
   * (the two never both win on one line), the refusal is stored on the lines, audited, and the prescriber told.
   * Order of the answers as for dispensing: 404 → not a member of a pharmacy (403) → state (409) → content (400).
   */
  async refuse(ctx: ServiceContext, id: string, body: TPrescriptionRefuse) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const rx = await lockPrescription(tx, hospital.id, id);
      if (!rx) throw notFound();
      // A member of one of the hospital's pharmacies (not of any department).
      const pharmacies = await pharmaciesOf(tx, hospital.id);
      if (!pharmacies.some((p) => managesPharmacy(ctx, p.id))) throw forbidden('pharmacy.not_member');
      if (!DISPENSABLE.includes(rx.status)) throw conflict('pharmacy.not_dispensable');
      const lines = await linesOf(tx, [id]);
      const open = (l: LineDbRow) => !l.refused_at && Number(l.dispensed_quantity) < Number(l.quantity);
      let chosen: LineDbRow[];
      if (body.lines === null) chosen = lines.filter(open);
      else {
        const byId = new Map(lines.map((l) => [l.line_id, l]));
        chosen = body.lines.map((lineId, i) => {
          const l = byId.get(lineId);
          if (!l) throw badRequest({ [`lines.${i}`]: ['pharmacy.line_unknown'] });
          if (l.refused_at) throw conflict('pharmacy.line_refused');
          if (!open(l)) throw conflict('pharmacy.line_dispensed');
          return l;
        });
        chosen = [...new Map(chosen.map((l) => [l.line_id, l])).values()];
      }
      if (!chosen.length) throw conflict('pharmacy.nothing_to_refuse');
      const refused = await refuseLines(
        tx,
        id,
        chosen.map((l) => l.line_id),
        me,
        body.reason,
      );
      if (refused.length !== chosen.length) throw conflict('pharmacy.line_refused');
      await bumpPrescriptionVersion(tx, id);
      const positions = chosen.map((l) => Number(l.position));
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.refuse',
          resourceType: 'prescription',
          resourceId: id,
          patientId: rx.patient_id,
          details: { lines: positions, whole: body.lines === null },
        },
        tx,
      );
      if (rx.prescriber_id === me) return;
      const patient = await patientName(tx, rx.patient_id);
      const name = patient ? fullName(patient.first_name, patient.last_name) : '';
      const inns = chosen.map((l) => ({ fr: l.inn_fr, en: l.inn_en }));
      await notify({
        hospitalId: hospital.id,
        recipients: [rx.prescriber_id],
        type: 'other',
        title: { fr: 'Délivrance refusée par la pharmacie', en: 'Dispensing refused by the pharmacy' },
        message: {
          fr: `${name}, ${rx.number} : ${inns.map((m) => m.fr).join(', ')} non délivré. Motif : ${body.reason}`,
          en: `${name}, ${rx.number}: ${inns.map((m) => m.en).join(', ')} not dispensed. Reason: ${body.reason}`,
        },
        data: {
          action: 'prescription_refused',
          prescription_id: id,
          patient: rx.patient_id,
          lines: positions,
        },
        initiatedBy: me,
      });
    });
    return this.prescriptions.detail(ctx, id);
  }
}
