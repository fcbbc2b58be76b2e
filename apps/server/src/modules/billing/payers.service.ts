import type {
  TCoverage,
  TCoverageCreate,
  TPatientBalance,
  TPayer,
  TPayerCreate,
  TPayerStatement,
  TPayerUpdate,
} from '@greensen/shared/contracts/billing';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import type { payers } from '../../db/schema/index.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { hospitalCurrency, hospitalToday } from '../../lib/queries.js';
import { patientInHospital } from '../patients/patients.repository.js';
import { requireBillingReader } from './billing.access.js';
import {
  coveragesOfPatient,
  deletePayerRules,
  endCoverageOn,
  insertCoverage,
  insertPayer,
  insertPayerRules,
  listPayers,
  lockPayer,
  patientBalance,
  payerStatementLines,
  payersById,
  rulesOf,
  toPayer,
  updatePayer,
} from './payers.repository.js';

/**
 * Payers (insurers, mutual funds, employers, free-care programmes) with their coverage rules, patients'
 * coverage, payer statements and a patient's balance (issue 21, decision 0027).
 */
export class PayersService {
  constructor(private readonly app: FastifyInstance) {}

  async list(
    ctx: ServiceContext,
    f: { search?: string | undefined; kind?: string | undefined },
    page: number,
    size: number,
  ) {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const { rows, count } = await listPayers(this.app.db, hospital.id, f, size, (page - 1) * size);
    const rules = await rulesOf(
      this.app.db,
      rows.map((r) => r.id),
    );
    return { count, rows: rows.map((r) => toPayer(r, rules.get(r.id) ?? [])) };
  }

  private async payer(q: Queryable, hospitalId: string, id: string): Promise<TPayer | null> {
    const [row] = await payersById(q, hospitalId, [id]);
    if (!row) return null;
    return toPayer(row, (await rulesOf(q, [id])).get(id) ?? []);
  }

  async read(ctx: ServiceContext, id: string): Promise<TPayer> {
    const p = await this.payer(this.app.db, scopedHospital(ctx).id, id);
    if (!p) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    return p;
  }

  async create(ctx: ServiceContext, body: TPayerCreate): Promise<TPayer> {
    const hospital = scopedHospital(ctx);
    try {
      const id = await this.app.db.transaction(async (tx) => {
        const payerId = await insertPayer(tx, {
          hospitalId: hospital.id,
          code: body.code,
          name: body.name,
          kind: body.kind,
          payerCategory: body.payer_category ?? 'insured',
          contact: body.contact ?? null,
          isActive: body.is_active ?? true,
          maxAgeYears: body.eligibility?.max_age_years ?? null,
          eligibleSex: body.eligibility?.sex ?? null,
        });
        if (body.rules.length) await insertPayerRules(tx, payerId, body.rules);
        await this.app.audit.record(
          ctx,
          {
            action: 'payer.create',
            resourceType: 'payer',
            resourceId: payerId,
            details: { code: body.code },
          },
          tx,
        );
        return payerId;
      });
      return (await this.payer(this.app.db, hospital.id, id))!;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('billing.payer_code_taken');
      throw err;
    }
  }

  async update(ctx: ServiceContext, id: string, body: TPayerUpdate): Promise<TPayer> {
    const hospital = scopedHospital(ctx);
    try {
      await this.app.db.transaction(async (tx) => {
        if (!(await lockPayer(tx, hospital.id, id))) throw notFound();
        const set: Partial<typeof payers.$inferInsert> = {};
        if (body.code !== undefined) set.code = body.code;
        if (body.name !== undefined) set.name = body.name;
        if (body.kind !== undefined) set.kind = body.kind;
        if (body.payer_category !== undefined) set.payerCategory = body.payer_category;
        if (body.contact !== undefined) set.contact = body.contact;
        if (body.is_active !== undefined) set.isActive = body.is_active;
        if (body.eligibility?.max_age_years !== undefined) set.maxAgeYears = body.eligibility.max_age_years;
        if (body.eligibility?.sex !== undefined) set.eligibleSex = body.eligibility.sex;
        if (Object.keys(set).length) await updatePayer(tx, id, set);
        if (body.rules) {
          // Rules replace the whole list; invoices already issued keep their shares (drafts follow on refresh).
          await deletePayerRules(tx, id);
          if (body.rules.length) await insertPayerRules(tx, id, body.rules);
        }
        await this.app.audit.record(
          ctx,
          {
            action: 'payer.update',
            resourceType: 'payer',
            resourceId: id,
            details: { fields: Object.keys(body) },
          },
          tx,
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('billing.payer_code_taken');
      throw err;
    }
    return (await this.payer(this.app.db, hospital.id, id))!;
  }

  /** Issued invoices and credit notes of the period with a share for the payer (what to claim). */
  async statement(ctx: ServiceContext, id: string, from: string, to: string): Promise<TPayerStatement> {
    const hospital = scopedHospital(ctx);
    const p = await this.payer(this.app.db, hospital.id, id);
    if (!p) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    if (to < from) throw badRequest({ to: ['billing.valid_to_before_from'] });
    const rows = await payerStatementLines(this.app.db, hospital.id, id, from, to);
    const currency = await hospitalCurrency(this.app.db, hospital.id);
    const lines = rows.map((r) => ({
      invoice: r.id,
      number: r.number,
      kind: r.kind,
      issued_at: isoRequired(r.issued_at),
      patient: {
        id: r.patient_id,
        record_number: r.record_number,
        full_name: fullName(r.first_name, r.last_name),
      },
      member_number: r.member_number,
      total: Number(r.total),
      payer_share: Number(r.payer_share),
    }));
    await this.app.audit.record(ctx, {
      action: 'payer.statement',
      resourceType: 'payer',
      resourceId: id,
      details: { from, to, lines: lines.length },
    });
    return {
      payer: { id: p.id, code: p.code, name: p.name, kind: p.kind },
      from,
      to,
      currency,
      lines,
      total_payer_share: lines.reduce((s, l) => s + l.payer_share, 0),
    };
  }

  // Patients ---------------------------------------------------------------------------------------------

  private async patientOf(q: Queryable, hospitalId: string, patientId: string) {
    if (!(await patientInHospital(q, hospitalId, patientId))) throw notFound();
  }

  private async coveragesOf(
    q: Queryable,
    hospitalId: string,
    patientId: string,
    id?: string,
  ): Promise<TCoverage[]> {
    const today = await hospitalToday(q, hospitalId);
    const rows = await coveragesOfPatient(q, hospitalId, patientId, id);
    return rows.map((r) => ({
      id: r.id,
      patient: r.patient_id,
      payer: { id: r.payer_id, code: r.code, name: r.name, kind: r.kind },
      member_number: r.member_number,
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      is_current: r.is_active && r.valid_from <= today && (r.valid_to === null || r.valid_to >= today),
    }));
  }

  async coverages(ctx: ServiceContext, patientId: string) {
    const hospital = scopedHospital(ctx);
    await this.patientOf(this.app.db, hospital.id, patientId);
    await requireBillingReader(this.app.db, ctx);
    const results = await this.coveragesOf(this.app.db, hospital.id, patientId);
    await this.app.audit.record(ctx, {
      action: 'coverage.list',
      resourceType: 'coverage',
      resourceId: patientId,
      patientId,
    });
    return { results };
  }

  async addCoverage(ctx: ServiceContext, patientId: string, body: TCoverageCreate): Promise<TCoverage> {
    const hospital = scopedHospital(ctx);
    await this.patientOf(this.app.db, hospital.id, patientId);
    await requireBillingReader(this.app.db, ctx);
    const id = await this.app.db
      .transaction(async (tx) => {
        const [payer] = await payersById(tx, hospital.id, [body.payer]);
        if (!payer?.is_active) throw badRequest({ payer: ['billing.payer_unknown'] });
        const from = body.valid_from ?? (await hospitalToday(tx, hospital.id));
        if (body.valid_to && body.valid_to < from)
          throw badRequest({ valid_to: ['billing.valid_to_before_from'] });
        const coverageId = await insertCoverage(tx, {
          hospitalId: hospital.id,
          patientId,
          payerId: payer.id,
          memberNumber: body.member_number,
          validFrom: from,
          validTo: body.valid_to ?? null,
          createdBy: actingUser(ctx).id,
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'coverage.create',
            resourceType: 'coverage',
            resourceId: coverageId,
            patientId,
            details: { payer: payer.code },
          },
          tx,
        );
        return coverageId;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict('billing.coverage_exists');
        throw err;
      });
    return (await this.coveragesOf(this.app.db, hospital.id, patientId, id))[0]!;
  }

  /** Ends a coverage (default: today). */
  async endCoverage(
    ctx: ServiceContext,
    patientId: string,
    id: string,
    validTo?: string | null,
  ): Promise<TCoverage> {
    const hospital = scopedHospital(ctx);
    const [c] = await this.coveragesOf(this.app.db, hospital.id, patientId, id);
    if (!c) throw notFound();
    await requireBillingReader(this.app.db, ctx);
    const to = validTo ?? (await hospitalToday(this.app.db, hospital.id));
    if (to < c.valid_from) throw badRequest({ valid_to: ['billing.valid_to_before_from'] });
    await this.app.db.transaction(async (tx) => {
      await endCoverageOn(tx, id, to);
      await this.app.audit.record(
        ctx,
        {
          action: 'coverage.end',
          resourceType: 'coverage',
          resourceId: id,
          patientId,
          details: { valid_to: to },
        },
        tx,
      );
    });
    return (await this.coveragesOf(this.app.db, hospital.id, patientId, id))[0]!;
  }

  /** What the patient owes on issued invoices (credit notes and payments deducted); clinicians read it too. */
  async balance(ctx: ServiceContext, patientId: string): Promise<TPatientBalance> {
    const hospital = scopedHospital(ctx);
    await this.patientOf(this.app.db, hospital.id, patientId);
    const r = await patientBalance(this.app.db, hospital.id, patientId);
    await this.app.audit.record(ctx, {
      action: 'patient.balance',
      resourceType: 'patient',
      resourceId: patientId,
      patientId,
    });
    return {
      patient: patientId,
      currency: r.currency,
      invoiced: Number(r.invoiced),
      paid: Number(r.paid),
      balance: Number(r.invoiced) - Number(r.paid),
      open_invoices: Number(r.open),
      draft_invoices: Number(r.drafts),
    };
  }
}
