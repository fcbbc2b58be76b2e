import type { TInvoiceAssemble, TInvoiceAssembly, TUnpriced } from '@greensen/shared/contracts/billing';
import type { PayerCategory } from '@greensen/shared/contracts/medical-acts';
import { lineGross } from '@greensen/shared/domain/money';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import type { invoices } from '../../db/schema/index.js';
import { ageOf } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { hospitalCurrency } from '../../lib/queries.js';
import { billingRoles, hasBillingStaffRole } from './billing.access.js';
import { type InvoiceHeaderRow, moveVisitDraftToStay, toInvoice } from './billing.repository.js';
import {
  coveragesValidOn,
  deriveActsOfEncounter,
  insertDraftInvoice,
  linesAndUnbilledActs,
  lockEncounterForAssembly,
  updateDraftPayer,
} from './invoice-assembly.repository.js';
import {
  insertInvoiceLines,
  type LineCategory,
  liveLinesPricedFor,
  writeLinePrices,
} from './invoice-lines.repository.js';
import { splitLines, writeSplit } from './invoice-split.js';
import { type Encounter, stayOfVisit } from './medical-acts.repository.js';

interface Coverage {
  coverageId: string;
  payerId: string;
  memberNumber: string;
  payerCategory: PayerCategory;
}

/** A draft's `unpriced` (what could not be billed); none once issued. */
export const unpricedOf = (row: InvoiceHeaderRow, unpriced: TUnpriced[]) =>
  row.status === 'draft' ? unpriced : [];

/** The assembly's answer (decision 0049): the draft's header, its line counts and what could not be priced. */
function assemblyFrom(
  row: InvoiceHeaderRow,
  lineCount: number,
  addedLines: number,
  unpriced: TUnpriced[],
): TInvoiceAssembly {
  return {
    ...toInvoice(row),
    line_count: lineCount,
    added_lines: addedLines,
    unpriced: unpricedOf(row, unpriced),
  };
}

/**
 * The assembly of a visit's or a stay's draft (issue 21, decision 0027; a visit that led to a stay is billed with
 * the stay, issue 37): derived idempotently from completed consultations, validated exams, bed-days and dispensed
 * medicines, priced at the tariff of their day and split with the payer.
 */
export class InvoiceAssemblyService {
  constructor(private readonly app: FastifyInstance) {}

  /** The coverage that pays: the one asked for (must be the patient's, valid and eligible), else the current one. */
  private async coverageFor(
    tx: Tx,
    hospitalId: string,
    enc: Encounter,
    body: TInvoiceAssemble,
  ): Promise<Coverage | null> {
    if (body.no_coverage) return null;
    const rows = await coveragesValidOn(tx, hospitalId, enc.patientId, enc.start.slice(0, 10), body.coverage);
    const age = ageOf(enc.birthDate, new Date(enc.start));
    const eligible = rows.filter(
      (c) =>
        (c.max_age_years === null || (age !== null && age < Number(c.max_age_years))) &&
        (c.eligible_sex === null || c.eligible_sex === enc.sex),
    );
    if (body.coverage && !eligible.length)
      throw badRequest({ coverage: ['billing.coverage_not_applicable'] });
    const c = eligible[0];
    return c
      ? {
          coverageId: c.id,
          payerId: c.payer_id,
          memberNumber: c.member_number,
          payerCategory: c.payer_category,
        }
      : null;
  }

  /**
   * The performed acts the journey recorded, derived once each (`deriveActsOfEncounter`). Sources without an act
   * in the catalogue are reported.
   */
  private async derive(tx: Tx, hospitalId: string, enc: Encounter): Promise<TUnpriced[]> {
    const missing = await deriveActsOfEncounter(tx, hospitalId, enc);
    return missing.map((label) => ({ performed_act: null, label, reason: 'no_act' }));
  }

  /**
   * Lines for the encounter's performed acts not on the invoice yet, priced at the tariff of their day, and the
   * payer split of the whole draft. One statement reads both what is not on the invoice yet (the acts left off
   * for want of a tariff: what `unpricedActs` would read next, without reading it) and the lines the split needs;
   * the new lines are then inserted with their shares (one statement), and `writeSplit` writes the rest.
   * Answers the draft's header, its live lines, the lines added and the acts left off.
   */
  private async addLinesAndSplit(
    tx: Tx,
    invoiceId: string,
    enc: Encounter,
    category: PayerCategory,
    payerId: string | null,
  ): Promise<{ invoice: InvoiceHeaderRow; lineCount: number; added: number; unpriced: TUnpriced[] }> {
    // The lines (`SplitRow`s, in position order) then the acts (in the order they were performed), as rows.
    const rows = await linesAndUnbilledActs(tx, invoiceId, enc, category, payerId);
    const lines = rows.filter((r) => r.kind === 'line');
    const acts = rows.filter((r) => r.kind === 'act');
    const unpriced = acts
      .filter((r) => r.price === null)
      .slice(0, 200)
      .map((r) => ({ performed_act: r.id!, label: `${r.code} ${r.label_fr}`, reason: 'no_tariff' }));
    let position = lines.reduce((max, l) => Math.max(max, Number(l.position)), 0);
    const fresh = acts
      .filter((r) => r.price !== null)
      .map((r) => {
        const unit = Number(r.price);
        const total = lineGross(unit, Number(r.quantity));
        position += 1;
        return {
          row: {
            category: r.category,
            total,
            payer_share: 0,
            removed: false,
            rate_percent: r.rate_percent,
            ceiling: r.ceiling,
          },
          values: {
            invoiceId,
            position,
            actId: r.act_id!,
            code: r.code!,
            labelFr: r.label_fr!,
            labelEn: r.label_en!,
            category: r.category as LineCategory,
            performedActId: r.id!,
            quantity: Number(r.quantity),
            unitPrice: unit,
            total,
          },
        };
      });
    // The split runs over the lines in position order, the new ones last (their positions follow).
    const split = splitLines([...lines, ...fresh.map((f) => f.row)]);
    if (fresh.length) {
      await insertInvoiceLines(
        tx,
        fresh.map((f, i) => {
          const payer = split.shares[lines.length + i]!;
          return { ...f.values, payerShare: payer, patientShare: f.values.total - payer };
        }),
      );
    }
    const invoice = await writeSplit(tx, invoiceId, lines, split);
    return { invoice, lineCount: split.lineCount, added: fresh.length, unpriced };
  }

  /** Prices the live lines again at the tariffs of another payer category (lines without one keep theirs). */
  private async reprice(tx: Tx, invoiceId: string, category: PayerCategory) {
    const rows = await liveLinesPricedFor(tx, invoiceId, category);
    const prices = rows
      .filter((r) => r.price !== null)
      .map((r) => {
        const gross = lineGross(Number(r.price), Number(r.quantity));
        const discount = Math.min(Number(r.discount), gross);
        return { id: r.id, price: Number(r.price), discount, total: gross - discount };
      });
    await writeLinePrices(tx, prices);
  }

  /**
   * `POST /api/invoices/assemble/`: the draft of a visit or a stay, created (201) or refreshed (200) with what
   * was performed since. Idempotent: a second call adds nothing new. An issued invoice is not reassembled (409).
   * Answers the draft's summary (decision 0049), not its lines: the invoice page reads them.
   */
  async assemble(
    ctx: ServiceContext,
    body: TInvoiceAssemble,
  ): Promise<{ created: boolean; invoice: TInvoiceAssembly }> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    return this.app.db.transaction(async (tx) => {
      // A visit that led to a stay is billed with the stay (issue 37): one invoice for the whole journey.
      const stayId = body.admission ? await stayOfVisit(tx, hospital.id, body.admission) : null;
      if (stayId && body.admission) {
        // A draft of the visit drawn up before the stay becomes the stay's (two at once: the unique index decides).
        try {
          await moveVisitDraftToStay(tx, hospital.id, body.admission, stayId);
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('billing.assembling');
          throw error;
        }
        body = { ...body, admission: null, hospitalization: stayId };
      }
      // One statement: the encounter, the caller's billing roles and its live invoice, locked (404 for an unknown
      // encounter, then 403, then 409, as before; a refused caller's lock ends with the transaction).
      const enc = await lockEncounterForAssembly(tx, hospital.id, body, billingRoles(ctx));
      if (!enc) throw notFound('billing.encounter_unknown');
      if (!hasBillingStaffRole(enc.also.roles)) throw forbidden('billing.not_billing_staff');
      const existing = enc.also.invoice_id
        ? { id: enc.also.invoice_id, status: enc.also.invoice_status }
        : undefined;
      let invoiceId = existing?.id;
      let payerId = enc.also.invoice_payer_id ?? null;
      let payerCategory = enc.also.invoice_payer_category ?? undefined;
      let created = false;
      const coverageAsked = body.coverage !== undefined || body.no_coverage !== undefined;
      const categoryAsked = body.payer_category !== undefined && body.payer_category !== null;
      if (invoiceId && existing?.status !== 'draft') throw conflict('billing.already_issued');
      if (!invoiceId || coverageAsked || categoryAsked) {
        const coverage =
          !invoiceId || coverageAsked ? await this.coverageFor(tx, hospital.id, enc, body) : undefined;
        if (!invoiceId) {
          const currency = await hospitalCurrency(tx, hospital.id);
          payerCategory = body.payer_category ?? coverage?.payerCategory ?? 'private';
          const id = await insertDraftInvoice(tx, {
            hospitalId: hospital.id,
            patientId: enc.patientId,
            admissionId: enc.kind === 'admission' ? enc.id : null,
            hospitalizationId: enc.kind === 'hospitalization' ? enc.id : null,
            currency,
            payerCategory,
            payerId: coverage?.payerId ?? null,
            coverageId: coverage?.coverageId ?? null,
            memberNumber: coverage?.memberNumber ?? null,
            createdBy: user.id,
          });
          if (!id) throw conflict('billing.assembling');
          invoiceId = id;
          payerId = coverage?.payerId ?? null;
          created = true;
        } else {
          const set: Partial<typeof invoices.$inferInsert> = {};
          if (coverage !== undefined) {
            set.payerId = coverage?.payerId ?? null;
            set.coverageId = coverage?.coverageId ?? null;
            set.memberNumber = coverage?.memberNumber ?? null;
            payerId = coverage?.payerId ?? null;
          }
          const category = body.payer_category ?? coverage?.payerCategory;
          if (category) {
            set.payerCategory = category;
            payerCategory = category;
          }
          await updateDraftPayer(tx, invoiceId, set);
          if (category) await this.reprice(tx, invoiceId, category);
        }
      }
      const noAct = await this.derive(tx, hospital.id, enc);
      // The category is the row's (read with its lock) or the one just written: not read again.
      const { invoice, lineCount, ...added } = await this.addLinesAndSplit(
        tx,
        invoiceId,
        enc,
        payerCategory!,
        payerId,
      );
      await this.app.audit.record(
        ctx,
        {
          action: created ? 'invoice.create' : 'invoice.refresh',
          resourceType: 'invoice',
          resourceId: invoiceId,
          patientId: enc.patientId,
          details: { [enc.kind]: enc.id, payer: payerId },
        },
        tx,
      );
      // The answer is the draft as this transaction leaves it, under its lock: its header as the split wrote it
      // (`paid` counts its deposits), its live lines and those this call added, the acts left off as derivation
      // and pricing found them. Not its lines (decision 0049): the invoice page reads them.
      return {
        created,
        invoice: assemblyFrom(invoice, lineCount, added.added, [...noAct, ...added.unpriced]),
      };
    });
  }
}
