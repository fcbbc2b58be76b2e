import type { BedGuardrail, TBedCheck, TBoardBed } from '@greensen/shared/contracts/hospitalizations';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { ageOf, fullName } from '../../lib/clinical.js';
import { mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  bedForStay,
  insertBedAssignment,
  type LockedBed,
  lockBedForStay,
  markBedOccupied,
  roomNeighbourSexes,
  setBedHousekeeping,
} from './beds.repository.js';
import {
  findStayForPlacement,
  type LockedStay,
  lockStay,
  patientName,
  placeStayInBed,
  wardNurses,
} from './hospitalizations.repository.js';
import type { HospitalizationService } from './hospitalizations.service.js';
import { leaveBed, stayIsOpen, tellStaff } from './stay-rules.js';

/**
 * Beds of inpatient stays (issues 17 and 37): a stay is put in a bed or moved to another (checked against the
 * placement guardrails), housekeeping turns a freed bed to free; the transfer service moves a stay through here.
 */
export class BedService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly stays: HospitalizationService,
  ) {}

  /**
   * Puts a stay in a bed, or moves it to another one (the previous bed goes to cleaning). The bed row is locked
   * first, so that of two nurses assigning one bed the second sees it occupied (409); the partial unique
   * indexes of `bed_assignments` and `hospitalizations` hold it even without the lock.
   */
  async assignBed(ctx: ServiceContext, id: string, bedId: string, overrideReason?: string | null) {
    const hospital = scopedHospital(ctx);
    await withNotifications(this.app, async (tx, notify) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!stayIsOpen(stay.status)) throw conflict('hospitalizations.closed');
      const bed = await this.placeIn(tx, ctx, stay, bedId, null, overrideReason ?? null);
      await this.app.audit.record(
        ctx,
        {
          action: stay.bed_id ? 'hospitalization.bed_move' : 'hospitalization.bed_assign',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: {
            bed: bedId,
            from: stay.bed_id,
            ...(bed.overridden.length > 0
              ? { overridden: bed.overridden, override_reason: overrideReason ?? null }
              : {}),
          },
        },
        tx,
      );
      await this.tellBed(tx, ctx, notify, stay, bed);
    });
    return this.stays.detail(ctx, id);
  }

  /**
   * What placing the stay's patient in `bedId` would break (the bed board asks before every placement, issue 37),
   * in the caller's language, and whether the caller may override. Reads only.
   */
  async checkBed(ctx: ServiceContext, id: string, bedId: string): Promise<TBedCheck> {
    const hospital = scopedHospital(ctx);
    const stay = await findStayForPlacement(this.app.db, hospital.id, id);
    if (!stay) throw notFound();
    const bed = await bedForStay(this.app.db, hospital.id, bedId);
    if (!bed?.usable) throw badRequest({ bed: ['hospitalizations.bed_unknown'] });
    const broken = await this.guardrailsOf(this.app.db, stay, bed, null);
    await this.app.audit.record(ctx, {
      action: 'hospitalization.bed_check',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: stay.patient_id,
      details: { bed: bedId, guardrails: broken.map((g) => g.code) },
    });
    return {
      bed: bedId,
      guardrails: broken.map((g) => ({ code: g.code, message: translate(ctx.lang, g.key, g.params) })),
      may_override: this.mayOverride(ctx),
    };
  }

  private mayOverride(ctx: ServiceContext) {
    return mayAct(ctx, 'hospitalization.bed_override');
  }

  /**
   * The placement guardrails (issue 37, decision 0069), the one place they are decided: the ward's sex and ages,
   * the bed in the stay's department (or the transfer's), and no patient of the other sex in the room.
   */
  private async guardrailsOf(
    q: Queryable,
    stay: Pick<LockedStay, 'id' | 'department_id' | 'patient_sex' | 'patient_birth_date'>,
    bed: LockedBed,
    within: { department?: string; ward?: string } | null,
  ): Promise<{ code: BedGuardrail; key: string; params: Record<string, string | number> }[]> {
    const out: { code: BedGuardrail; key: string; params: Record<string, string | number> }[] = [];
    if (bed.sex_restriction && bed.sex_restriction !== stay.patient_sex)
      out.push({
        code: 'ward_sex',
        key: `hospitalizations.guardrail.ward_sex_${bed.sex_restriction}`,
        params: { ward: bed.ward_name },
      });
    const age = ageOf(stay.patient_birth_date);
    if (
      age !== null &&
      ((bed.min_age !== null && age < bed.min_age) || (bed.max_age !== null && age > bed.max_age))
    )
      out.push({
        code: 'ward_age',
        key: 'hospitalizations.guardrail.ward_age',
        params: { ward: bed.ward_name, age, min: bed.min_age ?? 0, max: bed.max_age ?? 120 },
      });
    // A transfer's bed is checked against its destination by `within` (placeIn).
    if (!within && bed.department_id !== stay.department_id)
      out.push({
        code: 'ward_department',
        key: 'hospitalizations.guardrail.ward_department',
        params: { ward: bed.ward_name, department: bed.department_name },
      });
    const neighbours = await roomNeighbourSexes(q, bed.room_id, stay.id);
    if (neighbours.some((sex) => sex !== stay.patient_sex))
      out.push({ code: 'room_mixed_sex', key: 'hospitalizations.guardrail.room_mixed_sex', params: {} });
    return out;
  }

  /** Tells the ward's nurses and the doctor in charge that a patient has a bed. */
  private async tellBed(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    stay: LockedStay,
    bed: { label: string; department_id: string; ward_name: string },
  ) {
    const hospital = scopedHospital(ctx);
    const p = await patientName(tx, stay.patient_id);
    const name = fullName(p?.first, p?.last);
    await tellStaff(ctx, notify, {
      recipients: [...(await wardNurses(tx, hospital.id, bed.department_id)), stay.doctor_id],
      type: 'bed_assignment',
      title: { fr: 'Lit attribué', en: 'Bed assigned' },
      message: {
        fr: `${name} : lit ${bed.label}, ${bed.ward_name}.`,
        en: `${name}: bed ${bed.label}, ${bed.ward_name}.`,
      },
      data: { action: 'bed_assigned', hospitalization: stay.id, patient: stay.patient_id, bed: bed.label },
    });
  }

  /**
   * The move itself, in the caller's transaction: checks the bed (free, usable, within `within` when given), its
   * guardrails (refused with them listed unless a charge nurse gives a reason: then kept with the placement),
   * closes the current assignment, opens the new one.
   */
  private async placeIn(
    tx: Tx,
    ctx: ServiceContext,
    stay: LockedStay,
    bedId: string,
    within: { department?: string; ward?: string } | null,
    overrideReason: string | null = null,
  ) {
    const hospital = scopedHospital(ctx);
    const me = ctx.user?.id ?? null;
    const bed = await lockBedForStay(tx, hospital.id, bedId);
    if (!bed?.usable) throw badRequest({ bed: ['hospitalizations.bed_unknown'] });
    if (within?.ward && bed.ward_id !== within.ward) throw badRequest({ bed: ['transfers.bed_elsewhere'] });
    if (within?.department && bed.department_id !== within.department)
      throw badRequest({ bed: ['transfers.bed_elsewhere'] });
    if (stay.bed_id === bed.id) throw conflict('hospitalizations.same_bed');
    if (bed.status === 'occupied') throw conflict('hospitalizations.bed_taken');
    if (bed.status !== 'free') throw conflict('hospitalizations.bed_unavailable');
    const broken = await this.guardrailsOf(tx, stay, bed, within);
    if (broken.length > 0 && overrideReason !== null && !this.mayOverride(ctx))
      throw forbidden('hospitalizations.override_forbidden');
    if (broken.length > 0 && overrideReason === null) {
      const guardrails = broken.map((g) => ({ code: g.code, message: translate(ctx.lang, g.key, g.params) }));
      throw new ApiError(409, guardrails.map((g) => g.message).join(' '), {
        code: 'bed_guardrails',
        body: { guardrails, may_override: this.mayOverride(ctx) },
      });
    }
    const overridden = broken.map((g) => g.code);
    const now = new Date();
    try {
      if (stay.bed_id) await leaveBed(tx, stay, now);
      await insertBedAssignment(tx, {
        hospitalId: hospital.id,
        hospitalizationId: stay.id,
        bedId: bed.id,
        startedAt: now,
        assignedBy: me,
        overridden,
        overrideReason: overridden.length > 0 ? overrideReason : null,
      });
      await placeStayInBed(tx, stay.id, bed.id, now);
      await markBedOccupied(tx, bed.id, now);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('hospitalizations.bed_taken');
      throw error;
    }
    return {
      label: bed.label,
      department_id: bed.department_id,
      ward_name: bed.ward_name,
      overridden,
    };
  }

  /** Housekeeping: a freed bed is cleaned (`cleaning`), then `free`; an occupied or out-of-service bed is not. */
  async housekeeping(ctx: ServiceContext, bedId: string, status: 'free' | 'cleaning'): Promise<TBoardBed> {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const bed = await lockBedForStay(tx, hospital.id, bedId);
      if (!bed) throw notFound();
      const from = status === 'free' ? 'cleaning' : 'free';
      if (bed.status !== from) throw conflict(`hospitalizations.bed_not_${from}`);
      const row = await setBedHousekeeping(tx, bedId, status);
      await this.app.audit.record(
        ctx,
        { action: 'bed.housekeeping', resourceType: 'bed', resourceId: bedId, details: { from, to: status } },
        tx,
      );
      return {
        id: row.id,
        label: row.label,
        status: row.status,
        status_reason: row.reason,
        occupant: null,
      };
    });
  }

  /** For the transfer service: the bed move and its notice, in its transaction. */
  moveWithin(
    tx: Tx,
    ctx: ServiceContext,
    stay: LockedStay,
    bedId: string,
    within: { department?: string; ward?: string },
  ) {
    return this.placeIn(tx, ctx, stay, bedId, within);
  }
  notifyBed(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    stay: LockedStay,
    bed: { label: string; department_id: string; ward_name: string },
  ) {
    return this.tellBed(tx, ctx, notify, stay, bed);
  }
}
