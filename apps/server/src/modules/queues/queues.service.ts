import { titlePrefix } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import { fullName, iso, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { lockAdmission } from '../admissions/admissions.repository.js';
import { withNotifications } from '../notifications/notifications.service.js';
import {
  type DoctorView,
  departmentExists,
  departmentQueue,
  doctorQueue,
  findDoctor,
  findExecutionView,
  insertConsultation,
  insertExecution,
  listDepartments,
  listDoctors,
  lockOpenExecution,
  patientNameAndRecord,
  setAdmissionStatus,
  updateExecutionColumns,
  userNames,
} from './queues.repository.js';

const withTitle = (d: DoctorView) => ({ ...d, title_prefix: titlePrefix(d.role_codes[0] ?? '') });

export class QueuesService {
  constructor(private readonly app: FastifyInstance) {}

  departments(ctx: ServiceContext, kind: string | undefined, page: number, pageSize: number) {
    return listDepartments(this.app.db, scopedHospital(ctx).id, kind, pageSize, (page - 1) * pageSize);
  }

  async doctors(
    ctx: ServiceContext,
    f: {
      department?: string | undefined;
      search?: string | undefined;
      ordering: 'load' | 'name';
      admission?: string | undefined;
    },
    page: number,
    pageSize: number,
  ) {
    const res = await listDoctors(this.app.db, scopedHospital(ctx).id, f, pageSize, (page - 1) * pageSize);
    return { count: res.count, rows: res.rows.map(withTitle) };
  }

  /** A practitioner of the current hospital, or 404 (other hospitals' doctors included). */
  async doctor(ctx: ServiceContext, id: string) {
    const d = await findDoctor(this.app.db, scopedHospital(ctx).id, id);
    if (!d) throw notFound();
    return withTitle(d);
  }

  async workload(ctx: ServiceContext, id: string) {
    const d = await this.doctor(ctx, id);
    return { doctor: { id: d.id, full_name: d.full_name }, ...d.workload };
  }

  async doctorQueue(
    ctx: ServiceContext,
    id: string,
    status: 'open' | 'completed' | 'all',
    page: number,
    pageSize: number,
  ) {
    await this.doctor(ctx, id);
    return this.auditedPage(ctx, 'queue.doctor', { doctor: id, status }, page, pageSize, (offset) =>
      doctorQueue(this.app.db, scopedHospital(ctx).id, id, status, pageSize, offset),
    );
  }

  async departmentQueue(
    ctx: ServiceContext,
    id: string,
    status: 'all' | 'unassigned' | 'assigned',
    page: number,
    pageSize: number,
  ) {
    if (!(await departmentExists(this.app.db, scopedHospital(ctx).id, id))) throw notFound();
    return this.auditedPage(ctx, 'queue.department', { department: id, status }, page, pageSize, (offset) =>
      departmentQueue(this.app.db, scopedHospital(ctx).id, id, status, pageSize, offset),
    );
  }

  /** One page of a queue. Queues list patients: a read of patient data, audited with the page and its size. */
  private async auditedPage<R extends { rows: unknown[] }>(
    ctx: ServiceContext,
    action: string,
    details: Record<string, unknown>,
    page: number,
    pageSize: number,
    load: (offset: number) => Promise<R>,
  ): Promise<R> {
    const result = await load((page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action,
      resourceType: 'execution',
      details: { ...details, page, results: result.rows.length },
    });
    return result;
  }

  /**
   * Assigns a visit to a practitioner: creates the consultation execution, or re-targets the open one; the
   * visit becomes `assigned`. Notifies the doctor (`execution_assigned`, or `execution_reassigned` to both
   * doctors) and sends a `consultation` notification with `data.action = 'patient_assigned'`; everything in
   * one transaction, pushed after the commit.
   */
  async assign(ctx: ServiceContext, admissionId: string, doctorId: string) {
    const hospital = scopedHospital(ctx);
    const actor = actingUser(ctx).id;
    return withNotifications(this.app, async (tx, notify) => {
      const admission = await lockAdmission(tx, hospital.id, admissionId);
      if (!admission) throw notFound();
      if (admission.status !== 'waiting' && admission.status !== 'assigned')
        throw conflict('assign.not_assignable', { status: admission.status });
      const doctor = await findDoctor(tx, hospital.id, doctorId);
      if (!doctor) throw badRequest({ doctor: ['assign.doctor_unknown'] });
      const current = await lockOpenExecution(tx, admission.id);
      if (current?.status === 'in_progress')
        throw conflict('assign.not_assignable', { status: 'in_consultation' });
      const now = new Date();
      let executionId: string;
      let previousDoctor: string | null = null;
      if (current && current.doctorId === doctorId) {
        executionId = current.id;
      } else if (current) {
        previousDoctor = current.doctorId;
        await updateExecutionColumns(tx, current.id, {
          doctorId,
          assignedBy: actor,
          priority: admission.triageRank,
          scheduledAt: now,
          updatedAt: now,
        });
        executionId = current.id;
      } else {
        executionId = await insertExecution(tx, {
          hospitalId: hospital.id,
          kind: 'consultation',
          admissionId: admission.id,
          patientId: admission.patientId,
          doctorId,
          status: 'assigned',
          priority: admission.triageRank,
          scheduledAt: now,
          assignedBy: actor,
        });
      }
      if (admission.status !== 'assigned') await setAdmissionStatus(tx, admission.id, 'assigned', now);

      const changed = !current || previousDoctor !== null;
      if (changed) {
        const p = await patientNameAndRecord(tx, admission.patientId);
        const params = {
          patient: fullName(p!.first, p!.last),
          record: p!.record,
          queue: admission.queueNumber,
          doctor: doctor.full_name,
        };
        const data = {
          admission_id: admission.id,
          patient_id: admission.patientId,
          execution_id: executionId,
          doctor_id: doctorId,
        };
        if (previousDoctor) {
          await notify({
            hospitalId: hospital.id,
            recipients: [previousDoctor, doctorId],
            type: 'execution_reassigned',
            title: { key: 'assign.notify.reassigned.title', params },
            message: { key: 'assign.notify.reassigned.message', params },
            data: { ...data, action: 'execution_reassigned', previous_doctor_id: previousDoctor },
            initiatedBy: actor,
          });
        } else {
          await notify({
            hospitalId: hospital.id,
            recipients: [doctorId],
            type: 'execution_assigned',
            title: { key: 'assign.notify.assigned.title', params },
            message: { key: 'assign.notify.assigned.message', params },
            data: { ...data, action: 'execution_assigned' },
            initiatedBy: actor,
          });
        }
        await notify({
          hospitalId: hospital.id,
          recipients: [doctorId],
          type: 'consultation',
          title: { key: 'assign.notify.patient_assigned.title', params },
          message: { key: 'assign.notify.patient_assigned.message', params },
          data: { ...data, action: 'patient_assigned' },
          initiatedBy: actor,
        });
      }
      await this.app.audit.record(
        ctx,
        {
          action: 'admission.assign',
          resourceType: 'admission',
          resourceId: admission.id,
          patientId: admission.patientId,
          details: { doctor: doctorId, previous_doctor: previousDoctor, execution: executionId },
        },
        tx,
      );
      const execution = (await findExecutionView(tx, hospital.id, executionId))!;
      let reassignedFrom: { id: string; full_name: string } | null = null;
      if (previousDoctor) {
        const u = await userNames(tx, previousDoctor);
        reassignedFrom = { id: previousDoctor, full_name: fullName(u?.first, u?.last) };
      }
      return { execution: { ...execution, id: executionId }, reassigned_from: reassignedFrom };
    });
  }

  /**
   * Starts the consultation of a visit: the assigned doctor, or a head doctor (who then takes the execution).
   * 409 when a consultation is already in progress or the visit cannot be seen any more.
   */
  async startConsultation(ctx: ServiceContext, admissionId: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const isHead = hospital.groups.includes('head_doctor');
    return this.app.db.transaction(async (tx) => {
      const admission = await lockAdmission(tx, hospital.id, admissionId);
      if (!admission) throw notFound();
      if (admission.status === 'in_consultation') throw conflict('consultations.already_started');
      if (admission.status !== 'waiting' && admission.status !== 'assigned')
        throw conflict('consultations.not_startable', { status: admission.status });
      const current = await lockOpenExecution(tx, admission.id);
      if (current?.status === 'in_progress') throw conflict('consultations.already_started');
      if (!isHead && current?.doctorId !== me) throw forbidden('consultations.not_assigned');
      const now = new Date();
      let executionId: string;
      if (current) {
        await updateExecutionColumns(tx, current.id, {
          status: 'in_progress',
          doctorId: me,
          startedAt: now,
          updatedAt: now,
        });
        executionId = current.id;
      } else {
        executionId = await insertExecution(tx, {
          hospitalId: hospital.id,
          admissionId: admission.id,
          patientId: admission.patientId,
          doctorId: me,
          status: 'in_progress',
          priority: admission.triageRank,
          scheduledAt: now,
          startedAt: now,
          assignedBy: me,
        });
      }
      const consultation = await insertConsultation(tx, {
        hospitalId: hospital.id,
        admissionId: admission.id,
        patientId: admission.patientId,
        departmentId: admission.departmentId,
        doctorId: me,
        executionId,
        reason: admission.reason,
        createdBy: me,
        status: 'in_progress',
        startedAt: now,
      });
      await setAdmissionStatus(tx, admission.id, 'in_consultation', now);
      await this.app.audit.record(
        ctx,
        {
          action: 'consultation.start',
          resourceType: 'consultation',
          resourceId: consultation.id,
          patientId: admission.patientId,
          details: { admission: admission.id, execution: executionId },
        },
        tx,
      );
      const u = await userNames(tx, me);
      return {
        id: consultation.id,
        admission: admission.id,
        patient: admission.patientId,
        doctor: { id: me, full_name: fullName(u?.first, u?.last) },
        status: consultation.status,
        started_at: isoRequired(consultation.startedAt),
        completed_at: iso(consultation.completedAt),
      };
    });
  }
}
