import type {
  TBedBoard,
  TCensus,
  TDischargeCreate,
  THospitalizationCreate,
  THospitalizationDetail,
  THospitalizationUpdate,
} from '@greensen/shared/contracts/hospitalizations';
import { ZBedBoard } from '@greensen/shared/contracts/hospitalizations';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { type PreSerialized, preSerialize } from '../../lib/pre-serialized.js';
import { hospitalToday } from '../../lib/queries.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { listWards } from '../structure/structure.repository.js';
import { boardWards, lockBedForStay } from './beds.repository.js';
import {
  closeStay,
  completeVisitOfStay,
  departmentIsActive,
  findStay,
  icdLabels,
  insertStayUnlessOpen,
  isActivePractitioner,
  listStays,
  lockStay,
  lockVisitToAdmit,
  markPatientDeceased,
  markVisitHospitalized,
  patientToAdmit,
  pendingStayCount,
  type StayChanges,
  type StayFilters,
  stayExtras,
  updateStayFields,
  WARD_NURSE_ROLES,
  wardNurses,
} from './hospitalizations.repository.js';
import { isActiveNurse, nursePatients } from './nurse-patients.repository.js';
import { stayOrders } from './stay-orders.repository.js';
import { leaveBed, stayIsOpen, tellStaff } from './stay-rules.js';
import { openTransferCount } from './transfers.repository.js';

/** The roles whose patients `GET /api/nurses/{id}/patients/` lists. */
const NURSE_ROLES = new Set<string>(WARD_NURSE_ROLES);

/**
 * Inpatient stays (issue 17): a stay is opened from a visit (by a doctor, or by completing a consultation with
 * the outcome "hospitalize"), waits for a bed, lies in one bed at a time, is transferred or discharged. The
 * rules that protect patients are database constraints (schema/inpatient.ts); the code checks them first to
 * answer with a clear message, and maps a constraint that fires under a race to the same 409.
 */
export class HospitalizationService {
  constructor(private readonly app: FastifyInstance) {}

  // Reads -----------------------------------------------------------------------------------------------

  async list(ctx: ServiceContext, filters: StayFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const result = await listStays(
      this.app.db,
      hospital.id,
      filters,
      ctx.lang,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, {
      action: 'hospitalization.list',
      resourceType: 'hospitalization',
      ...(filters.patient ? { patientId: filters.patient } : {}),
      details: { filters: { ...filters }, page, results: result.rows.length },
    });
    return result;
  }

  async detail(ctx: ServiceContext, id: string, q: Queryable = this.app.db): Promise<THospitalizationDetail> {
    const hospital = scopedHospital(ctx);
    const stay = await findStay(q, hospital.id, id, ctx.lang);
    if (!stay) throw notFound();
    const extras = await stayExtras(q, id, ctx.lang);
    const orders = await stayOrders(q, hospital.id, id, ctx.lang);
    const open = stayIsOpen(stay.status);
    return {
      ...stay,
      ...extras,
      orders,
      can: {
        edit: open && mayAct(ctx, 'hospitalization.admit'),
        assign_bed: open && mayAct(ctx, 'hospitalization.bed'),
        note: mayAct(ctx, 'hospitalization.note'),
        discharge: open && mayAct(ctx, 'hospitalization.discharge'),
      },
    };
  }

  async read(ctx: ServiceContext, id: string) {
    const detail = await this.detail(ctx, id);
    await this.app.audit.record(ctx, {
      action: 'hospitalization.read',
      resourceType: 'hospitalization',
      resourceId: id,
      patientId: detail.patient.id,
    });
    return detail;
  }

  /**
   * The bed board, kept per hospital, filters and language until a change notice of the tables it reads drops it
   * (plugins/board-cache.ts), or a minute has passed (so the days of each stay turn at midnight within a minute).
   * Every read is audited, kept or not.
   */
  async board(
    ctx: ServiceContext,
    filters: { ward?: string | undefined; department?: string | undefined },
  ): Promise<PreSerialized> {
    const hospital = scopedHospital(ctx);
    const cache = this.app.boardCache;
    const key = `${filters.ward ?? ''}/${filters.department ?? ''}/${ctx.lang}`;
    let kept = cache.lookup(hospital.id, key);
    if (!kept) {
      const ticket = cache.ticket();
      // Two independent reads, side by side on PostgreSQL's pool (the embedded engine runs them in turn).
      const [wards, pending] = await Promise.all([
        boardWards(this.app.db, hospital.id, filters, ctx.lang),
        listStays(
          this.app.db,
          hospital.id,
          { status: 'pending_bed', department: filters.department },
          ctx.lang,
          200,
          0,
        ),
      ]);
      const board: TBedBoard = {
        wards,
        pending: [...pending.rows].sort((a, b) => a.requested_at.localeCompare(b.requested_at)),
        pending_count: pending.count,
      };
      kept = { answer: preSerialize(ZBedBoard, board), wards: wards.length, pending: pending.count };
      cache.keep(ticket, hospital.id, key, kept);
    }
    await this.app.audit.record(ctx, {
      action: 'hospitalization.board',
      resourceType: 'hospitalization',
      details: { filters: { ...filters }, wards: kept.wards, pending: kept.pending },
    });
    return kept.answer;
  }

  async census(ctx: ServiceContext): Promise<TCensus> {
    const hospital = scopedHospital(ctx);
    const { rows } = await listWards(this.app.db, hospital.id, {}, 1000, 0);
    const pending = await pendingStayCount(this.app.db, hospital.id);
    const rate = (b: { total: number; occupied: number; out_of_service: number }) => {
      const inService = b.total - b.out_of_service;
      return inService > 0 ? Math.round((b.occupied / inService) * 1000) / 1000 : null;
    };
    const totals = { total: 0, free: 0, occupied: 0, cleaning: 0, out_of_service: 0 };
    for (const w of rows)
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += w.beds[k];
    return {
      wards: rows.map((w) => ({
        id: w.id,
        code: w.code,
        name: w.name,
        department: w.department,
        beds: w.beds,
        occupancy_rate: rate(w.beds),
      })),
      totals: { ...totals, occupancy_rate: rate(totals), pending },
    };
  }

  // Admission ---------------------------------------------------------------------------------------------

  private async checkDepartment(q: Queryable, hospitalId: string, id: string, field = 'department') {
    const active = await departmentIsActive(q, hospitalId, id);
    if (active === null) throw badRequest({ [field]: ['hospitalizations.department_unknown'] });
    if (!active) throw badRequest({ [field]: ['hospitalizations.department_inactive'] });
  }

  private async checkDoctor(q: Queryable, hospitalId: string, id: string) {
    if (!(await isActivePractitioner(q, hospitalId, id)))
      throw badRequest({ doctor: ['hospitalizations.doctor_unknown'] });
  }

  private async checkCodes(q: Queryable, field: string, codes: readonly string[]) {
    const known = await icdLabels(q, codes, 'en');
    if (codes.some((c) => !known.has(c))) throw badRequest({ [field]: ['hospitalizations.icd_unknown'] });
  }

  /** A doctor admits a patient from an open visit (the visit becomes `hospitalized`). */
  async create(ctx: ServiceContext, body: THospitalizationCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await withNotifications(this.app, async (tx, notify) => {
      const admission = await lockVisitToAdmit(tx, hospital.id, body.admission);
      if (!admission) throw badRequest({ admission: ['hospitalizations.admission_unknown'] });
      if (['completed', 'cancelled', 'transferred'].includes(admission.status))
        throw conflict('hospitalizations.admission_closed');
      await this.checkDepartment(tx, hospital.id, body.department);
      const doctor = body.doctor ?? me;
      if (body.doctor) await this.checkDoctor(tx, hospital.id, body.doctor);
      if (body.provisional_icd_code)
        await this.checkCodes(tx, 'provisional_icd_code', [body.provisional_icd_code]);
      const stayId = await this.open(tx, ctx, notify, {
        patientId: admission.patientId,
        admissionId: admission.id,
        consultationId: null,
        departmentId: body.department,
        doctorId: doctor,
        reason: body.reason,
        icdCode: body.provisional_icd_code ?? null,
        expectedDays: body.expected_days ?? null,
      });
      if (!stayId) throw conflict('hospitalizations.already_open');
      if (admission.status !== 'hospitalized') {
        await markVisitHospitalized(tx, admission.id, new Date());
      }
      return stayId;
    });
    return this.detail(ctx, id);
  }

  /**
   * Opens a stay waiting for a bed (in the caller's transaction), audits it and tells the department's nurses.
   * Returns null when the patient already has an open stay (nothing is written then).
   */
  async open(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    input: {
      patientId: string;
      admissionId: string | null;
      consultationId: string | null;
      departmentId: string;
      doctorId: string;
      reason: string;
      icdCode: string | null;
      expectedDays: number | null;
    },
  ): Promise<string | null> {
    const hospital = scopedHospital(ctx);
    const patient = await patientToAdmit(tx, hospital.id, input.patientId);
    if (!patient) throw notFound();
    if (patient.deceasedAt) throw conflict('hospitalizations.patient_deceased');
    const stayId = await insertStayUnlessOpen(tx, {
      hospitalId: hospital.id,
      patientId: input.patientId,
      admissionId: input.admissionId,
      consultationId: input.consultationId,
      departmentId: input.departmentId,
      doctorId: input.doctorId,
      reason: input.reason,
      provisionalIcdCode: input.icdCode,
      expectedDays: input.expectedDays,
      createdBy: ctx.user?.id ?? null,
    });
    if (!stayId) return null;
    await this.app.audit.record(
      ctx,
      {
        action: 'hospitalization.create',
        resourceType: 'hospitalization',
        resourceId: stayId,
        patientId: input.patientId,
        details: {
          admission: input.admissionId,
          consultation: input.consultationId,
          department: input.departmentId,
        },
      },
      tx,
    );
    const name = fullName(patient.first, patient.last);
    await tellStaff(ctx, notify, {
      recipients: await wardNurses(tx, hospital.id, input.departmentId),
      type: 'hospitalization',
      title: { fr: 'Patient en attente de lit', en: 'Patient waiting for a bed' },
      message: {
        fr: `${name} est hospitalisé(e) et attend un lit.`,
        en: `${name} is admitted and waiting for a bed.`,
      },
      data: { action: 'hospitalization_pending', hospitalization: stayId, patient: input.patientId },
    });
    return stayId;
  }

  async update(ctx: ServiceContext, id: string, body: THospitalizationUpdate) {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!stayIsOpen(stay.status)) throw conflict('hospitalizations.closed');
      if (body.department) await this.checkDepartment(tx, hospital.id, body.department);
      if (body.doctor) await this.checkDoctor(tx, hospital.id, body.doctor);
      if (body.provisional_icd_code)
        await this.checkCodes(tx, 'provisional_icd_code', [body.provisional_icd_code]);
      const values: StayChanges = { updatedAt: new Date() };
      if (body.department !== undefined) values.departmentId = body.department;
      if (body.doctor !== undefined) values.doctorId = body.doctor;
      if (body.reason !== undefined) values.reason = body.reason;
      if (body.provisional_icd_code !== undefined) values.provisionalIcdCode = body.provisional_icd_code;
      if (body.expected_days !== undefined) values.expectedDays = body.expected_days;
      await updateStayFields(tx, id, values);
      await this.app.audit.record(
        ctx,
        {
          action: 'hospitalization.update',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { fields: Object.keys(body) },
        },
        tx,
      );
    });
    return this.detail(ctx, id);
  }

  // Discharge ---------------------------------------------------------------------------------------------

  async discharge(ctx: ServiceContext, id: string, body: TDischargeCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const stay = await lockStay(tx, hospital.id, id);
      if (!stay) throw notFound();
      if (!stayIsOpen(stay.status)) throw conflict('hospitalizations.closed');
      if ((await openTransferCount(tx, id)) > 0) throw conflict('hospitalizations.transfer_open');
      const diagnoses = [...new Set(body.diagnoses)];
      await this.checkCodes(tx, 'diagnoses', diagnoses);
      if (body.death_cause_icd_code)
        await this.checkCodes(tx, 'death_cause_icd_code', [body.death_cause_icd_code]);
      const now = new Date();
      if (body.follow_up_date && body.follow_up_date < (await hospitalToday(tx, hospital.id)))
        throw badRequest({ follow_up_date: ['hospitalizations.follow_up_past'] });
      if (body.death_at) {
        const death = new Date(body.death_at);
        if (
          death.getTime() > now.getTime() + 60_000 ||
          death.getTime() < new Date(stay.requested_at).getTime()
        )
          throw badRequest({ death_at: ['hospitalizations.death_time_range'] });
      }
      const bedDepartment = stay.bed_id
        ? ((await lockBedForStay(tx, hospital.id, stay.bed_id))?.department_id ?? stay.department_id)
        : stay.department_id;
      await leaveBed(tx, stay, now);
      const status =
        body.mode === 'deceased'
          ? 'deceased'
          : body.mode === 'transferred'
            ? 'transferred_out'
            : 'discharged';
      await closeStay(tx, id, {
        status,
        endedAt: now,
        dischargeMode: body.mode,
        dischargeIcdCodes: diagnoses,
        dischargeSummary: body.summary,
        dischargeTreatments: body.treatments ?? null,
        followUpDate: body.follow_up_date ?? null,
        deathAt: body.death_at ? new Date(body.death_at) : null,
        deathIcdCode: body.death_cause_icd_code ?? null,
        dischargedBy: me,
        updatedAt: now,
      });
      // The visit the stay came from ends with it: every screen reading the visit says the patient left.
      await completeVisitOfStay(tx, id, now);
      if (body.mode === 'deceased')
        await markPatientDeceased(tx, stay.patient_id, new Date(body.death_at!), now);
      await this.app.audit.record(
        ctx,
        {
          action: 'hospitalization.discharge',
          resourceType: 'hospitalization',
          resourceId: id,
          patientId: stay.patient_id,
          details: { mode: body.mode, bed: stay.bed_id },
        },
        tx,
      );
      if (stay.bed_id)
        await tellStaff(ctx, notify, {
          recipients: await wardNurses(tx, hospital.id, bedDepartment),
          type: 'hospitalization',
          title: { fr: 'Sortie : lit à nettoyer', en: 'Discharge: bed to clean' },
          message: {
            fr: 'Un patient est sorti ; son lit est à nettoyer.',
            en: 'A patient was discharged; the bed needs cleaning.',
          },
          data: {
            action: 'hospitalization_discharged',
            hospitalization: id,
            patient: stay.patient_id,
            bed: stay.bed_id,
          },
        });
    });
    return this.detail(ctx, id);
  }

  // Nurses ------------------------------------------------------------------------------------------------

  /** A nurse reads her own patients; the charge nurse, head doctors and administrators any nurse's. */
  async nursePatients(
    ctx: ServiceContext,
    nurseId: string,
    includePending: boolean,
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    // The caller's own roles come with her sign-in check; another nurse's are read.
    const isNurse =
      nurseId === me
        ? hospital.roleCodes.some((r) => NURSE_ROLES.has(r.toUpperCase()))
        : await isActiveNurse(this.app.db, hospital.id, nurseId);
    if (!isNurse) throw notFound();
    if (
      nurseId !== me &&
      !hospital.groups.some((g) => g === 'queue_manager' || g === 'head_doctor' || g === 'admin')
    )
      throw forbidden('hospitalizations.other_nurse');
    const result = await nursePatients(
      this.app.db,
      hospital.id,
      nurseId,
      includePending,
      ctx.lang,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(ctx, {
      action: 'nurse.patients',
      resourceType: 'hospitalization',
      details: { nurse: nurseId, page, results: result.rows.length },
    });
    return result;
  }
}
