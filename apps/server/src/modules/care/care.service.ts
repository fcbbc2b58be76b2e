import type { TCarePatient, TCarePlan } from '@greensen/shared/contracts/care';
import { GRACE_MINUTES } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import type { carePlans } from '../../db/schema/index.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { conflict, notFound } from '../../lib/errors.js';
import {
  covers,
  type HospitalClock,
  hospitalClock,
  memberScope,
  requireDepartment,
  shiftInfo,
  shiftOf,
} from './care.context.js';
import { carePatientOf, findPlan, type PlanRow, planCounts, planIdFor } from './care.repository.js';
import { planDoses } from './mar.lines.js';
import {
  type CareTargetFilters,
  careTargets,
  insertPlanUnlessExists,
  planIdOfTarget,
  stayTarget,
  updatePlan,
  userName,
  visitTarget,
} from './plans.repository.js';
import { latestVitals, news2SummaryOf } from './vital-signs.repository.js';

const HOUR = 3_600_000;

/**
 * Care plans (issue 20, decision 0025): the care list, opening and reading a plan. A plan belongs to a stay or to
 * an emergency visit; the caller must work in its department (else 403), another hospital's is 404. Its orders are
 * in orders.service.ts, their executions in executions.service.ts.
 */
export class CareService {
  constructor(private readonly app: FastifyInstance) {}

  now(): Date {
    return this.app.jobs.now();
  }

  async clock(ctx: ServiceContext, q: Queryable = this.app.db): Promise<HospitalClock> {
    return hospitalClock(q, scopedHospital(ctx).id);
  }

  /** The hospital's zone and shift times, kept per instance until they change (plugins/clock-cache.ts). */
  async clockOf(hospitalId: string): Promise<HospitalClock> {
    const cache = this.app.clockCache;
    const kept = cache.lookup(hospitalId, '');
    if (kept) return kept;
    const ticket = cache.ticket();
    const clock = await hospitalClock(this.app.db, hospitalId);
    cache.keep(ticket, hospitalId, '', clock);
    return clock;
  }

  async shift(ctx: ServiceContext) {
    return shiftInfo(await this.clock(ctx), this.now());
  }

  /** The plan (404 when not in the hospital, 403 when not in the caller's departments). */
  async plan(ctx: ServiceContext, planId: string, q: Queryable = this.app.db): Promise<PlanRow> {
    const hospital = scopedHospital(ctx);
    const row = await findPlan(q, hospital.id, planId);
    if (!row) throw notFound();
    requireDepartment(await memberScope(q, hospital.id, actingUser(ctx).id), row.d_id);
    return row;
  }

  // Patients and plans -----------------------------------------------------------------------------------

  /** Open stays and emergency visits of the caller's departments, with their plan (the /care list). */
  async patients(ctx: ServiceContext, filters: CareTargetFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const rows = await this.targets(this.app.db, hospital.id, me, filters, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.patients',
      resourceType: 'care_plan',
      details: { filters: { ...filters }, page, results: rows.rows.length },
    });
    return rows;
  }

  /**
   * The care targets: open stays (with a plan or not) and open emergency visits (with a plan or not), in the
   * departments `userId` works in. Both sides are read by their own indexes, then merged.
   */
  async targets(
    q: Queryable,
    hospitalId: string,
    userId: string,
    filters: CareTargetFilters,
    limit: number,
    offset: number,
  ): Promise<{ rows: TCarePatient[]; count: number }> {
    const { rows, count } = await careTargets(q, hospitalId, userId, filters, limit, offset);
    const now = this.now();
    const clock = await this.clockOf(hospitalId);
    const counts = await countsOf(
      q,
      rows.flatMap((r) => (r.plan_id ? [r.plan_id] : [])),
      clock,
      now,
    );
    const vitals = await latestVitals(
      q,
      hospitalId,
      rows.map((r) => r.p_id),
    );
    return {
      count,
      rows: rows.map((r) =>
        carePatientOf(r, r.plan_id ? counts.get(r.plan_id) : undefined, news2SummaryOf(vitals.get(r.p_id))),
      ),
    };
  }

  /** Opens the plan of a stay or emergency visit; the existing one when there is (created: false). */
  async ensurePlan(
    ctx: ServiceContext,
    target: { hospitalization?: string | null; admission?: string | null },
    extra: { hypercapnic?: boolean | undefined; goals?: string | null | undefined } = {},
  ): Promise<{ id: string; created: boolean }> {
    return this.app.db.transaction((tx) => this.ensurePlanIn(tx, ctx, target, extra));
  }

  async ensurePlanIn(
    tx: Tx,
    ctx: ServiceContext,
    target: { hospitalization?: string | null | undefined; admission?: string | null | undefined },
    extra: { hypercapnic?: boolean | undefined; goals?: string | null | undefined } = {},
  ): Promise<{ id: string; created: boolean }> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const found = target.hospitalization
      ? await stayTarget(tx, hospital.id, target.hospitalization)
      : await visitTarget(tx, hospital.id, target.admission ?? null);
    if (!found) throw notFound();
    requireDepartment(await memberScope(tx, hospital.id, me), found.department_id);
    const existing = await planIdOfTarget(tx, target);
    if (existing) return { id: existing, created: false };
    if (!found.open) throw conflict('care.target_closed');
    const inserted = await insertPlanUnlessExists(tx, {
      hospitalId: hospital.id,
      patientId: found.patient_id,
      hospitalizationId: target.hospitalization ?? null,
      admissionId: target.hospitalization ? null : (target.admission ?? null),
      hypercapnic: extra.hypercapnic ?? false,
      goals: extra.goals ?? null,
      createdBy: me,
    });
    if (inserted) {
      await this.app.audit.record(
        ctx,
        {
          action: 'care.plan_create',
          resourceType: 'care_plan',
          resourceId: inserted,
          patientId: found.patient_id,
          details: { hospitalization: target.hospitalization ?? null, admission: target.admission ?? null },
        },
        tx,
      );
      return { id: inserted, created: true };
    }
    // Opened by someone else at the same instant.
    const again = await planIdOfTarget(tx, target);
    return { id: again!, created: false };
  }

  async detail(ctx: ServiceContext, planId: string, q: Queryable = this.app.db): Promise<TCarePlan> {
    const row = await this.plan(ctx, planId, q);
    const now = this.now();
    const clock = await this.clock(ctx, q);
    const counts = await countsOf(q, [planId], clock, now);
    const creator = await userName(q, row.created_by);
    const vitals = await latestVitals(q, row.hospital_id, [row.p_id]);
    const base = carePatientOf(row, counts.get(planId), news2SummaryOf(vitals.get(row.p_id)));
    const open = Boolean(row.is_open);
    return {
      ...base,
      plan: planId,
      id: planId,
      status: open ? 'active' : 'closed',
      goals: row.goals,
      created_by: {
        id: row.created_by,
        full_name: fullName(creator?.first_name, creator?.last_name),
      },
      created_at: isoRequired(row.created_at),
      can: {
        order: open && mayAct(ctx, 'care.write'),
        record: open && mayAct(ctx, 'care.write'),
        assign: open && mayAct(ctx, 'care.write'),
        edit: open && mayAct(ctx, 'care.write'),
      },
    };
  }

  /**
   * A plan by its id, or the plan of a stay or visit by the stay's or visit's id (`/care/{stay id}` finds the
   * stay's care file, issue 37): the answer's `id` is the plan's.
   */
  async read(ctx: ServiceContext, id: string) {
    const planId = (await planIdFor(this.app.db, scopedHospital(ctx).id, id)) ?? id;
    const plan = await this.detail(ctx, planId);
    await this.app.audit.record(ctx, {
      action: 'care.plan_read',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.patient.id,
    });
    return plan;
  }

  async update(ctx: ServiceContext, planId: string, body: { hypercapnic?: boolean; goals?: string | null }) {
    await this.app.db.transaction(async (tx) => {
      const row = await this.plan(ctx, planId, tx);
      if (!row.is_open) throw conflict('care.plan_closed');
      const set: Partial<typeof carePlans.$inferInsert> = { updatedAt: new Date() };
      if (body.hypercapnic !== undefined) set.hypercapnic = body.hypercapnic;
      if (body.goals !== undefined) set.goals = body.goals;
      await updatePlan(tx, planId, set);
      await this.app.audit.record(
        ctx,
        {
          action: 'care.plan_update',
          resourceType: 'care_plan',
          resourceId: planId,
          patientId: row.p_id,
          details: { fields: Object.keys(body), hypercapnic: body.hypercapnic ?? null },
        },
        tx,
      );
    });
    return this.detail(ctx, planId);
  }

  /** Whether the caller works in a department (for services sharing the rule). */
  async covers(ctx: ServiceContext, departmentId: string) {
    return covers(await memberScope(this.app.db, scopedHospital(ctx).id, actingUser(ctx).id), departmentId);
  }
}

/**
 * The open work of plans: executions (planCounts) and doses — overdue ones of the last day,
 * due ones of the shift.
 */
async function countsOf(q: Queryable, planIds: string[], clock: HospitalClock, now: Date) {
  const shift = shiftOf(clock, now);
  // One after the other: `q` may be a transaction's one connection.
  const counts = await planCounts(q, planIds, now, shift.end, GRACE_MINUTES);
  const { lines, doses } = await planDoses(
    q,
    planIds,
    new Date(shift.start.getTime() - 24 * HOUR),
    shift.end,
    now,
    clock.timeZone,
  );
  for (const l of lines) {
    const c = counts.get(l.plan_id);
    if (!c) continue;
    for (const d of doses.get(l.id) ?? []) {
      if (d.status === 'overdue') c.overdue += 1;
      else if (d.status === 'due') c.due += 1;
    }
  }
  return counts;
}
