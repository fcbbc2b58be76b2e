import type {
  TMedicalActCreate,
  TMedicalActDetail,
  TMedicalActUpdate,
  TPerformedActCreate,
  TTariffCreate,
} from '@greensen/shared/contracts/medical-acts';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import type { medicalActs } from '../../db/schema/index.js';
import { isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { hospitalCurrency, hospitalToday, listReadEntry } from '../../lib/queries.js';
import { requireBillingStaff, sqlState } from './billing.access.js';
import {
  type ActFilters,
  closeTariffBefore,
  examExists,
  findAct,
  findEncounter,
  findPerformed,
  insertAct,
  insertPerformedAct,
  insertTariffs,
  isActBilled,
  listActs,
  listPerformed,
  lockPerformedAct,
  markPerformedActCancelled,
  type PerformedFilters,
  presentationExists,
  tariffsOf,
  toAct,
  updateAct,
} from './medical-acts.repository.js';

const dayBefore = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

/** The unique index a violation names, mapped to the field it concerns. */
function actConflict(err: unknown): never {
  const unique = isUniqueViolation(err);
  if (unique) {
    if (unique.constraint.includes('medical_acts_code_uq')) throw conflict('medical_acts.code_taken');
    throw conflict('medical_acts.link_taken');
  }
  if (sqlState(err) === '23P01') throw conflict('medical_acts.tariff_overlap');
  throw err;
}

/**
 * The catalogue of acts with their tariffs per payer category, and the acts performed for a visit or a stay
 * (issue 21, decision 0027). The catalogue holds no patient data (audited as events); performed acts are.
 */
export class MedicalActsService {
  constructor(private readonly app: FastifyInstance) {}

  async list(ctx: ServiceContext, f: ActFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const { rows, count } = await listActs(this.app.db, hospital.id, f, pageSize, (page - 1) * pageSize);
    const today = await hospitalToday(this.app.db, hospital.id);
    const current = await tariffsOf(
      this.app.db,
      rows.map((r) => r.id),
      today,
    );
    return { count, rows: rows.map((r) => toAct(r, current.get(r.id) ?? [])) };
  }

  async detail(ctx: ServiceContext, id: string, q: Queryable = this.app.db): Promise<TMedicalActDetail> {
    const hospital = scopedHospital(ctx);
    const row = await findAct(q, hospital.id, id);
    if (!row) throw notFound();
    const today = await hospitalToday(q, hospital.id);
    const all = (await tariffsOf(q, [id])).get(id) ?? [];
    const current = all.filter((t) => t.valid_from <= today && (t.valid_to === null || t.valid_to >= today));
    return {
      ...toAct(row, current),
      tariffs: [...all].sort((a, b) => b.valid_from.localeCompare(a.valid_from)),
      created_at: isoRequired(row.created_at),
      updated_at: isoRequired(row.updated_at),
    };
  }

  private async checkLinks(q: Queryable, exam?: string | null, presentation?: string | null) {
    if (exam) {
      if (!(await examExists(q, exam))) throw badRequest({ exam: ['medical_acts.exam_unknown'] });
    }
    if (presentation) {
      if (!(await presentationExists(q, presentation)))
        throw badRequest({ presentation: ['medical_acts.presentation_unknown'] });
    }
  }

  async create(ctx: ServiceContext, body: TMedicalActCreate): Promise<TMedicalActDetail> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    const id = await this.app.db
      .transaction(async (tx) => {
        await this.checkLinks(tx, body.exam, body.presentation);
        const actId = await insertAct(tx, {
          hospitalId: hospital.id,
          code: body.code,
          labelFr: body.label_fr,
          labelEn: body.label_en,
          category: body.category,
          isActive: body.is_active ?? true,
          autoSource: body.auto_source ?? null,
          examId: body.exam ?? null,
          presentationId: body.presentation ?? null,
        });
        if (body.tariffs?.length) {
          const today = await hospitalToday(tx, hospital.id);
          const currency = await hospitalCurrency(tx, hospital.id);
          await insertTariffs(
            tx,
            body.tariffs.map((t) => ({
              hospitalId: hospital.id,
              actId,
              payerCategory: t.payer_category,
              price: t.price,
              currency,
              validFrom: t.valid_from ?? today,
              createdBy: user.id,
            })),
          );
        }
        await this.app.audit.record(
          ctx,
          {
            action: 'medical_act.create',
            resourceType: 'medical_act',
            resourceId: actId,
            details: { code: body.code, tariffs: body.tariffs?.length ?? 0 },
          },
          tx,
        );
        return actId;
      })
      .catch(actConflict);
    return this.detail(ctx, id);
  }

  async update(ctx: ServiceContext, id: string, body: TMedicalActUpdate): Promise<TMedicalActDetail> {
    const hospital = scopedHospital(ctx);
    await this.app.db
      .transaction(async (tx) => {
        const row = await findAct(tx, hospital.id, id, true);
        if (!row) throw notFound();
        await this.checkLinks(tx, body.exam, body.presentation);
        const set: Partial<typeof medicalActs.$inferInsert> = {};
        if (body.code !== undefined) set.code = body.code;
        if (body.label_fr !== undefined) set.labelFr = body.label_fr;
        if (body.label_en !== undefined) set.labelEn = body.label_en;
        if (body.category !== undefined) set.category = body.category;
        if (body.is_active !== undefined) set.isActive = body.is_active;
        if (body.auto_source !== undefined) set.autoSource = body.auto_source;
        if (body.exam !== undefined) set.examId = body.exam;
        if (body.presentation !== undefined) set.presentationId = body.presentation;
        if (Object.keys(set).length) {
          await updateAct(tx, id, set);
        }
        await this.app.audit.record(
          ctx,
          {
            action: 'medical_act.update',
            resourceType: 'medical_act',
            resourceId: id,
            details: { fields: Object.keys(body) },
          },
          tx,
        );
      })
      .catch(actConflict);
    return this.detail(ctx, id);
  }

  /**
   * A new price from `valid_from` (default today). The tariff of the category in force that day, if it started
   * earlier and is open or ends later, is closed the day before; any other overlap is refused (409, by the
   * exclusion constraint).
   */
  async addTariff(ctx: ServiceContext, id: string, body: TTariffCreate): Promise<TMedicalActDetail> {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db
      .transaction(async (tx) => {
        const row = await findAct(tx, hospital.id, id, true);
        if (!row) throw notFound();
        const from = body.valid_from ?? (await hospitalToday(tx, hospital.id));
        if (body.valid_to && body.valid_to < from)
          throw badRequest({ valid_to: ['medical_acts.valid_to_before_from'] });
        await closeTariffBefore(tx, id, body.payer_category, from, dayBefore(from));
        const tariffId = await insertTariffs(tx, [
          {
            hospitalId: hospital.id,
            actId: id,
            payerCategory: body.payer_category,
            price: body.price,
            currency: await hospitalCurrency(tx, hospital.id),
            validFrom: from,
            validTo: body.valid_to ?? null,
            createdBy: user.id,
          },
        ]);
        await this.app.audit.record(
          ctx,
          {
            action: 'medical_act.tariff',
            resourceType: 'medical_act',
            resourceId: id,
            details: {
              tariff: tariffId,
              payer_category: body.payer_category,
              price: body.price,
              valid_from: from,
            },
          },
          tx,
        );
      })
      .catch(actConflict);
    return this.detail(ctx, id);
  }

  // Performed acts ---------------------------------------------------------------------------------------

  /** Secretaries and queue managers record acts as billing staff only; clinicians as clinicians. */
  private async requireRecorder(q: Queryable, ctx: ServiceContext) {
    const clinician = scopedHospital(ctx).groups.some(
      (g) => ACTION_GROUPS['medical_act.record'].includes(g) && g !== 'secretary' && g !== 'queue_manager',
    );
    if (!clinician) await requireBillingStaff(q, ctx);
  }

  async performed(ctx: ServiceContext, f: PerformedFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    await this.requireRecorder(this.app.db, ctx);
    const { rows, count } = await listPerformed(this.app.db, hospital.id, f, pageSize, (page - 1) * pageSize);
    const patient = f.patient ?? rows[0]?.patient ?? null;
    await this.app.audit.record(
      ctx,
      listReadEntry('performed_act.list', 'performed_act', { ...f, patient }, page, rows.length),
    );
    return { rows, count };
  }

  async record(ctx: ServiceContext, body: TPerformedActCreate) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    const id = await this.app.db.transaction(async (tx) => {
      const enc = await findEncounter(tx, hospital.id, body);
      if (!enc) throw notFound('medical_acts.encounter_unknown');
      const act = await findAct(tx, hospital.id, body.act);
      if (!act?.is_active) throw badRequest({ act: ['medical_acts.act_unknown'] });
      await this.requireRecorder(tx, ctx);
      const at = body.performed_at ? new Date(body.performed_at) : new Date();
      if (at.getTime() > Date.now() + 60_000) throw badRequest({ performed_at: ['medical_acts.in_future'] });
      const performedId = await insertPerformedAct(tx, {
        hospitalId: hospital.id,
        patientId: enc.patientId,
        actId: act.id,
        admissionId: enc.kind === 'admission' ? enc.id : null,
        hospitalizationId: enc.kind === 'hospitalization' ? enc.id : null,
        quantity: body.quantity ?? 1,
        source: 'manual',
        performedAt: at,
        performedBy: user.id,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'performed_act.create',
          resourceType: 'performed_act',
          resourceId: performedId,
          patientId: enc.patientId,
          details: { act: act.code, quantity: body.quantity ?? 1 },
        },
        tx,
      );
      return performedId;
    });
    return (await findPerformed(this.app.db, hospital.id, id))!;
  }

  /** Cancels an act with a reason; not once it is on an invoice line (remove the line from the draft first). */
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    const hospital = scopedHospital(ctx);
    const user = actingUser(ctx);
    await this.app.db.transaction(async (tx) => {
      const row = await lockPerformedAct(tx, hospital.id, id);
      if (!row) throw notFound();
      await this.requireRecorder(tx, ctx);
      if (row.cancelled_at) throw conflict('medical_acts.already_cancelled');
      if (await isActBilled(tx, id)) throw conflict('medical_acts.billed');
      await markPerformedActCancelled(tx, id, user.id, reason);
      await this.app.audit.record(
        ctx,
        {
          action: 'performed_act.cancel',
          resourceType: 'performed_act',
          resourceId: id,
          patientId: row.patient_id,
          details: { reason },
        },
        tx,
      );
    });
    return (await findPerformed(this.app.db, hospital.id, id))!;
  }
}
