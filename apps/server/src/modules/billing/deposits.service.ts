import type {
  TDepositCreate,
  TDepositStay,
  TReceipt,
  TStayDeposits,
} from '@greensen/shared/contracts/billing';
import type { FastifyInstance } from 'fastify';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, conflict, notFound } from '../../lib/errors.js';
import { hospitalCurrency } from '../../lib/queries.js';
import { requireBillingReader, requireBillingStaff } from './billing.access.js';
import { balanceOf, depositsOfInvoice, findInvoice } from './billing.repository.js';
import { listDepositStays, liveInvoiceOfStay, patientOfStay } from './deposits.repository.js';
import type { InvoicesService } from './invoices.service.js';
import type { PaymentsService } from './payments.service.js';

/**
 * Deposits on admission (caution, avance; issue 21, decision 0036). A deposit is a payment flagged `is_deposit`
 * on the stay's invoice: when the stay has none yet, its draft is assembled first (what the stay has used so
 * far), so the invoice's `paid` — and its balance — count the deposit, and the receipt, the cash session, the
 * unique transaction reference and refunds are the payments' own (decision 0027).
 */
export class DepositsService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly invoices: InvoicesService,
    private readonly payments: PaymentsService,
  ) {}

  private async stayOf(hospitalId: string, stayId: string) {
    const patientId = await patientOfStay(this.app.db, hospitalId, stayId);
    if (patientId === null) throw notFound('billing.encounter_unknown');
    return patientId;
  }

  /** `POST /api/hospitalizations/{id}/deposits/`: 201 with the deposit's receipt. */
  async record(ctx: ServiceContext, stayId: string, body: TDepositCreate): Promise<TReceipt> {
    const hospital = scopedHospital(ctx);
    await this.stayOf(hospital.id, stayId);
    await requireBillingStaff(this.app.db, ctx);
    let invoiceId = await liveInvoiceOfStay(this.app.db, hospital.id, stayId);
    if (!invoiceId) {
      try {
        invoiceId = (await this.invoices.assemble(ctx, { hospitalization: stayId })).invoice.id;
      } catch (err) {
        // Another deposit (or the cashier's assembly) made the draft at the same moment: take that one.
        if (!(err instanceof ApiError && err.key === 'billing.assembling')) throw err;
        invoiceId = await liveInvoiceOfStay(this.app.db, hospital.id, stayId);
      }
    }
    if (!invoiceId) throw conflict('billing.assembling');
    return this.payments.record(ctx, { ...body, invoice: invoiceId }, { deposit: true });
  }

  /**
   * `GET /api/deposits/stays/` (decision 0088): the open stays of the hospital for the cash desk to find the one
   * taking a deposit — the billing readers of the stay's deposits, who may not read the stay itself; a search.
   */
  async stays(
    ctx: ServiceContext,
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ rows: TDepositStay[]; count: number }> {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const found = await listDepositStays(this.app.db, hospital.id, search, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'deposit.stays',
      resourceType: 'hospitalization',
      details: { filters: { search: search ?? null }, page, results: found.rows.length },
    });
    return found;
  }

  /** `GET /api/hospitalizations/{id}/deposits/`: the deposits (and their refunds) and the invoice counting them. */
  async list(ctx: ServiceContext, stayId: string): Promise<TStayDeposits> {
    const hospital = scopedHospital(ctx);
    const patientId = await this.stayOf(hospital.id, stayId);
    await requireBillingReader(this.app.db, ctx);
    const invoiceId = await liveInvoiceOfStay(this.app.db, hospital.id, stayId);
    const inv = invoiceId ? await findInvoice(this.app.db, hospital.id, invoiceId) : null;
    const deposits = inv ? await depositsOfInvoice(this.app.db, inv.id) : [];
    const currency = inv ? inv.currency : await hospitalCurrency(this.app.db, hospital.id);
    await this.app.audit.record(ctx, {
      action: 'deposit.list',
      resourceType: 'hospitalization',
      resourceId: stayId,
      patientId,
    });
    return {
      hospitalization: stayId,
      currency,
      invoice: inv
        ? {
            id: inv.id,
            number: inv.number,
            status: inv.status,
            patient_share: Number(inv.patient_share) + Number(inv.credited_patient_share),
            paid: Number(inv.paid),
            balance: balanceOf(inv),
          }
        : null,
      deposits,
      total: deposits.reduce((s, d) => s + d.amount_invoice_currency, 0),
    };
  }
}
