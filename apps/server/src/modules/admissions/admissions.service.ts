import {
  type AdmissionStatus,
  admissionTypesFor,
  canMoveAdmission,
  FINAL_ADMISSION_STATUSES,
} from '@greensen/shared/domain/admissions';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { hospitalToday, listReadEntry, tolerateNameSearch } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import {
  type AdmissionChanges,
  type AdmissionFilters,
  cancelAssignedExecution,
  closeOpenWork,
  departmentForVisit,
  findAdmissionView,
  insertAdmission,
  listAdmissions,
  lockAdmission,
  lockPatientForVisit,
  openAdmissionOf,
  patientForVisit,
  updateAdmissionFields,
} from './admissions.repository.js';

export const queueSequence = (day: string) => `queue:${day}`;

export class AdmissionsService {
  constructor(private readonly app: FastifyInstance) {}

  async create(
    ctx: ServiceContext,
    input: {
      patient: string;
      department: string;
      admission_type: AdmissionFilters['admission_type'] & string;
      reason: string;
    },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const visit = await this.openVisit(tx, hospital.id, actingUser(ctx).id, input);
      await this.app.audit.record(
        ctx,
        {
          action: 'admission.create',
          resourceType: 'admission',
          resourceId: visit.id,
          patientId: visit.patientId,
          details: {
            department: visit.departmentId,
            admission_type: input.admission_type,
            queue_number: visit.queueNumber,
          },
        },
        tx,
      );
      return (await findAdmissionView(tx, hospital.id, visit.id))!;
    });
  }

  /**
   * Opens a visit in the caller's transaction, without its audit row (the caller writes the one row of its own
   * action: a registration, or an appointment's check-in): the patient enters the department's queue.
   */
  async openVisit(
    tx: Tx,
    hospitalId: string,
    userId: string,
    input: {
      patient: string;
      department: string;
      admission_type: AdmissionFilters['admission_type'] & string;
      reason: string;
    },
  ) {
    const patient = await patientForVisit(tx, hospitalId, input.patient);
    if (!patient) throw badRequest({ patient: ['admissions.patient_unknown'] });
    if (patient.archivedAt) throw conflict('patients.archived');
    const department = await departmentForVisit(tx, hospitalId, input.department, true);
    if (!department) throw badRequest({ department: ['admissions.department_unknown'] });
    checkTypeFits(department.kind, input.admission_type);
    // One open visit per patient at a time: the patient row lock serializes two registrations of one visit.
    await lockPatientForVisit(tx, patient.id);
    if (await openAdmissionOf(tx, hospitalId, patient.id)) throw conflict('admissions.already_open');
    const day = await hospitalToday(tx, hospitalId);
    const queueNumber = await nextSequenceValue(tx, hospitalId, queueSequence(day));
    const id = await insertAdmission(tx, {
      hospitalId,
      patientId: patient.id,
      departmentId: department.id,
      admissionType: input.admission_type as never,
      reason: input.reason,
      queueDate: day,
      queueNumber,
      createdBy: userId,
    });
    return { id, patientId: patient.id, departmentId: department.id, queueNumber, queueDate: day };
  }

  async get(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const view = await findAdmissionView(tx, hospital.id, id);
      if (!view) throw notFound();
      await this.app.audit.record(
        ctx,
        { action: 'admission.read', resourceType: 'admission', resourceId: id, patientId: view.patient.id },
        tx,
      );
      return view;
    });
  }

  async list(ctx: ServiceContext, filters: AdmissionFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      if (filters.search) await tolerateNameSearch(tx);
      const result = await listAdmissions(tx, hospital.id, filters, pageSize, (page - 1) * pageSize);
      await this.app.audit.record(
        ctx,
        listReadEntry('admission.list', 'admission', filters, page, result.rows.length),
        tx,
      );
      return result;
    });
  }

  async update(
    ctx: ServiceContext,
    id: string,
    input: {
      department?: string | undefined;
      admission_type?: string | undefined;
      reason?: string | undefined;
    },
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const current = await lockAdmission(tx, hospital.id, id);
      if (!current) throw notFound();
      if (FINAL_ADMISSION_STATUSES.includes(current.status)) throw conflict('admissions.closed');
      const values: AdmissionChanges = { updatedAt: new Date() };
      const department = await departmentForVisit(
        tx,
        hospital.id,
        input.department ?? current.departmentId,
        false,
      );
      if (!department) throw badRequest({ department: ['admissions.department_unknown'] });
      if (input.department || input.admission_type)
        checkTypeFits(department.kind, input.admission_type ?? current.admissionType);
      if (input.department) values.departmentId = department.id;
      if (input.admission_type) values.admissionType = input.admission_type as never;
      if (input.reason) values.reason = input.reason;
      await updateAdmissionFields(tx, id, values);
      await this.app.audit.record(
        ctx,
        {
          action: 'admission.update',
          resourceType: 'admission',
          resourceId: id,
          patientId: current.patientId,
          details: { fields: Object.keys(input) },
        },
        tx,
      );
      return (await findAdmissionView(tx, hospital.id, id))!;
    });
  }

  /**
   * Moves a visit along its status machine: end it after the consultation (completed, hospitalized,
   * transferred), cancel it (with a reason), or withdraw an assignment (assigned → waiting). `assigned` and
   * `in_consultation` are reached through assign-patient and start-consultation only. Illegal move → 409.
   */
  async changeStatus(ctx: ServiceContext, id: string, to: AdmissionStatus, reason: string | null) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const current = await lockAdmission(tx, hospital.id, id);
      if (!current) throw notFound();
      if (!canMoveAdmission(current.status, to) || to === 'assigned' || to === 'in_consultation')
        throw conflict('admissions.illegal_transition', { from: current.status, to });
      const now = new Date();
      const values: AdmissionChanges = { status: to, updatedAt: now };
      if (to === 'cancelled') {
        values.cancelReason = reason;
        values.cancelledAt = now;
        values.closedAt = now;
        await closeOpenWork(tx, id, 'cancelled');
      } else if (to === 'waiting') {
        await cancelAssignedExecution(tx, id, now);
      } else {
        values.closedAt = now;
        await closeOpenWork(tx, id, 'completed');
      }
      await updateAdmissionFields(tx, id, values);
      await this.app.audit.record(
        ctx,
        {
          action: to === 'cancelled' ? 'admission.cancel' : 'admission.status',
          resourceType: 'admission',
          resourceId: id,
          patientId: current.patientId,
          details: { from: current.status, to, ...(reason ? { reason } : {}) },
        },
        tx,
      );
      return (await findAdmissionView(tx, hospital.id, id))!;
    });
  }
}

/** A visit type the department does not receive is refused on its field (issue 25). */
function checkTypeFits(kind: string, type: string) {
  const allowed = admissionTypesFor(kind);
  if (allowed.length === 0) throw badRequest({ department: ['admissions.department_no_visits'] });
  if (!allowed.includes(type as never)) throw badRequest({ admission_type: ['admissions.type_department'] });
}
