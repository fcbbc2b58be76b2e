import type { TTransfer, TTransferCreate } from '@greensen/shared/contracts/hospitalizations';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import type { BedService } from './beds.service.js';
import {
  closeStay,
  departmentHeads,
  departmentIsActive,
  lockStay,
  moveStayToDepartment,
  patientName,
  returnStayToWaiting,
} from './hospitalizations.repository.js';
import { leaveBed, stayIsOpen } from './stay-rules.js';
import {
  findActiveHospital,
  findTransfer,
  findWardOfHospital,
  insertTransfer,
  type LockedTransfer,
  listTransfers,
  lockTransfer,
  markTransferCancelled,
  markTransferCompleted,
  otherActiveHospitals,
  recordTransferDecision,
  type TransferFacts,
  type TransferView,
} from './transfers.repository.js';

type Step = 'requested' | 'accepted' | 'rejected' | 'completed' | 'cancelled';
const STEP_TEXT: Record<Step, { fr: string; en: string }> = {
  requested: { fr: 'Demande de transfert', en: 'Transfer request' },
  accepted: { fr: 'Transfert accepté', en: 'Transfer accepted' },
  rejected: { fr: 'Transfert refusé', en: 'Transfer rejected' },
  completed: { fr: 'Transfert effectué', en: 'Transfer completed' },
  cancelled: { fr: 'Transfert annulé', en: 'Transfer cancelled' },
};

/**
 * Transfers (issue 17): internal (another department or ward of the hospital) and external (another hospital of
 * this installation, which receives the request, or a facility named in words). `requested → accepted |
 * rejected → completed`, or `cancelled` by the sending side while open; one open transfer per stay (a
 * constraint). The receiving side decides: the receiving department's head or members, a head doctor, or for
 * another hospital of the installation its practitioners; a facility outside the installation answers by other
 * means, so the sending practitioners record its answer (docs/decisions/0019-inpatient-stays.md).
 */
export class TransferService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly beds: BedService,
  ) {}

  async list(
    ctx: ServiceContext,
    f: { status: string; direction: string; hospitalization?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const listed = await listTransfers(this.app.db, hospital.id, f, pageSize, (page - 1) * pageSize);
    const result = { rows: listed.rows.map((v) => this.view(ctx, v)), count: listed.count };
    await this.app.audit.record(ctx, {
      action: 'transfer.list',
      resourceType: 'transfer',
      details: { filters: { ...f }, page, results: result.rows.length },
    });
    return result;
  }

  async read(ctx: ServiceContext, id: string) {
    const view = await findTransfer(this.app.db, scopedHospital(ctx).id, id);
    if (!view) throw notFound();
    const found = this.view(ctx, view);
    await this.app.audit.record(ctx, {
      action: 'transfer.read',
      resourceType: 'transfer',
      resourceId: id,
      patientId: found.patient.id,
    });
    return found;
  }

  /** The other active hospitals of the installation (the receiving facility of an external transfer). */
  async facilities(ctx: ServiceContext) {
    const rows = await otherActiveHospitals(this.app.db, scopedHospital(ctx).id);
    return { results: rows };
  }

  async create(ctx: ServiceContext, body: TTransferCreate): Promise<TTransfer> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await withNotifications(this.app, async (tx, notify) => {
      const stay = await lockStay(tx, hospital.id, body.hospitalization);
      if (!stay) throw badRequest({ hospitalization: ['transfers.stay_unknown'] });
      if (!stayIsOpen(stay.status)) throw conflict('hospitalizations.closed');
      let toDepartment: string | null = null;
      let toWard: string | null = null;
      let toHospital: string | null = null;
      if (body.kind === 'internal') {
        toDepartment = body.to_department!;
        if (!(await departmentIsActive(tx, hospital.id, toDepartment)))
          throw badRequest({ to_department: ['hospitalizations.department_unknown'] });
        if (body.to_ward) {
          const ward = await findWardOfHospital(tx, hospital.id, body.to_ward);
          if (!ward?.isActive || ward.departmentId !== toDepartment)
            throw badRequest({ to_ward: ['transfers.ward_unknown'] });
          toWard = body.to_ward;
        }
      } else if (body.to_hospital) {
        const other = await findActiveHospital(tx, body.to_hospital);
        if (!other || other.id === hospital.id)
          throw badRequest({ to_hospital: ['transfers.hospital_unknown'] });
        toHospital = other.id;
      }
      let row: { id: string } | undefined;
      try {
        row = await insertTransfer(tx, {
          hospitalId: hospital.id,
          hospitalizationId: stay.id,
          patientId: stay.patient_id,
          kind: body.kind,
          fromDepartmentId: stay.department_id,
          toDepartmentId: toDepartment,
          toWardId: toWard,
          toHospitalId: toHospital,
          facilityName: body.kind === 'external' && !toHospital ? (body.facility_name ?? null) : null,
          reason: body.reason,
          summary: body.summary ?? null,
          treatments: body.treatments ?? null,
          requestedBy: me,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('transfers.already_open');
        throw error;
      }
      await this.audit(ctx, tx, 'transfer.create', row!.id, stay.patient_id, { kind: body.kind });
      const recipients =
        toHospital !== null
          ? await departmentHeads(tx, toHospital, null)
          : body.kind === 'internal'
            ? await departmentHeads(tx, hospital.id, toDepartment)
            : [];
      await this.tellStep(
        tx,
        ctx,
        notify,
        'requested',
        row!.id,
        stay.patient_id,
        recipients,
        toHospital ?? hospital.id,
      );
      return row!.id;
    });
    return this.view(ctx, (await findTransfer(this.app.db, hospital.id, id))!);
  }

  private audit(ctx: ServiceContext, tx: Tx, action: string, id: string, patientId: string, details = {}) {
    return this.app.audit.record(
      ctx,
      { action, resourceType: 'transfer', resourceId: id, patientId, details },
      tx,
    );
  }

  private async tellStep(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    step: Step,
    id: string,
    patientId: string,
    recipients: string[],
    hospitalId: string,
  ) {
    const me = ctx.user?.id ?? null;
    const to = recipients.filter((r) => r !== me);
    if (to.length === 0) return;
    const p = await patientName(tx, patientId);
    const name = fullName(p?.first, p?.last);
    await notify({
      hospitalId,
      recipients: to,
      type: 'transfer',
      title: STEP_TEXT[step],
      message: { fr: `${STEP_TEXT[step].fr} : ${name}`, en: `${STEP_TEXT[step].en}: ${name}` },
      data: { action: `transfer_${step}`, transfer: id, patient: patientId },
      initiatedBy: me,
    });
  }

  /** Whether the caller may answer for the receiving side of a transfer. */
  private mayDecide(ctx: ServiceContext, t: TransferFacts) {
    const hospital = scopedHospital(ctx);
    if (!mayAct(ctx, 'transfer.decide')) return false;
    if (t.kind === 'external')
      return t.to_hospital_id ? hospital.id === t.to_hospital_id : hospital.id === t.hospital_id;
    if (hospital.id !== t.hospital_id) return false;
    return (
      t.to_department_head === actingUser(ctx).id ||
      hospital.groups.includes('head_doctor') ||
      (t.to_department_id !== null && hospital.departmentIds.includes(t.to_department_id))
    );
  }

  /** A transfer with the steps the caller may take now. */
  private view(ctx: ServiceContext, v: TransferView): TTransfer {
    const hospital = scopedHospital(ctx);
    const sender = v.facts.hospital_id === hospital.id;
    const open = v.facts.status === 'requested' || v.facts.status === 'accepted';
    const decide = v.facts.status === 'requested' && this.mayDecide(ctx, v.facts);
    return {
      ...v.transfer,
      can: {
        accept: decide,
        reject: decide,
        complete: v.facts.status === 'accepted' && sender && mayAct(ctx, 'hospitalization.bed'),
        cancel: open && sender && mayAct(ctx, 'transfer.request'),
      },
    };
  }

  private async decide(
    ctx: ServiceContext,
    id: string,
    step: 'accepted' | 'rejected',
    reason: string | null,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const t = await lockTransfer(tx, hospital.id, id);
      if (!t) throw notFound();
      if (!this.mayDecide(ctx, t)) throw forbidden('transfers.not_receiver');
      if (t.status !== 'requested') throw conflict('transfers.not_requested');
      const now = new Date();
      await recordTransferDecision(tx, id, {
        status: step,
        decidedBy: me,
        decidedAt: now,
        rejectReason: reason,
      });
      await this.audit(ctx, tx, `transfer.${step === 'accepted' ? 'accept' : 'reject'}`, id, t.patient_id, {
        reason,
      });
      await this.tellStep(tx, ctx, notify, step, id, t.patient_id, [t.requested_by], t.hospital_id);
    });
    return this.view(ctx, (await findTransfer(this.app.db, hospital.id, id))!);
  }

  accept(ctx: ServiceContext, id: string) {
    return this.decide(ctx, id, 'accepted', null);
  }

  reject(ctx: ServiceContext, id: string, reason: string) {
    return this.decide(ctx, id, 'rejected', reason);
  }

  /**
   * The patient has moved. Internal: into a bed of the receiving ward or department (or, without a bed, the
   * stay waits for one there); external: the stay ends as transferred out (the transfer's summary is the
   * discharge summary) and the bed goes to cleaning. Done by the sending hospital.
   */
  async complete(ctx: ServiceContext, id: string, bedId: string | null) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const t = await lockTransfer(tx, hospital.id, id);
      if (!t) throw notFound();
      if (t.hospital_id !== hospital.id) throw forbidden('transfers.sender_completes');
      if (t.status !== 'accepted') throw conflict('transfers.not_accepted');
      const stay = (await lockStay(tx, hospital.id, t.hospitalization_id))!;
      const now = new Date();
      if (t.kind === 'internal') {
        if (bedId) {
          const bed = await this.beds.moveWithin(tx, ctx, stay, bedId, {
            ...(t.to_ward_id ? { ward: t.to_ward_id } : { department: t.to_department_id! }),
          });
          await this.beds.notifyBed(tx, ctx, notify, stay, bed);
        } else {
          await leaveBed(tx, stay, now);
          await returnStayToWaiting(tx, stay.id, now);
        }
        await moveStayToDepartment(tx, stay.id, t.to_department_id!, now);
      } else {
        if (bedId) throw badRequest({ bed: ['transfers.no_bed_external'] });
        await leaveBed(tx, stay, now);
        await closeStay(tx, stay.id, {
          status: 'transferred_out',
          endedAt: now,
          dischargeMode: 'transferred',
          dischargeSummary: t.summary,
          dischargeTreatments: t.treatments,
          dischargedBy: me,
          updatedAt: now,
        });
      }
      await markTransferCompleted(tx, id, now);
      await this.audit(ctx, tx, 'transfer.complete', id, t.patient_id, { bed: bedId });
      const heads = await receivingHeads(tx, t);
      await this.tellStep(tx, ctx, notify, 'completed', id, t.patient_id, [t.requested_by], hospital.id);
      if (heads.length)
        await this.tellStep(
          tx,
          ctx,
          notify,
          'completed',
          id,
          t.patient_id,
          heads,
          t.to_hospital_id ?? hospital.id,
        );
    });
    return this.view(ctx, (await findTransfer(this.app.db, hospital.id, id))!);
  }

  /** The sending side withdraws a transfer still open. */
  async cancel(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    await withNotifications(this.app, async (tx, notify) => {
      const t = await lockTransfer(tx, hospital.id, id);
      if (!t) throw notFound();
      if (t.hospital_id !== hospital.id) throw forbidden('transfers.sender_cancels');
      if (t.status !== 'requested' && t.status !== 'accepted') throw conflict('transfers.closed');
      await markTransferCancelled(tx, id, new Date());
      await this.audit(ctx, tx, 'transfer.cancel', id, t.patient_id);
      const heads = await receivingHeads(tx, t);
      await this.tellStep(
        tx,
        ctx,
        notify,
        'cancelled',
        id,
        t.patient_id,
        heads,
        t.to_hospital_id ?? hospital.id,
      );
    });
    return this.view(ctx, (await findTransfer(this.app.db, hospital.id, id))!);
  }
}

/** Who answers for the receiving side: another hospital's head doctors, or the receiving department's head. */
function receivingHeads(tx: Tx, t: LockedTransfer): Promise<string[]> {
  if (t.to_hospital_id) return departmentHeads(tx, t.to_hospital_id, null);
  if (t.to_department_id) return departmentHeads(tx, t.hospital_id, t.to_department_id);
  return Promise.resolve([]);
}
