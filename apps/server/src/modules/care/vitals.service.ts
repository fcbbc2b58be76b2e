import type {
  TCareVitals,
  TChart,
  TFluid,
  TRoundCreate,
  TRoundPatient,
  TVitalsCreate,
  TVitalsRecord,
} from '@greensen/shared/contracts/care';
import { ZCareVitals } from '@greensen/shared/contracts/care';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import { news2Applies } from '@greensen/shared/domain/news2';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { departmentHeads } from '../hospitalizations/hospitalizations.repository.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { hospitalClock, shiftDto, shiftOf } from './care.context.js';
import { type PlanRow, vitalsByIds, vitalsByKeys } from './care.repository.js';
import type { CareService } from './care.service.js';
import type { ExecutionsService } from './executions.service.js';
import {
  dueVitalsExecutions,
  latestVitals,
  news2Of,
  toSeriesVitals,
  vitalsSeries,
} from './vital-signs.repository.js';
import {
  fluidById,
  fluidTotalsByDay,
  insertFluid,
  insertVitalsUnlessKept,
  isVitalsTaskOfPlan,
  planVitalsPage,
} from './vitals.repository.js';

const HOUR = 3_600_000;

/** A set's client key was kept by a parallel request while this one ran. */
class KeyTaken extends Error {}

/**
 * Ward vital signs (issue 20, decision 0025): a set per patient with its NEWS2 (adults), a round for a whole
 * ward in one request, intake/output, and the temperature chart's series.
 */
export class VitalsService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
    private readonly executions: ExecutionsService,
  ) {}

  /** The patients of a ward (or the caller's departments) with their latest set and the vitals task due. */
  async round(ctx: ServiceContext, f: { department?: string | undefined; ward?: string | undefined }) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const clock = await hospitalClock(this.app.db, hospital.id);
    const { rows } = await this.care.targets(this.app.db, hospital.id, me, { ...f, kind: 'all' }, 100, 0);
    const planIds = rows.flatMap((r) => (r.plan ? [r.plan] : []));
    const latest = await latestVitals(
      this.app.db,
      hospital.id,
      rows.map((r) => r.patient.id),
    );
    const due = await dueVitalsExecutions(this.app.db, planIds, shiftOf(clock, now).end);
    await this.app.audit.record(ctx, {
      action: 'care.round_read',
      resourceType: 'care_plan',
      details: { filters: { ...f }, results: rows.length },
    });
    const results: TRoundPatient[] = rows.map((r) => ({
      ...r,
      news2_applies: news2Applies(r.patient.age),
      latest: latest.has(r.patient.id) ? toSeriesVitals(latest.get(r.patient.id)!) : null,
      due_execution: r.plan ? (due.get(r.plan) ?? null) : null,
    }));
    return { shift: shiftDto(clock, shiftOf(clock, now)), results };
  }

  /**
   * Every set of the round in one transaction: all saved (each with its NEWS2 and escalation), or none. A set
   * whose client key is already kept (issue 40: a round queued offline, sent again) is answered, not saved again.
   */
  async recordRound(ctx: ServiceContext, body: TRoundCreate) {
    const now = this.care.now();
    const recordedAt = this.checkTime(body.recorded_at, now, 'recorded_at');
    const hospital = scopedHospital(ctx);
    const ids = await this.onceByKey(() =>
      withNotifications(this.app, async (tx, notify) => {
        const out: string[] = [];
        const seen = new Set<string>();
        const kept = await vitalsByKeys(
          tx,
          hospital.id,
          body.entries.flatMap((e) => (e.idempotency_key ? [e.idempotency_key] : [])),
        );
        for (const [i, entry] of body.entries.entries()) {
          const key = entry.hospitalization ?? entry.admission ?? '';
          if (seen.has(key)) throw badRequest({ [`entries.${i}`]: ['care.round_duplicate'] });
          seen.add(key);
          const plan = await this.care.ensurePlanIn(tx, ctx, {
            hospitalization: entry.hospitalization,
            admission: entry.admission,
          });
          const first = entry.idempotency_key ? kept.get(entry.idempotency_key) : undefined;
          if (first) {
            if (first.plan_id !== plan.id) throw conflict('care.key_reused');
            out.push(first.id);
            continue;
          }
          const row = await this.care.plan(ctx, plan.id, tx);
          out.push(
            await this.insertSet(tx, ctx, notify, row, ZCareVitals.parse(entry.vitals), recordedAt, {
              executionId: entry.execution,
              key: entry.idempotency_key,
            }),
          );
        }
        return out;
      }),
    );
    const byId = new Map((await vitalsByIds(this.app.db, ids)).map((v) => [v.id, v]));
    return { results: ids.map((id) => byId.get(id)!) };
  }

  async recordOne(ctx: ServiceContext, planId: string, body: TVitalsCreate): Promise<TVitalsRecord> {
    const now = this.care.now();
    const recordedAt = this.checkTime(body.recorded_at, now, 'recorded_at');
    const hospital = scopedHospital(ctx);
    const id = await this.onceByKey(() =>
      withNotifications(this.app, async (tx, notify) => {
        const row = await this.care.plan(ctx, planId, tx);
        if (body.idempotency_key) {
          const first = (await vitalsByKeys(tx, hospital.id, [body.idempotency_key])).get(
            body.idempotency_key,
          );
          if (first && first.plan_id !== planId) throw conflict('care.key_reused');
          if (first) return first.id;
        }
        return this.insertSet(tx, ctx, notify, row, ZCareVitals.parse(body.vitals), recordedAt, {
          executionId: body.execution,
          key: body.idempotency_key,
        });
      }),
    );
    return (await vitalsByIds(this.app.db, [id]))[0]!;
  }

  /**
   * Runs `work` once more when a set's key was committed by a parallel request meanwhile (the unique index
   * decided): the second run finds the first request's sets and answers them.
   */
  private async onceByKey<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof KeyTaken) return work();
      throw err;
    }
  }

  private checkTime(value: string | null | undefined, now: Date, field: string): Date {
    const at = value ? new Date(value) : now;
    if (at.getTime() > now.getTime() + 60_000 || at.getTime() < now.getTime() - 24 * HOUR)
      throw badRequest({ [field]: ['care.time_range'] });
    return at;
  }

  /**
   * One set: NEWS2 for an adult (scale 2 when the plan says hypercapnic); at an escalation (aggregate ≥ 5 or a
   * parameter at 3: urgent; ≥ 7: emergency) the doctor in charge is notified at once (else the department's
   * head, else the head doctors). The vitals execution it answers is done by the recorder. FHIR's Observation
   * create (an instrument's result) records its set through this too, in its own transaction.
   */
  async insertSet(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    plan: PlanRow,
    v: TCareVitals & { on_oxygen: boolean },
    recordedAt: Date,
    opts: { executionId: string | null | undefined; key: string | null | undefined },
  ): Promise<string> {
    const { executionId } = opts;
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    if (!plan.is_open) throw conflict('care.plan_closed');
    const news2 = news2Of(v, plan.p_birth_date, Boolean(plan.hypercapnic));
    let escalatedTo: string[] = [];
    if (news2 && news2.escalation !== 'none') {
      escalatedTo = plan.doc_id ? [plan.doc_id] : await departmentHeads(tx, hospital.id, plan.d_id);
      escalatedTo = escalatedTo.filter((u) => u !== me);
    }
    if (executionId) {
      if (!(await isVitalsTaskOfPlan(tx, executionId, plan.plan_id)))
        throw badRequest({ execution: ['care.execution_unknown'] });
    }
    const id = await insertVitalsUnlessKept(tx, {
      hospitalId: hospital.id,
      planId: plan.plan_id,
      patientId: plan.p_id,
      recordedAt,
      recordedBy: me,
      temperature: v.temperature ?? null,
      heartRate: v.heart_rate ?? null,
      respiratoryRate: v.respiratory_rate ?? null,
      systolicBp: v.systolic_bp ?? null,
      diastolicBp: v.diastolic_bp ?? null,
      spo2: v.spo2 ?? null,
      onOxygen: v.on_oxygen,
      oxygenFlow: v.oxygen_flow ?? null,
      avpu: v.avpu ?? null,
      confused: v.confused ?? null,
      pain: v.pain ?? null,
      weight: v.weight ?? null,
      height: v.height ?? null,
      glycaemia: v.glycaemia ?? null,
      note: v.note ?? null,
      news2Score: news2?.score ?? null,
      news2: news2 ? { ...news2 } : null,
      escalatedTo,
      executionId: executionId ?? null,
      idempotencyKey: opts.key ?? null,
    });
    // The key committed by a parallel request: this transaction is rolled back and the round answered again.
    if (!id) throw new KeyTaken();
    if (executionId)
      await this.executions.record(
        ctx,
        executionId,
        { outcome: 'done', done_at: recordedAt.toISOString(), note: null },
        tx,
        true,
      );
    await this.app.audit.record(
      ctx,
      {
        action: 'care.vitals_record',
        resourceType: 'care_vitals',
        resourceId: id,
        patientId: plan.p_id,
        details: { plan: plan.plan_id, news2: news2?.score ?? null, escalation: news2?.escalation ?? null },
      },
      tx,
    );
    if (news2 && escalatedTo.length > 0) {
      const params = {
        patient: fullName(plan.p_first_name, plan.p_last_name),
        score: news2.score,
        place: plan.b_label ? `${plan.w_name ?? ''} ${plan.b_label}`.trim() : plan.d_name,
      };
      const level = news2.escalation === 'emergency' ? 'emergency' : 'urgent';
      await notify({
        hospitalId: hospital.id,
        recipients: escalatedTo,
        type: plan.hospitalization_id ? 'hospitalization' : 'consultation',
        title: { key: `care.notify.news2_${level}.title`, params },
        message: { key: `care.notify.news2_${level}.message`, params },
        data: {
          action: 'news2_alert',
          escalation: news2.escalation,
          score: news2.score,
          plan_id: plan.plan_id,
          patient_id: plan.p_id,
          vitals_id: id,
          ...(plan.hospitalization_id ? { hospitalization: plan.hospitalization_id } : {}),
          ...(plan.admission_id ? { admission_id: plan.admission_id } : {}),
        },
        initiatedBy: me,
      });
    }
    return id;
  }

  async list(ctx: ServiceContext, planId: string, page: number, pageSize: number) {
    const plan = await this.care.plan(ctx, planId);
    const result = await planVitalsPage(this.app.db, planId, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'care.vitals_list',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.p_id,
      details: { page },
    });
    return result;
  }

  async addFluid(
    ctx: ServiceContext,
    planId: string,
    body: {
      direction: TFluid['direction'];
      kind: TFluid['kind'];
      volume_ml: number;
      recorded_at?: string | null | undefined;
      note?: string | null | undefined;
    },
  ): Promise<TFluid> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const recordedAt = this.checkTime(body.recorded_at, this.care.now(), 'recorded_at');
    const id = await this.app.db.transaction(async (tx) => {
      const plan = await this.care.plan(ctx, planId, tx);
      if (!plan.is_open) throw conflict('care.plan_closed');
      const id = await insertFluid(tx, {
        hospitalId: hospital.id,
        planId,
        direction: body.direction,
        kind: body.kind,
        volumeMl: body.volume_ml,
        recordedAt,
        recordedBy: me,
        note: body.note ?? null,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'care.fluid_record',
          resourceType: 'care_fluid',
          resourceId: id,
          patientId: plan.p_id,
          details: { plan: planId, direction: body.direction, volume_ml: body.volume_ml },
        },
        tx,
      );
      return id;
    });
    return fluidById(this.app.db, id);
  }

  /** The temperature chart of `days` days from `from` (default: the last `days` days up to today). */
  async chart(
    ctx: ServiceContext,
    planId: string,
    q: { from?: string | undefined; days: number },
  ): Promise<TChart> {
    const plan = await this.care.plan(ctx, planId);
    const clock = await hospitalClock(this.app.db, scopedHospital(ctx).id);
    const today = zonedDate(this.care.now(), clock.timeZone);
    const since = zonedDate(new Date(plan.since), clock.timeZone);
    const fromDay = q.from ?? (addDays(today, 1 - q.days) < since ? since : addDays(today, 1 - q.days));
    const toDay = addDays(fromDay, q.days - 1);
    const start = zonedInstant(fromDay, '00:00', clock.timeZone);
    const end = zonedInstant(addDays(toDay, 1), '00:00', clock.timeZone);
    // The patient's one series: the triage and consultation sets of the period are on the chart too.
    const vitals = await vitalsSeries(this.app.db, scopedHospital(ctx).id, plan.p_id, start, end, 2000);
    const fluids = await fluidTotalsByDay(this.app.db, planId, start, end, clock.timeZone);
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const points = vitals.map((r) => ({
      at: new Date(r.recorded_at as string).toISOString(),
      temperature: num(r.temperature),
      heart_rate: num(r.heart_rate),
      systolic_bp: num(r.systolic_bp),
      diastolic_bp: num(r.diastolic_bp),
      respiratory_rate: num(r.respiratory_rate),
      spo2: num(r.spo2),
      pain: num(r.pain),
      weight: num(r.weight),
      height: num(r.height),
      news2: num(r.news2_score),
      source: r.source,
    }));
    const days: TChart['days'] = [];
    for (let d = fromDay; d <= toDay; d = addDays(d, 1)) {
      const intake = Number(fluids.find((r) => r.day === d && r.direction === 'intake')?.total ?? 0);
      const output = Number(fluids.find((r) => r.day === d && r.direction === 'output')?.total ?? 0);
      const weights = points.filter(
        (p) => p.weight !== null && zonedDate(new Date(p.at), clock.timeZone) === d,
      );
      days.push({
        date: d,
        intake_ml: intake,
        output_ml: output,
        balance_ml: intake - output,
        weight: weights.at(-1)?.weight ?? null,
      });
    }
    await this.app.audit.record(ctx, {
      action: 'care.chart_read',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.p_id,
      details: { from: fromDay, days: q.days },
    });
    return { plan: planId, from: fromDay, to: toDay, since, time_zone: clock.timeZone, points, days };
  }
}
