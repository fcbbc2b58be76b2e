import {
  documentNumber,
  NUMBER_PREFIXES,
  type TCreditNoteCreate,
  type TInvoiceAssemble,
  type TInvoiceAssembly,
  type TInvoiceDetail,
  type TInvoiceLine,
  type TInvoiceLineCreate,
  type TInvoiceVisit,
  type TPaymentSummary,
  type TUnpriced,
} from '@greensen/shared/contracts/billing';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { hospitalToday, listReadEntry } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import { isBillingManager, requireBillingReader, requireBillingStaff } from './billing.access.js';
import {
  draftOutOfDate,
  findInvoice,
  type InvoiceFilters,
  type InvoiceRow,
  linesOf,
  listInvoices,
  lockInvoice,
  paymentsOf,
  toInvoice,
} from './billing.repository.js';
import { listInvoiceVisits } from './invoice-assembly.repository.js';
import { InvoiceAssemblyService, unpricedOf } from './invoice-assembly.service.js';
import {
  hasLiveLine,
  insertInvoiceLines,
  linesToCredit,
  removeLiveLines,
  unpricedActsOfInvoice,
} from './invoice-lines.repository.js';
import { auditInvoice, editableDraft, InvoiceLinesService } from './invoice-lines.service.js';
import { hasPayments } from './invoice-money.js';
import {
  addCreditedPatientShare,
  coverageOfInvoice,
  creditNotesOf,
  insertCreditNote,
  markCreditNoteIssued,
  markInvoiceCancelled,
  markInvoiceIssued,
} from './invoices.repository.js';

/** The hospital's year of today (numbers restart each year). */
async function yearOf(q: Queryable, hospitalId: string) {
  return (await hospitalToday(q, hospitalId)).slice(0, 4);
}

/** The invoice's detail from its parts. */
function detailFrom(
  row: InvoiceRow,
  lines: TInvoiceLine[],
  payments: TPaymentSummary[],
  creditNotes: TInvoiceDetail['credit_notes'],
  unpriced: TUnpriced[],
  outOfDate: boolean,
): TInvoiceDetail {
  return {
    ...toInvoice(row),
    out_of_date: outOfDate,
    lines,
    payments,
    credit_notes: creditNotes,
    member_number: row.member_number,
    created_by: { id: row.created_by, full_name: fullName(row.cb_first, row.cb_last) },
    issued_by: row.issued_by ? { id: row.issued_by, full_name: fullName(row.ib_first, row.ib_last) } : null,
    cancel_reason: row.cancel_reason,
    credit_reason: row.credit_reason,
    unpriced: unpricedOf(row, unpriced),
  };
}

/**
 * Invoices of visits and stays (issue 21, decision 0027): assembled from what was performed
 * (invoice-assembly.service.ts), edited while draft (invoice-lines.service.ts), issued with a gap-free number,
 * cancelled, corrected by credit notes. Every read and write is audited. The routes call this one service.
 */
export class InvoicesService {
  private readonly assembly: InvoiceAssemblyService;
  private readonly lines: InvoiceLinesService;

  constructor(private readonly app: FastifyInstance) {
    this.assembly = new InvoiceAssemblyService(app);
    this.lines = new InvoiceLinesService(app);
  }

  async list(ctx: ServiceContext, f: InvoiceFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const { rows, count, capped } = await listInvoices(
      this.app.db,
      hospital.id,
      f,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, listReadEntry('invoice.list', 'invoice', { ...f }, page, rows.length));
    return { rows: rows.map(toInvoice), count, capped };
  }

  /** The invoice with its lines, payments and credit notes (no audit: callers audit). Its reads run at once. */
  async detailOf(ctx: ServiceContext, id: string): Promise<TInvoiceDetail> {
    const hospital = scopedHospital(ctx);
    const [row, lines, payments, credit, unpriced, outOfDate] = await Promise.all([
      findInvoice(this.app.db, hospital.id, id),
      linesOf(this.app.db, id),
      paymentsOf(this.app.db, id),
      creditNotesOf(this.app.db, id),
      this.unpricedActs(this.app.db, id),
      draftOutOfDate(this.app.db, id),
    ]);
    if (!row) throw notFound();
    return detailFrom(row, lines, payments, credit, unpriced, outOfDate);
  }

  async read(ctx: ServiceContext, id: string): Promise<TInvoiceDetail> {
    const hospital = scopedHospital(ctx);
    const row = await findInvoice(this.app.db, hospital.id, id);
    if (!row) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    const detail = await this.detailOf(ctx, id);
    await this.app.audit.record(ctx, {
      action: 'invoice.read',
      resourceType: 'invoice',
      resourceId: id,
      patientId: row.patient_id,
    });
    return detail;
  }

  /** Performed acts of the invoice's visit or stay left off it for want of a tariff. */
  private async unpricedActs(q: Queryable, invoiceId: string): Promise<TUnpriced[]> {
    const rows = await unpricedActsOfInvoice(q, invoiceId);
    return rows.map((r) => ({ performed_act: r.id, label: r.label, reason: 'no_tariff' }));
  }

  /**
   * `GET /api/invoices/visits/` (issue 37, decision 0088): the patient's visits for « Facturer une visite » — who
   * may assemble an invoice, who may not read the visits themselves (the pure cashier); audited as a list read.
   */
  async visits(
    ctx: ServiceContext,
    patient: string,
    page: number,
    pageSize: number,
  ): Promise<{ rows: TInvoiceVisit[]; count: number }> {
    const hospital = scopedHospital(ctx);
    await requireBillingStaff(this.app.db, ctx);
    const found = await listInvoiceVisits(this.app.db, hospital.id, patient, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(
      ctx,
      listReadEntry('invoice.visits', 'admission', { patient }, page, found.rows.length),
    );
    return found;
  }

  /** `POST /api/invoices/assemble/` (invoice-assembly.service.ts). */
  assemble(
    ctx: ServiceContext,
    body: TInvoiceAssemble,
  ): Promise<{ created: boolean; invoice: TInvoiceAssembly }> {
    return this.assembly.assemble(ctx, body);
  }

  // Draft edits (invoice-lines.service.ts), answered with the invoice's detail ------------------------------

  async addLine(ctx: ServiceContext, id: string, body: TInvoiceLineCreate) {
    await this.lines.addLine(ctx, id, body);
    return this.detailOf(ctx, id);
  }

  async removeLine(ctx: ServiceContext, id: string, lineId: string, reason: string) {
    await this.lines.removeLine(ctx, id, lineId, reason);
    return this.detailOf(ctx, id);
  }

  async discountLine(ctx: ServiceContext, id: string, lineId: string, amount: number, reason: string) {
    await this.lines.discountLine(ctx, id, lineId, amount, reason);
    return this.detailOf(ctx, id);
  }

  // Lifecycle ----------------------------------------------------------------------------------------------

  /**
   * Issues a draft: its number is the next of the hospital's `invoice:<year>` sequence, taken in this transaction
   * (its row stays locked until the commit; a rollback gives the number back), so numbers have no gap.
   */
  async issue(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await editableDraft(tx, ctx, id);
      if (!(await hasLiveLine(tx, id))) throw conflict('billing.empty');
      const year = await yearOf(tx, hospital.id);
      const n = await nextSequenceValue(tx, hospital.id, `invoice:${year}`);
      const number = documentNumber(NUMBER_PREFIXES.invoice, hospital.code, Number(year), n);
      await markInvoiceIssued(tx, id, number, user.id);
      await auditInvoice(this.app, ctx, tx, {
        id,
        patientId: inv.patient_id,
        action: 'invoice.issue',
        details: { number },
      });
    });
    return this.detailOf(ctx, id);
  }

  /** Cancels a draft (with a reason); its lines are removed so that their acts may be billed again. */
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await editableDraft(tx, ctx, id);
      if (hasPayments(inv)) throw conflict('billing.has_payments');
      await removeLiveLines(tx, id, user.id, reason);
      await markInvoiceCancelled(tx, id, user.id, reason);
      await auditInvoice(this.app, ctx, tx, {
        id,
        patientId: inv.patient_id,
        action: 'invoice.cancel',
        details: { reason },
      });
    });
    return this.detailOf(ctx, id);
  }

  /**
   * A credit note (`AV-…`, its own gap-free sequence) against an issued invoice: the opposite of the chosen lines
   * (all not yet credited by default), shares included; the invoice's balance follows.
   */
  async creditNote(ctx: ServiceContext, id: string, body: TCreditNoteCreate) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    const noteId = await this.app.db.transaction(async (tx) => {
      const inv = await lockInvoice(tx, hospital.id, id);
      if (!inv) throw notFound();
      if (!isBillingManager(ctx)) await requireBillingStaff(tx, ctx);
      if (inv.kind !== 'invoice' || inv.status !== 'issued') throw conflict('billing.not_creditable');
      const lines = await linesToCredit(tx, id, body.lines);
      if (body.lines && lines.length !== new Set(body.lines).size)
        throw badRequest({ lines: ['billing.line_unknown'] });
      if (lines.some((l) => l.credited) && body.lines) throw conflict('billing.line_credited');
      const toCredit = lines.filter((l) => !l.credited);
      if (!toCredit.length) throw conflict('billing.nothing_to_credit');
      const header = await coverageOfInvoice(tx, id);
      const noteId = await insertCreditNote(tx, {
        hospitalId: hospital.id,
        kind: 'credit_note',
        patientId: inv.patient_id,
        admissionId: inv.admission_id,
        hospitalizationId: inv.hospitalization_id,
        currency: inv.currency,
        payerCategory: inv.payer_category,
        payerId: inv.payer_id,
        coverageId: header?.coverage_id ?? null,
        memberNumber: header?.member_number ?? null,
        creditedInvoiceId: id,
        creditReason: body.reason,
        createdBy: user.id,
      });
      await insertInvoiceLines(
        tx,
        toCredit.map((l, i) => ({
          invoiceId: noteId,
          position: i + 1,
          actId: l.act_id,
          code: l.code,
          labelFr: l.label_fr,
          labelEn: l.label_en,
          category: l.category,
          creditedLineId: l.id,
          quantity: Number(l.quantity),
          unitPrice: -Number(l.unit_price),
          discount: Number(l.discount),
          discountReason: l.discount_reason,
          total: -Number(l.total),
          payerShare: -Number(l.payer_share),
          patientShare: -Number(l.patient_share),
        })),
      );
      const total = -toCredit.reduce((s, l) => s + Number(l.total), 0);
      const payer = -toCredit.reduce((s, l) => s + Number(l.payer_share), 0);
      const year = await yearOf(tx, hospital.id);
      const n = await nextSequenceValue(tx, hospital.id, `credit_note:${year}`);
      const number = documentNumber(NUMBER_PREFIXES.credit_note, hospital.code, Number(year), n);
      await markCreditNoteIssued(tx, noteId, { total, payer, number, by: user.id });
      await addCreditedPatientShare(tx, id, total - payer);
      await auditInvoice(this.app, ctx, tx, {
        id: noteId,
        patientId: inv.patient_id,
        action: 'invoice.credit_note',
        details: { invoice: id, number, reason: body.reason, lines: toCredit.length },
      });
      return noteId;
    });
    return this.detailOf(ctx, noteId);
  }
}
