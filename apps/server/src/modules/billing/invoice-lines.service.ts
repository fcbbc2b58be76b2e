import type { TInvoiceLineCreate } from '@greensen/shared/contracts/billing';
import { lineGross } from '@greensen/shared/domain/money';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { requireBillingStaff } from './billing.access.js';
import { lockInvoice } from './billing.repository.js';
import {
  activeActPricedToday,
  findLiveLine,
  insertInvoiceLines,
  markLineRemoved,
  nextLinePosition,
  setLineDiscount,
} from './invoice-lines.repository.js';
import { recompute } from './invoice-split.js';
import { insertPerformedAct } from './medical-acts.repository.js';

/** Locks a draft of the hospital for an edit by billing staff: 404, then 403, then 409 when not a draft. */
export async function editableDraft(tx: Tx, ctx: ServiceContext, id: string) {
  const inv = await lockInvoice(tx, scopedHospital(ctx).id, id);
  if (!inv) throw notFound();
  await requireBillingStaff(tx, ctx);
  if (inv.status !== 'draft' || inv.kind !== 'invoice') throw conflict('billing.not_draft');
  return inv;
}

/** The audit row of a change of an invoice, in its transaction. */
export async function auditInvoice(
  app: FastifyInstance,
  ctx: ServiceContext,
  tx: Tx,
  change: { id: string; patientId: string; action: string; details: object },
) {
  await app.audit.record(
    ctx,
    {
      action: change.action,
      resourceType: 'invoice',
      resourceId: change.id,
      patientId: change.patientId,
      details: { ...change.details },
    },
    tx,
  );
}

/**
 * The edits of a draft's lines (issue 21): a line added by hand, removed or discounted, each followed by the
 * payer split of the whole draft. The caller answers the invoice's detail.
 */
export class InvoiceLinesService {
  constructor(private readonly app: FastifyInstance) {}

  /** A line added by hand: a performed act of the visit or stay (manual) priced at today's tariff. */
  async addLine(ctx: ServiceContext, id: string, body: TInvoiceLineCreate) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await editableDraft(tx, ctx, id);
      const a = await activeActPricedToday(tx, hospital.id, body.act, inv.payer_category);
      if (!a) throw badRequest({ act: ['billing.act_unknown'] });
      if (a.price === null) throw conflict('billing.no_tariff');
      const quantity = body.quantity ?? 1;
      const performedActId = await insertPerformedAct(tx, {
        hospitalId: hospital.id,
        patientId: inv.patient_id,
        actId: a.id,
        admissionId: inv.admission_id,
        hospitalizationId: inv.hospitalization_id,
        quantity,
        source: 'manual',
        performedBy: user.id,
      });
      const position = await nextLinePosition(tx, id);
      const total = lineGross(Number(a.price), quantity);
      await insertInvoiceLines(tx, [
        {
          invoiceId: id,
          position,
          actId: a.id,
          code: a.code,
          labelFr: a.label_fr,
          labelEn: a.label_en,
          category: a.category,
          performedActId,
          quantity,
          unitPrice: Number(a.price),
          total,
          patientShare: total,
        },
      ]);
      await recompute(tx, id, inv.payer_id);
      await auditInvoice(this.app, ctx, tx, {
        id,
        patientId: inv.patient_id,
        action: 'invoice.line_add',
        details: { act: a.code, quantity },
      });
    });
  }

  private async liveLine(tx: Tx, invoiceId: string, lineId: string) {
    const line = await findLiveLine(tx, invoiceId, lineId);
    if (!line) throw notFound('billing.line_unknown');
    return line;
  }

  async removeLine(ctx: ServiceContext, id: string, lineId: string, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await editableDraft(tx, ctx, id);
      const line = await this.liveLine(tx, id, lineId);
      await markLineRemoved(tx, lineId, user.id, reason);
      await recompute(tx, id, inv.payer_id);
      await auditInvoice(this.app, ctx, tx, {
        id,
        patientId: inv.patient_id,
        action: 'invoice.line_remove',
        details: { line: lineId, code: line.code, reason },
      });
    });
  }

  async discountLine(ctx: ServiceContext, id: string, lineId: string, amount: number, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await editableDraft(tx, ctx, id);
      const line = await this.liveLine(tx, id, lineId);
      const gross = lineGross(Number(line.unit_price), Number(line.quantity));
      if (amount > gross) throw badRequest({ amount: ['billing.discount_above_line'] });
      await setLineDiscount(tx, lineId, { amount, reason, by: user.id, gross });
      await recompute(tx, id, inv.payer_id);
      await auditInvoice(this.app, ctx, tx, {
        id,
        patientId: inv.patient_id,
        action: 'invoice.discount',
        details: { line: lineId, amount, reason },
      });
    });
  }
}
