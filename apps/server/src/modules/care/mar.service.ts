import type { TDoseRecord } from '@greensen/shared/contracts/care';
import type {
  TAdministrationCreateSafe,
  TDoseRecordSafe,
  TMarSafe,
  TSafetyAlert,
  TStatDoseCreate,
} from '@greensen/shared/contracts/medication-safety';
import { isLate } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { AdministrationSafety } from '../medication-safety/administration.service.js';
import { timingOf } from '../medication-safety/safety.rules.js';
import { MedicationSafetyService } from '../medication-safety/safety.service.js';
import { hospitalClock, shiftOf } from './care.context.js';
import type { CareService } from './care.service.js';
import { HOUR, lineDoseTimes, lineOf, parseFrequency, planDoses } from './mar.lines.js';
import {
  doseById,
  doseByKey,
  dosesGivenInDayTo,
  insertDoseUnlessRecorded,
  latestStayOfVisit,
  planLines,
  setFirstDose,
  signedLineOrigin,
} from './mar.repository.js';
/** The medication administration record (issue 20): doses due per window, given once, idempotent writes. */
export class MarService {
  private readonly safety: AdministrationSafety;
  constructor(
    private readonly app: FastifyInstance,
    private readonly care: CareService,
  ) {
    this.safety = new AdministrationSafety(new MedicationSafetyService(app));
  }

  async mar(ctx: ServiceContext, planId: string, w: { from?: string | undefined; to?: string | undefined }) {
    const plan = await this.care.plan(ctx, planId);
    const now = this.care.now();
    const clock = await this.care.clockOf(scopedHospital(ctx).id);
    const shift = shiftOf(clock, now);
    const from = w.from ? new Date(w.from) : shift.start;
    const to = w.to ? new Date(w.to) : shift.end;
    if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > 7 * 24 * HOUR)
      throw badRequest({ to: ['care.window_invalid'] });
    const { lines, doses } = await planDoses(this.app.db, [planId], from, to, now, clock.timeZone);
    await this.app.audit.record(ctx, {
      action: 'care.mar_read',
      resourceType: 'care_plan',
      resourceId: planId,
      patientId: plan.p_id,
      details: { from: from.toISOString(), to: to.toISOString() },
    });
    // The five rights (issue 34): the patient, each line's alerts with the prescriber's reasons, the timing.
    const view = await this.safety.marView(
      this.app.db,
      ctx,
      plan.p_id,
      lines.map((l) => l.prescription_id),
    );
    const result: TMarSafe = {
      plan: planId,
      from: from.toISOString(),
      to: to.toISOString(),
      ...(view.patient ? { patient: view.patient } : {}),
      lines: lines.map((l) => ({
        ...lineOf(l),
        doses: (doses.get(l.id) ?? []).map((d) => ({ ...d, record: d.record ? withTiming(d.record) : null })),
        alerts: view.alerts.get(l.id) ?? [],
        first_dose_at: l.first_dose_at ? new Date(l.first_dose_at).toISOString() : null,
      })),
    };
    return result;
  }

  /**
   * Records a dose once. A submit repeated with the same key returns the first record (`created: false`), even
   * when both arrive at the same instant (the unique key decides); another key for a dose already recorded is
   * a 409. The dose must be one the line schedules (an as-needed line: any time, within its daily maximum).
   */
  async administer(
    ctx: ServiceContext,
    body: TAdministrationCreateSafe,
    opts: { stat?: boolean } = {},
  ): Promise<{ dose: TDoseRecordSafe; created: boolean }> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const now = this.care.now();
    const replay = (found: { hospitalId: string; dose: TDoseRecord }) => {
      if (
        found.hospitalId !== hospital.id ||
        found.dose.prescription_line !== body.prescription_line ||
        (!opts.stat && found.dose.scheduled_at !== new Date(body.scheduled_at).toISOString())
      )
        throw conflict('care.key_reused');
      return { dose: withTiming(found.dose), created: false };
    };
    const first = await doseByKey(this.app.db, body.idempotency_key);
    if (first) return replay(first);
    const scheduledAt = new Date(body.scheduled_at);
    let alerts: TSafetyAlert[] = [];
    const outcome = await this.app.db.transaction(async (tx) => {
      const origin = await signedLineOrigin(tx, hospital.id, body.prescription_line);
      if (!origin) throw notFound();
      // A line the pharmacy refused to dispense is not given at the bedside (issue 34).
      if (origin.refused) throw conflict('care.line_refused');
      const planId = await this.planOf(tx, ctx, origin);
      const plan = await this.care.plan(ctx, planId, tx);
      if (!plan.is_open) throw conflict('care.plan_closed');
      const [line] = (await planLines(tx, [planId])).filter((l) => l.id === body.prescription_line);
      if (!line) throw notFound();
      const frequency = parseFrequency(line.frequency);
      const clock = await hospitalClock(tx, hospital.id);
      if (opts.stat) {
        // A first dose now: the line's schedule restarts from it (refused once a dose was given, or twice).
        if (frequency.kind === 'as_needed') throw badRequest({ prescription_line: ['care.stat_as_needed'] });
        if (!(await setFirstDose(tx, line.id, scheduledAt))) {
          // The same submit, committed meanwhile (a double tap): replayed below; else a first dose exists.
          if (await doseByKey(tx, body.idempotency_key)) return null;
          throw conflict('care.stat_not_first');
        }
        line.first_dose_at = scheduledAt;
      }
      if (frequency.kind === 'as_needed') {
        if (body.outcome === 'given')
          await this.checkAsNeeded(tx, line.id, frequency.max_per_day, scheduledAt);
      } else {
        const window = lineDoseTimes(
          line,
          new Date(scheduledAt.getTime() - 60_000),
          new Date(scheduledAt.getTime() + 60_000),
          clock.timeZone,
        );
        if (!window.some((t) => t.getTime() === scheduledAt.getTime()))
          throw badRequest({ scheduled_at: ['care.dose_unknown'] });
      }
      if (scheduledAt.getTime() > now.getTime() + 12 * HOUR)
        throw badRequest({ scheduled_at: ['care.dose_future'] });
      const givenAt = body.outcome === 'given' ? (body.given_at ? new Date(body.given_at) : now) : null;
      if (
        givenAt &&
        (givenAt.getTime() > now.getTime() + 60_000 || givenAt.getTime() < now.getTime() - 24 * HOUR)
      )
        throw badRequest({ given_at: ['care.time_range'] });
      if (givenAt && body.outcome === 'given')
        // Issue 34: allergies, dose and pregnancy checked with the dose given; 409 without the nurse's reason.
        ({ alerts } = await this.safety.checkDose(tx, ctx, {
          prescriptionId: origin.prescription_id,
          lineId: line.id,
          patientId: plan.p_id,
          dose: body.dose,
          doseUnit: body.dose_unit,
          route: body.route,
          scheduledAt,
          givenAt,
          overrides: body.overrides,
        }));
      const inserted = await insertDoseUnlessRecorded(tx, {
        hospitalId: hospital.id,
        planId,
        patientId: plan.p_id,
        prescriptionLineId: line.id,
        scheduledAt,
        outcome: body.outcome,
        givenAt,
        dose: body.outcome === 'given' ? body.dose : null,
        doseUnit: body.outcome === 'given' ? body.dose_unit : null,
        route: body.outcome === 'given' ? body.route : null,
        site: body.outcome === 'given' ? (body.site ?? null) : null,
        reason: body.outcome === 'not_given' ? body.reason : null,
        note: body.note ?? null,
        late: givenAt !== null && frequency.kind !== 'as_needed' && isLate(scheduledAt, givenAt, now),
        idempotencyKey: body.idempotency_key,
        recordedBy: me,
        recordedAt: now,
      });
      if (!inserted) return null;
      await this.app.audit.record(
        ctx,
        {
          action: body.outcome === 'given' ? 'care.dose_given' : 'care.dose_not_given',
          resourceType: 'medication_administration',
          resourceId: inserted,
          patientId: plan.p_id,
          details: {
            line: line.id,
            scheduled_at: scheduledAt.toISOString(),
            ...(body.outcome === 'not_given' ? { reason: body.reason } : {}),
          },
        },
        tx,
      );
      return inserted;
    });
    if (outcome) {
      const dose = await doseById(this.app.db, outcome);
      return { dose: { ...withTiming(dose), alerts }, created: true };
    }
    // The same key committed meanwhile (a double tap), or another record of this dose.
    const again = await doseByKey(this.app.db, body.idempotency_key);
    if (again) return replay(again);
    throw conflict('care.dose_already_recorded');
  }

  /**
   * A first dose given now ("stat", issue 34) for a line whose first scheduled dose is later: recorded at this
   * minute, and the line's later doses follow from it by its frequency. Once per line, before any dose given.
   */
  async stat(ctx: ServiceContext, body: TStatDoseCreate) {
    const now = this.care.now();
    const at = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    return this.administer(
      ctx,
      {
        outcome: 'given',
        prescription_line: body.prescription_line,
        scheduled_at: at.toISOString(),
        idempotency_key: body.idempotency_key,
        given_at: now.toISOString(),
        dose: body.dose,
        dose_unit: body.dose_unit,
        route: body.route,
        site: body.site ?? null,
        note: body.note ?? null,
        overrides: body.overrides,
      },
      { stat: true },
    );
  }

  private async checkAsNeeded(q: Queryable, lineId: string, maxPerDay: number, at: Date) {
    if ((await dosesGivenInDayTo(q, lineId, at)) >= maxPerDay) throw conflict('care.as_needed_max');
  }

  /** The plan a prescription belongs to (opened when none exists yet). */
  private async planOf(
    tx: Tx,
    ctx: ServiceContext,
    origin: { hospitalization_id: string | null; admission_id: string | null },
  ): Promise<string> {
    let stay = origin.hospitalization_id;
    if (!stay && origin.admission_id) {
      stay = await latestStayOfVisit(tx, origin.admission_id);
    }
    const plan = await this.care.ensurePlanIn(
      tx,
      ctx,
      stay ? { hospitalization: stay } : { admission: origin.admission_id },
    );
    return plan.id;
  }
}

/** A record with where it was given against its time (issue 34: beyond the window, early or late). */
export function withTiming(record: TDoseRecord): TDoseRecordSafe {
  if (record.outcome !== 'given' || !record.given_at) return { ...record, minutes_off: null };
  const t = timingOf(new Date(record.scheduled_at), new Date(record.given_at));
  return { ...record, timing: t.timing, minutes_off: t.minutesOff };
}
