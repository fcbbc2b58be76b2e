import {
  documentNumber,
  NUMBER_PREFIXES,
  type TCreditNoteCreate,
  type TInvoiceAssemble,
  type TInvoiceAssembly,
  type TInvoiceDetail,
  type TInvoiceLine,
  type TInvoiceLineCreate,
  type TPaymentSummary,
  type TUnpriced,
} from '@greensen/shared/contracts/billing';
import type { PayerCategory } from '@greensen/shared/contracts/medical-acts';
import { lineGross, splitShare } from '@greensen/shared/domain/money';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { invoiceLines, invoices, performedActs } from '../../db/schema/index.js';
import { ageOf, fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { hospitalToday, listReadEntry, sqlList } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import { examOfStay, prescriptionOfStay } from '../hospitalizations/stay-orders.repository.js';
import {
  billingRoles,
  hasBillingStaffRole,
  isBillingManager,
  requireBillingReader,
  requireBillingStaff,
} from './billing.access.js';
import {
  draftOutOfDate,
  findInvoice,
  type InvoiceFilters,
  type InvoiceHeaderRow,
  type InvoiceRow,
  invoiceHeaderSelect,
  linesOf,
  listInvoices,
  lockInvoice,
  moveVisitDraftToStay,
  paymentsOf,
  toInvoice,
} from './billing.repository.js';
import { actsOfEncounter, type Encounter, findEncounter, stayOfVisit } from './medical-acts.repository.js';

interface Coverage {
  coverageId: string;
  payerId: string;
  memberNumber: string;
  payerCategory: PayerCategory;
}

/** A UUID v7 made by the database (rows derived in one INSERT … SELECT), like the application's ids. */
const UUID_V7 = sql.raw(
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`,
);

/** The hospital's year of today (numbers restart each year). */
async function yearOf(q: Queryable, hospitalId: string) {
  return (await hospitalToday(q, hospitalId)).slice(0, 4);
}

/** A draft's `unpriced` (what could not be billed); none once issued. */
const unpricedOf = (row: InvoiceHeaderRow, unpriced: TUnpriced[]) => (row.status === 'draft' ? unpriced : []);

type LineCategory = (typeof invoiceLines.$inferInsert)['category'];

/**
 * A line as the payer split reads it, with the payer's rule for its category (`payer_rules` is unique per payer
 * and category; none: the payer pays nothing of it). A new line has no id yet.
 */
interface SplitRow {
  [column: string]: unknown;
  id?: string;
  category: string;
  total: string | number;
  payer_share: string | number;
  removed: boolean;
  rate_percent: number | null;
  ceiling: string | number | null;
}

/** The payer's rule for a line's category (`category`: its column). */
const ruleJoin = (payerId: string | null, category: SQL) =>
  sql`left join payer_rules r on r.payer_id = ${payerId}::uuid and r.category = ${category}`;

/**
 * A performed act (`pa`) not billed: on no live line of any invoice, nor on a line (removed or not) of this one.
 * Two `not exists`, each on its index (`invoice_lines_performed_uq`, `invoice_lines_position_uq`): one with an
 * `or` could use neither and would scan every invoice's lines.
 */
const notOnInvoice = (invoiceId: string) => sql`not exists (select 1 from invoice_lines il
    where il.performed_act_id = pa.id and il.removed_at is null)
  and not exists (select 1 from invoice_lines il where il.invoice_id = ${invoiceId} and il.performed_act_id = pa.id)`;

/** The invoice's lines as the split reads them (`SplitRow`), aliased `il`, with their position. */
const splitRowsOf = (invoiceId: string, payerId: string | null) =>
  sql`select il.id, il.position, il.category, il.total, il.payer_share, il.removed_at is not null as removed,
      r.rate_percent, r.ceiling
    from invoice_lines il ${ruleJoin(payerId, sql`il.category`)}
    where il.invoice_id = ${invoiceId}`;

/**
 * The payer split of an invoice's lines in position order (domain/money.ts `splitShare`: the payer's rate of each
 * live line rounded down, capped by what is left of the category's ceiling on this invoice). Answers each line's
 * payer share (0 for a removed line), the invoice's totals and its count of live lines.
 */
function splitLines(rows: SplitRow[]) {
  const used = new Map<string, number>();
  const shares: number[] = [];
  let total = 0;
  let payerTotal = 0;
  let lineCount = 0;
  for (const line of rows) {
    const lineTotal = Number(line.total);
    let payer = 0;
    if (!line.removed) {
      if (line.rate_percent !== null) {
        const ceiling = line.ceiling === null ? null : Number(line.ceiling);
        const left = ceiling === null ? null : ceiling - (used.get(line.category) ?? 0);
        payer = splitShare(lineTotal, Number(line.rate_percent), left).payer;
        used.set(line.category, (used.get(line.category) ?? 0) + payer);
      }
      total += lineTotal;
      payerTotal += payer;
      lineCount += 1;
    }
    shares.push(payer);
  }
  return { shares, total, payerTotal, lineCount };
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
 * Invoices of visits and stays (issue 21, decision 0027): assembled from what was performed (derived
 * idempotently from completed consultations, validated exams, bed-days and dispensed medicines), edited while
 * draft, issued with a gap-free number, corrected by credit notes. Every read and write is audited.
 */
export class InvoicesService {
  constructor(private readonly app: FastifyInstance) {}

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
    const [row, lines, payments, notes, unpriced, outOfDate] = await Promise.all([
      findInvoice(this.app.db, hospital.id, id),
      linesOf(this.app.db, id),
      paymentsOf(this.app.db, id),
      this.app.db.execute<{ id: string; number: string | null; total: string }>(
        sql`select id, number, total from invoices where credited_invoice_id = ${id} order by created_at`,
      ),
      this.unpricedActs(this.app.db, id),
      draftOutOfDate(this.app.db, id),
    ]);
    if (!row) throw notFound();
    const credit = notes.rows.map((n) => ({ id: n.id, number: n.number, total: Number(n.total) }));
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
    const res = await q.execute<{
      id: string;
      label: string;
    }>(sql`select pa.id, ma.code || ' ' || ma.label_fr as label
      from invoices i left join hospitalizations ist on ist.id = i.hospitalization_id
      join performed_acts pa on (pa.admission_id = coalesce(i.admission_id, ist.admission_id)
        or pa.hospitalization_id = i.hospitalization_id)
      join medical_acts ma on ma.id = pa.act_id
      where i.id = ${invoiceId} and pa.cancelled_at is null and ${notOnInvoice(invoiceId)}
      order by pa.performed_at limit 200`);
    return res.rows.map((r) => ({ performed_act: r.id, label: r.label, reason: 'no_tariff' }));
  }

  // Assembly ----------------------------------------------------------------------------------------------

  /** The coverage that pays: the one asked for (must be the patient's, valid and eligible), else the current one. */
  private async coverageFor(
    tx: Tx,
    hospitalId: string,
    enc: Encounter,
    body: TInvoiceAssemble,
  ): Promise<Coverage | null> {
    if (body.no_coverage) return null;
    const day = enc.start.slice(0, 10);
    const res = await tx.execute<{
      id: string;
      payer_id: string;
      member_number: string;
      payer_category: PayerCategory;
      max_age_years: number | null;
      eligible_sex: 'F' | 'M' | null;
    }>(sql`select c.id, c.payer_id, c.member_number, py.payer_category, py.max_age_years, py.eligible_sex
      from patient_coverages c join payers py on py.id = c.payer_id
      where c.hospital_id = ${hospitalId} and c.patient_id = ${enc.patientId} and py.is_active
        ${body.coverage ? sql`and c.id = ${body.coverage}` : sql``}
        and c.valid_from <= ${day}::date and (c.valid_to is null or c.valid_to >= ${day}::date)
      order by c.valid_from desc, c.id`);
    const age = ageOf(enc.birthDate, new Date(enc.start));
    const eligible = res.rows.filter(
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
   * The performed acts the journey recorded, derived once each (`(source, source_ref)` is unique): completed
   * consultations and validated exams of a visit; bed-days, validated exams and dispensed medicines of a stay;
   * dispensed medicines of the visit's prescriptions. Sources without an act in the catalogue are reported.
   */
  private async derive(tx: Tx, hospitalId: string, enc: Encounter): Promise<TUnpriced[]> {
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
    const missing = await tx.execute<{ label: string }>(sql`with own as (${own} returning 1),
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
    return missing.rows.map((r) => ({ performed_act: null, label: r.label, reason: 'no_act' }));
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
    const encFilter = actsOfEncounter(enc);
    // The lines (`SplitRow`s, in position order) then the acts (in the order they were performed), as rows.
    const res = await tx.execute<
      SplitRow & {
        kind: 'line' | 'act';
        position: number | null;
        act_id: string | null;
        quantity: number | null;
        code: string | null;
        label_fr: string | null;
        label_en: string | null;
        price: string | number | null;
      }
    >(sql`select 'line' as kind, l.*, null::uuid as act_id, null::int as quantity, null as code, null as label_fr,
        null as label_en, null::bigint as price, null::timestamptz as performed_at
      from (${splitRowsOf(invoiceId, payerId)}) l
      union all
      select 'act', pa.id, null, ma.category, null, null, false, r.rate_percent, r.ceiling, pa.act_id, pa.quantity,
        ma.code, ma.label_fr, ma.label_en,
        (select t.price from act_tariffs t where t.act_id = pa.act_id and t.payer_category = ${category}
          and t.valid_from <= (pa.performed_at at time zone h.time_zone)::date
          and (t.valid_to is null or t.valid_to >= (pa.performed_at at time zone h.time_zone)::date)
          order by t.valid_from desc limit 1),
        pa.performed_at
      from performed_acts pa join medical_acts ma on ma.id = pa.act_id join hospitals h on h.id = pa.hospital_id
      ${ruleJoin(payerId, sql`ma.category`)}
      where ${encFilter} and pa.cancelled_at is null and ${notOnInvoice(invoiceId)}
      order by kind desc, position, performed_at, id`);
    const lines = res.rows.filter((r) => r.kind === 'line');
    const acts = res.rows.filter((r) => r.kind === 'act');
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
      await tx.insert(invoiceLines).values(
        fresh.map((f, i) => {
          const payer = split.shares[lines.length + i]!;
          return { ...f.values, payerShare: payer, patientShare: f.values.total - payer };
        }),
      );
    }
    const invoice = await this.writeSplit(tx, invoiceId, lines, split);
    return { invoice, lineCount: split.lineCount, added: fresh.length, unpriced };
  }

  /**
   * Splits every live line between the payer and the patient (`splitLines`) and writes the invoice's totals:
   * after an edit of a draft (a line added, removed or discounted).
   */
  private async recompute(tx: Tx, invoiceId: string, payerId: string | null) {
    const res = await tx.execute<SplitRow>(sql`${splitRowsOf(invoiceId, payerId)} order by il.position`);
    await this.writeSplit(tx, invoiceId, res.rows, splitLines(res.rows));
  }

  /**
   * Writes a split: the shares of the lines (`rows`, the split's first lines) that changed and the invoice's
   * totals, in one statement that answers the invoice's header.
   */
  private async writeSplit(
    tx: Tx,
    invoiceId: string,
    rows: SplitRow[],
    split: ReturnType<typeof splitLines>,
  ): Promise<InvoiceHeaderRow> {
    const changes = rows
      .map((r, i) => ({
        id: r.id,
        total: Number(r.total),
        payer: split.shares[i]!,
        was: Number(r.payer_share),
      }))
      .filter((c) => c.payer !== c.was)
      .map((c) => sql`(${c.id}::uuid, ${c.payer}::bigint, ${c.total - c.payer}::bigint)`);
    const updated = await tx.execute<InvoiceHeaderRow>(sql`with
      ${
        changes.length
          ? sql`changed as (update invoice_lines il set payer_share = v.payer, patient_share = v.patient
              from (values ${sql.join(changes, sql`, `)}) as v(id, payer, patient) where il.id = v.id),`
          : sql``
      }
      u as (update invoices set total = ${split.total}, payer_share = ${split.payerTotal},
        patient_share = ${split.total - split.payerTotal}, updated_at = now() where id = ${invoiceId} returning *)
      ${invoiceHeaderSelect(sql`u`)}`);
    return updated.rows[0]!;
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
      const encCol = body.admission ? sql`admission_id` : sql`hospitalization_id`;
      const enc = await findEncounter<{
        roles: string | null;
        invoice_id: string | null;
        invoice_status: string | null;
        invoice_payer_id: string | null;
        invoice_payer_category: PayerCategory | null;
      }>(tx, hospital.id, body, {
        columns: sql`, ${billingRoles(ctx)} as roles, inv.id as invoice_id, inv.status as invoice_status,
          inv.payer_id as invoice_payer_id, inv.payer_category as invoice_payer_category`,
        joins: sql`left join (select id, status, payer_id, payer_category from invoices
          where ${encCol} = ${body.admission ? body.admission : (body.hospitalization ?? null)} and kind = 'invoice'
            and status <> 'cancelled' for update) inv on true`,
      });
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
          const currency = await tx.execute<{ currency: string }>(
            sql`select currency from hospitals where id = ${hospital.id}`,
          );
          payerCategory = body.payer_category ?? coverage?.payerCategory ?? 'private';
          const [row] = await tx
            .insert(invoices)
            .values({
              hospitalId: hospital.id,
              patientId: enc.patientId,
              admissionId: enc.kind === 'admission' ? enc.id : null,
              hospitalizationId: enc.kind === 'hospitalization' ? enc.id : null,
              currency: currency.rows[0]!.currency,
              payerCategory,
              payerId: coverage?.payerId ?? null,
              coverageId: coverage?.coverageId ?? null,
              memberNumber: coverage?.memberNumber ?? null,
              createdBy: user.id,
            })
            .onConflictDoNothing()
            .returning({ id: invoices.id });
          if (!row) throw conflict('billing.assembling');
          invoiceId = row.id;
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
          await tx.update(invoices).set(set).where(sql`${invoices.id} = ${invoiceId}`);
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

  /** Prices the live lines again at the tariffs of another payer category (lines without one keep theirs). */
  private async reprice(tx: Tx, invoiceId: string, category: PayerCategory) {
    const res = await tx.execute<{ id: string; quantity: number; discount: string; price: string | null }>(
      sql`select il.id, il.quantity, il.discount,
          (select t.price from act_tariffs t where t.act_id = il.act_id and t.payer_category = ${category}
            and t.valid_from <= (pa.performed_at at time zone h.time_zone)::date
            and (t.valid_to is null or t.valid_to >= (pa.performed_at at time zone h.time_zone)::date)
            order by t.valid_from desc limit 1) as price
        from invoice_lines il join performed_acts pa on pa.id = il.performed_act_id
        join hospitals h on h.id = pa.hospital_id
        where il.invoice_id = ${invoiceId} and il.removed_at is null`,
    );
    const changes = res.rows
      .filter((r) => r.price !== null)
      .map((r) => {
        const gross = lineGross(Number(r.price), Number(r.quantity));
        const discount = Math.min(Number(r.discount), gross);
        return sql`(${r.id}::uuid, ${Number(r.price)}::bigint, ${discount}::bigint, ${gross - discount}::bigint)`;
      });
    if (!changes.length) return;
    await tx.execute(sql`update invoice_lines il set unit_price = v.price, discount = v.discount, total = v.total,
        payer_share = 0, patient_share = v.total
      from (values ${sql.join(changes, sql`, `)}) as v(id, price, discount, total) where il.id = v.id`);
  }

  // Draft edits --------------------------------------------------------------------------------------------

  /** Locks a draft of the hospital for an edit by billing staff: 404, then 403, then 409 when not a draft. */
  private async editableDraft(tx: Tx, ctx: ServiceContext, id: string) {
    const inv = await lockInvoice(tx, scopedHospital(ctx).id, id);
    if (!inv) throw notFound();
    await requireBillingStaff(tx, ctx);
    if (inv.status !== 'draft' || inv.kind !== 'invoice') throw conflict('billing.not_draft');
    return inv;
  }

  private async audited(
    ctx: ServiceContext,
    tx: Tx,
    id: string,
    patientId: string,
    action: string,
    details: object,
  ) {
    await this.app.audit.record(
      ctx,
      { action, resourceType: 'invoice', resourceId: id, patientId, details: { ...details } },
      tx,
    );
  }

  /** A line added by hand: a performed act of the visit or stay (manual) priced at today's tariff. */
  async addLine(ctx: ServiceContext, id: string, body: TInvoiceLineCreate) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await this.editableDraft(tx, ctx, id);
      const act = await tx.execute<{
        id: string;
        code: string;
        label_fr: string;
        label_en: string;
        category: (typeof invoiceLines.$inferInsert)['category'];
        price: string | null;
      }>(sql`select ma.id, ma.code, ma.label_fr, ma.label_en, ma.category,
          (select price from act_tariffs t where t.act_id = ma.id and t.payer_category = ${inv.payer_category}
            and t.valid_from <= (now() at time zone h.time_zone)::date
            and (t.valid_to is null or t.valid_to >= (now() at time zone h.time_zone)::date)
            order by t.valid_from desc limit 1) as price
        from medical_acts ma join hospitals h on h.id = ma.hospital_id
        where ma.hospital_id = ${hospital.id} and ma.id = ${body.act} and ma.is_active`);
      const a = act.rows[0];
      if (!a) throw badRequest({ act: ['billing.act_unknown'] });
      if (a.price === null) throw conflict('billing.no_tariff');
      const quantity = body.quantity ?? 1;
      const [pa] = await tx
        .insert(performedActs)
        .values({
          hospitalId: hospital.id,
          patientId: inv.patient_id,
          actId: a.id,
          admissionId: inv.admission_id,
          hospitalizationId: inv.hospitalization_id,
          quantity,
          source: 'manual',
          performedBy: user.id,
        })
        .returning({ id: performedActs.id });
      const pos = await tx.execute<{ n: number }>(
        sql`select coalesce(max(position), 0)::int as n from invoice_lines where invoice_id = ${id}`,
      );
      const total = lineGross(Number(a.price), quantity);
      await tx.insert(invoiceLines).values({
        invoiceId: id,
        position: Number(pos.rows[0]?.n ?? 0) + 1,
        actId: a.id,
        code: a.code,
        labelFr: a.label_fr,
        labelEn: a.label_en,
        category: a.category,
        performedActId: pa!.id,
        quantity,
        unitPrice: Number(a.price),
        total,
        patientShare: total,
      });
      await this.recompute(tx, id, inv.payer_id);
      await this.audited(ctx, tx, id, inv.patient_id, 'invoice.line_add', { act: a.code, quantity });
    });
    return this.detailOf(ctx, id);
  }

  private async liveLine(tx: Tx, invoiceId: string, lineId: string) {
    const res = await tx.execute<{ quantity: number; unit_price: string; code: string }>(
      sql`select quantity, unit_price, code from invoice_lines where id = ${lineId} and invoice_id = ${invoiceId}
        and removed_at is null`,
    );
    if (!res.rows[0]) throw notFound('billing.line_unknown');
    return res.rows[0];
  }

  async removeLine(ctx: ServiceContext, id: string, lineId: string, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await this.editableDraft(tx, ctx, id);
      const line = await this.liveLine(tx, id, lineId);
      await tx.execute(sql`update invoice_lines set removed_at = now(), removed_by = ${user.id},
        removed_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0 where id = ${lineId}`);
      await this.recompute(tx, id, inv.payer_id);
      await this.audited(ctx, tx, id, inv.patient_id, 'invoice.line_remove', {
        line: lineId,
        code: line.code,
        reason,
      });
    });
    return this.detailOf(ctx, id);
  }

  async discountLine(ctx: ServiceContext, id: string, lineId: string, amount: number, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await this.editableDraft(tx, ctx, id);
      const line = await this.liveLine(tx, id, lineId);
      const gross = lineGross(Number(line.unit_price), Number(line.quantity));
      if (amount > gross) throw badRequest({ amount: ['billing.discount_above_line'] });
      await tx.execute(sql`update invoice_lines set discount = ${amount},
        discount_reason = ${amount ? reason : null}, discount_by = ${amount ? user.id : null},
        total = ${gross - amount}, payer_share = 0, patient_share = ${gross - amount} where id = ${lineId}`);
      await this.recompute(tx, id, inv.payer_id);
      await this.audited(ctx, tx, id, inv.patient_id, 'invoice.discount', { line: lineId, amount, reason });
    });
    return this.detailOf(ctx, id);
  }

  /**
   * Issues a draft: its number is the next of the hospital's `invoice:<year>` sequence, taken in this transaction
   * (its row stays locked until the commit; a rollback gives the number back), so numbers have no gap.
   */
  async issue(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await this.editableDraft(tx, ctx, id);
      const lines = await tx.execute(
        sql`select 1 from invoice_lines where invoice_id = ${id} and removed_at is null limit 1`,
      );
      if (!lines.rows.length) throw conflict('billing.empty');
      const year = await yearOf(tx, hospital.id);
      const n = await nextSequenceValue(tx, hospital.id, `invoice:${year}`);
      const number = documentNumber(NUMBER_PREFIXES.invoice, hospital.code, Number(year), n);
      await tx.execute(sql`update invoices set status = 'issued', number = ${number}, issued_at = now(),
        issued_by = ${user.id}, updated_at = now() where id = ${id}`);
      await this.audited(ctx, tx, id, inv.patient_id, 'invoice.issue', { number });
    });
    return this.detailOf(ctx, id);
  }

  /** Cancels a draft (with a reason); its lines are removed so that their acts may be billed again. */
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const inv = await this.editableDraft(tx, ctx, id);
      if (Number(inv.paid) !== 0) throw conflict('billing.has_payments');
      await tx.execute(sql`update invoice_lines set removed_at = now(), removed_by = ${user.id},
        removed_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0
        where invoice_id = ${id} and removed_at is null`);
      await tx.execute(sql`update invoices set status = 'cancelled', cancelled_at = now(), cancelled_by = ${user.id},
        cancel_reason = ${reason}, total = 0, payer_share = 0, patient_share = 0, updated_at = now() where id = ${id}`);
      await this.audited(ctx, tx, id, inv.patient_id, 'invoice.cancel', { reason });
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
      const lines = await tx.execute<{
        id: string;
        act_id: string;
        code: string;
        label_fr: string;
        label_en: string;
        category: (typeof invoiceLines.$inferInsert)['category'];
        quantity: number;
        unit_price: string;
        discount: string;
        discount_reason: string | null;
        total: string;
        payer_share: string;
        patient_share: string;
        credited: boolean;
      }>(sql`select il.id, il.act_id, il.code, il.label_fr, il.label_en, il.category, il.quantity, il.unit_price,
          il.discount, il.discount_reason, il.total, il.payer_share, il.patient_share,
          exists (select 1 from invoice_lines cl where cl.credited_line_id = il.id) as credited
        from invoice_lines il where il.invoice_id = ${id} and il.removed_at is null
        ${body.lines ? sql`and il.id in (${sqlList(body.lines)})` : sql``} order by il.position`);
      if (body.lines && lines.rows.length !== new Set(body.lines).size)
        throw badRequest({ lines: ['billing.line_unknown'] });
      if (lines.rows.some((l) => l.credited) && body.lines) throw conflict('billing.line_credited');
      const toCredit = lines.rows.filter((l) => !l.credited);
      if (!toCredit.length) throw conflict('billing.nothing_to_credit');
      const header = await tx.execute<{ member_number: string | null; coverage_id: string | null }>(
        sql`select member_number, coverage_id from invoices where id = ${id}`,
      );
      const [note] = await tx
        .insert(invoices)
        .values({
          hospitalId: hospital.id,
          kind: 'credit_note',
          patientId: inv.patient_id,
          admissionId: inv.admission_id,
          hospitalizationId: inv.hospitalization_id,
          currency: inv.currency,
          payerCategory: inv.payer_category,
          payerId: inv.payer_id,
          coverageId: header.rows[0]?.coverage_id ?? null,
          memberNumber: header.rows[0]?.member_number ?? null,
          creditedInvoiceId: id,
          creditReason: body.reason,
          createdBy: user.id,
        })
        .returning({ id: invoices.id });
      await tx.insert(invoiceLines).values(
        toCredit.map((l, i) => ({
          invoiceId: note!.id,
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
      await tx.execute(sql`update invoices set total = ${total}, payer_share = ${payer},
        patient_share = ${total - payer}, status = 'issued', number = ${number}, issued_at = now(),
        issued_by = ${user.id} where id = ${note!.id}`);
      await tx.execute(sql`update invoices set credited_patient_share = credited_patient_share + ${total - payer},
        updated_at = now() where id = ${id}`);
      await this.audited(ctx, tx, note!.id, inv.patient_id, 'invoice.credit_note', {
        invoice: id,
        number,
        reason: body.reason,
        lines: toCredit.length,
      });
      return note!.id;
    });
    return this.detailOf(ctx, noteId);
  }
}
