import type {
  TAppointmentCreate,
  TAppointmentDetail,
  TAppointmentReschedule,
  TAppointmentUpdate,
  TCheckInResult,
} from '@greensen/shared/contracts/appointments';
import { admissionTypesFor } from '@greensen/shared/domain/admissions';
import {
  type AppointmentStatus,
  canTransition,
  isOpenAppointment,
} from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { listReadEntry } from '../../lib/queries.js';
import { findAdmissionView } from '../admissions/admissions.repository.js';
import { AdmissionsService } from '../admissions/admissions.service.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { findDoctor } from '../queues/queues.repository.js';
import { QueuesService } from '../queues/queues.service.js';
import {
  type AppointmentFilters,
  appointmentMoves,
  cancelAppointment,
  departmentKind,
  findAppointmentRow,
  hospitalZone,
  insertAppointment,
  type LockedAppointment,
  listAppointments,
  lockAppointment,
  markAppointment,
  markCheckedIn,
  moveAppointment,
  patientArchival,
  patientNames,
  releasePlace,
  toAppointment,
  updateAppointmentFields,
} from './appointments.repository.js';
import type { SlotsService } from './slots.service.js';

type Move = 'booked' | 'moved' | 'cancelled';

/**
 * Appointments (issue 22, decision 0028): booking in a slot whose capacity the database enforces, the status
 * machine, reschedules with their history, check-in (which opens the visit in the appointment's department, in the
 * same transaction), the lists and the doctor dashboard's "today". Every read and write of an appointment is in the
 * audit trail; the provider is told of bookings made, moved or cancelled in their schedule (`appointment`).
 */
export class AppointmentsService {
  private readonly admissions: AdmissionsService;
  private readonly queues: QueuesService;

  constructor(
    private readonly app: FastifyInstance,
    private readonly slots: SlotsService,
  ) {
    this.admissions = new AdmissionsService(app);
    this.queues = new QueuesService(app);
  }

  now(): Date {
    return this.app.jobs.now();
  }

  /** The appointment as the API answers it (it exists: called after a write). */
  private async view(q: Tx | FastifyInstance['db'], hospitalId: string, id: string) {
    return toAppointment((await findAppointmentRow(q, hospitalId, id))!);
  }

  private async tell(
    tx: Tx,
    notify: Notify,
    ctx: ServiceContext,
    what: Move,
    a: { id: string; provider: string; patient: string; start: Date },
  ) {
    const me = actingUser(ctx).id;
    if (a.provider === me) return;
    const hospital = scopedHospital(ctx);
    const p = await patientNames(tx, a.patient);
    const zone = await hospitalZone(tx, hospital.id);
    const params = {
      patient: p ? fullName(p.first_name, p.last_name) : '',
      record: p?.record_number ?? '',
      time: localTime(a.start, zone),
    };
    await notify({
      hospitalId: hospital.id,
      recipients: [a.provider],
      type: 'appointment',
      title: { key: `appointments.notify.${what}.title`, params },
      message: { key: `appointments.notify.${what}.message`, params },
      data: { action: `appointment_${what}`, appointment_id: a.id, patient_id: a.patient },
      initiatedBy: me,
    });
  }

  // Booking ---------------------------------------------------------------------------------------------------

  async book(ctx: ServiceContext, body: TAppointmentCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    if (body.overbook && !mayAct(ctx, 'appointment.overbook'))
      throw forbidden('appointments.overbook_forbidden');
    const start = new Date(body.start);
    const id = uuidv7();
    try {
      await withNotifications(this.app, async (tx, notify) => {
        const patient = await patientArchival(tx, hospital.id, body.patient);
        if (!patient) throw badRequest({ patient: ['appointments.patient_unknown'] });
        if (patient.archived) throw conflict('patients.archived');
        await this.slots.checkDepartment(tx, hospital.id, body.department);
        await this.slots.checkProvider(tx, hospital.id, body.provider);
        const slot = await this.slots.requireSlot(tx, hospital.id, {
          provider: body.provider,
          department: body.department,
          start,
          type: body.appointment_type,
        });
        const overbooked = await this.slots.takePlace(
          tx,
          hospital.id,
          body.provider,
          start,
          slot.capacity,
          body.overbook === true,
        );
        await insertAppointment(tx, {
          id,
          hospitalId: hospital.id,
          patient: body.patient,
          provider: body.provider,
          department: body.department,
          schedule: slot.schedule,
          start,
          end: slot.end,
          type: body.appointment_type,
          reason: body.reason,
          notes: body.notes,
          overbooked,
          by: me,
        });
        await this.tell(tx, notify, ctx, 'booked', {
          id,
          provider: body.provider,
          patient: body.patient,
          start,
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'appointment.create',
            resourceType: 'appointment',
            resourceId: id,
            patientId: body.patient,
            details: {
              provider: body.provider,
              department: body.department,
              start: start.toISOString(),
              type: body.appointment_type,
              overbooked,
            },
          },
          tx,
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('appointments.patient_already_booked');
      throw err;
    }
    return this.view(this.app.db, hospital.id, id);
  }

  // Reads ---------------------------------------------------------------------------------------------------

  async get(ctx: ServiceContext, id: string): Promise<TAppointmentDetail> {
    const hospital = scopedHospital(ctx);
    const row = await findAppointmentRow(this.app.db, hospital.id, id);
    if (!row) throw notFound();
    const history = await appointmentMoves(this.app.db, id);
    await this.app.audit.record(ctx, {
      action: 'appointment.read',
      resourceType: 'appointment',
      resourceId: id,
      patientId: row.p_id,
    });
    return { ...toAppointment(row), history };
  }

  async list(
    ctx: ServiceContext,
    f: {
      provider?: string | undefined;
      department?: string | undefined;
      patient?: string | undefined;
      from?: string | undefined;
      to?: string | undefined;
      status?: AppointmentStatus[] | undefined;
      appointment_type?: AppointmentFilters['appointment_type'];
      mine?: boolean | undefined;
      ordering: 'start' | '-start';
    },
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const zone = await hospitalZone(this.app.db, hospital.id);
    const filters: AppointmentFilters = {
      provider: f.mine ? actingUser(ctx).id : f.provider,
      department: f.department,
      patient: f.patient,
      from: f.from ? zonedInstant(f.from, '00:00', zone) : undefined,
      to: f.to ? zonedInstant(addDays(f.to, 1), '00:00', zone) : undefined,
      status: f.status,
      appointment_type: f.appointment_type,
      ordering: f.ordering,
    };
    const result = await listAppointments(this.app.db, hospital.id, filters, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(
      ctx,
      listReadEntry(
        'appointment.list',
        'appointment',
        { ...f, patient: f.patient },
        page,
        result.rows.length,
      ),
    );
    return result;
  }

  /** The caller's appointments of today (hospital date), every status, in time order: the `schedule` tab. */
  async today(ctx: ServiceContext) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const zone = await hospitalZone(this.app.db, hospital.id);
    const date = zonedDate(this.now(), zone);
    const result = await listAppointments(
      this.app.db,
      hospital.id,
      {
        provider: me,
        from: zonedInstant(date, '00:00', zone),
        to: zonedInstant(addDays(date, 1), '00:00', zone),
        ordering: 'start',
      },
      200,
      0,
    );
    await this.app.audit.record(
      ctx,
      listReadEntry('appointment.today', 'appointment', {}, 1, result.rows.length),
    );
    return { date, time_zone: zone, results: result.rows };
  }

  // Changes -------------------------------------------------------------------------------------------------

  /**
   * Runs a change of one appointment in a transaction with its audit row (one per request): 404 when not in the
   * hospital; `fn` returns the audit details.
   */
  private async change(
    ctx: ServiceContext,
    id: string,
    action: string,
    fn: (tx: Tx, a: LockedAppointment, notify: Notify) => Promise<Record<string, unknown>>,
  ) {
    const hospital = scopedHospital(ctx);
    await withNotifications(this.app, async (tx, notify) => {
      const a = await lockAppointment(tx, hospital.id, id);
      if (!a) throw notFound();
      const details = await fn(tx, a, notify);
      await this.app.audit.record(
        ctx,
        { action, resourceType: 'appointment', resourceId: id, patientId: a.patient_id, details },
        tx,
      );
    });
    return this.view(this.app.db, hospital.id, id);
  }

  private static requireMove(a: LockedAppointment, to: AppointmentStatus) {
    if (!canTransition(a.status, to))
      throw conflict('appointments.illegal_transition', { from: a.status, to });
  }

  async update(ctx: ServiceContext, id: string, body: TAppointmentUpdate) {
    const hospital = scopedHospital(ctx);
    return this.change(ctx, id, 'appointment.update', async (tx, a) => {
      if (!isOpenAppointment(a.status)) throw conflict('appointments.closed');
      if (body.appointment_type && body.appointment_type !== a.appointment_type) {
        const slot = await this.slots.slotAt(
          tx,
          hospital.id,
          a.provider_id,
          a.department_id,
          new Date(a.start_at),
        );
        if (slot && !slot.types.includes(body.appointment_type))
          throw badRequest({ appointment_type: ['appointments.type_not_allowed'] });
      }
      await updateAppointmentFields(tx, id, body);
      return { fields: Object.keys(body) };
    });
  }

  async confirm(ctx: ServiceContext, id: string) {
    return this.change(ctx, id, 'appointment.confirm', async (tx, a) => {
      AppointmentsService.requireMove(a, 'confirmed');
      await markAppointment(tx, id, 'confirmed');
      return { from: a.status };
    });
  }

  async cancel(ctx: ServiceContext, id: string, reason: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    return this.change(ctx, id, 'appointment.cancel', async (tx, a, notify) => {
      AppointmentsService.requireMove(a, 'cancelled');
      await cancelAppointment(tx, id, reason, me);
      const start = new Date(a.start_at);
      await releasePlace(tx, hospital.id, a.provider_id, start.toISOString(), a.overbooked);
      await this.tell(tx, notify, ctx, 'cancelled', {
        id,
        provider: a.provider_id,
        patient: a.patient_id,
        start,
      });
      return { from: a.status, reason };
    });
  }

  /** The patient did not come: once the appointment's time has come. The place stays used. */
  async noShow(ctx: ServiceContext, id: string) {
    return this.change(ctx, id, 'appointment.no_show', async (tx, a) => {
      AppointmentsService.requireMove(a, 'no_show');
      if (new Date(a.start_at).getTime() > this.now().getTime()) throw conflict('appointments.not_started');
      await markAppointment(tx, id, 'no_show');
      return { from: a.status };
    });
  }

  async complete(ctx: ServiceContext, id: string) {
    return this.change(ctx, id, 'appointment.complete', async (tx, a) => {
      AppointmentsService.requireMove(a, 'completed');
      await markAppointment(tx, id, 'completed');
      return { from: a.status };
    });
  }

  /**
   * Moves an appointment to another slot (of the same or another provider or department): the old place is given
   * back, the new one taken under the same capacity rule, and a row of `appointment_moves` keeps where it was.
   */
  async reschedule(ctx: ServiceContext, id: string, body: TAppointmentReschedule) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    if (body.overbook && !mayAct(ctx, 'appointment.overbook'))
      throw forbidden('appointments.overbook_forbidden');
    const start = new Date(body.start);
    try {
      return await this.change(ctx, id, 'appointment.reschedule', async (tx, a, notify) => {
        if (!isOpenAppointment(a.status)) throw conflict('appointments.closed');
        const provider = body.provider ?? a.provider_id;
        const department = body.department ?? a.department_id;
        const oldStart = new Date(a.start_at);
        if (provider === a.provider_id && start.getTime() === oldStart.getTime())
          throw badRequest({ start: ['appointments.same_slot'] });
        if (department !== a.department_id) await this.slots.checkDepartment(tx, hospital.id, department);
        if (provider !== a.provider_id) await this.slots.checkProvider(tx, hospital.id, provider);
        const slot = await this.slots.requireSlot(tx, hospital.id, {
          provider,
          department,
          start,
          type: a.appointment_type,
        });
        await releasePlace(tx, hospital.id, a.provider_id, oldStart.toISOString(), a.overbooked);
        const overbooked = await this.slots.takePlace(
          tx,
          hospital.id,
          provider,
          start,
          slot.capacity,
          body.overbook === true,
        );
        await moveAppointment(tx, hospital.id, a, {
          moveId: uuidv7(),
          provider,
          department,
          schedule: slot.schedule,
          start,
          end: slot.end,
          overbooked,
          reason: body.reason,
          by: me,
        });
        await this.tell(tx, notify, ctx, 'moved', { id, provider, patient: a.patient_id, start });
        if (provider !== a.provider_id)
          await this.tell(tx, notify, ctx, 'cancelled', {
            id,
            provider: a.provider_id,
            patient: a.patient_id,
            start: oldStart,
          });
        return { from: oldStart.toISOString(), to: start.toISOString(), provider, overbooked };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('appointments.patient_already_booked');
      throw err;
    }
  }

  /**
   * Check-in at the desk, on the appointment's day: opens the visit (admission) in the appointment's department and
   * links it, in one transaction. The booking named its practitioner, so the visit is then assigned to them as the
   * desk's assignment would (the consultation execution, `execution_assigned` to the doctor): the patient is in the
   * doctor's queue at once. A provider who takes no visits (not a practitioner of the hospital any more) leaves the
   * visit waiting in the department's queue, for the queue manager to assign.
   */
  async checkIn(ctx: ServiceContext, id: string): Promise<TCheckInResult> {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    let admissionId = '';
    let providerId = '';
    const appointment = await this.change(ctx, id, 'appointment.check_in', async (tx, a) => {
      AppointmentsService.requireMove(a, 'checked_in');
      const zone = await hospitalZone(tx, hospital.id);
      if (zonedDate(new Date(a.start_at), zone) !== zonedDate(this.now(), zone))
        throw conflict('appointments.not_today');
      const types = admissionTypesFor(await departmentKind(tx, a.department_id));
      const admissionType = types.includes('outpatient')
        ? 'outpatient'
        : types.includes('maternity')
          ? 'maternity'
          : types[0];
      if (!admissionType) throw new ApiError(409, 'appointments.department_no_visits');
      const visit = await this.admissions.openVisit(tx, hospital.id, me, {
        patient: a.patient_id,
        department: a.department_id,
        admission_type: admissionType,
        reason: a.reason,
      });
      admissionId = visit.id;
      providerId = a.provider_id;
      await markCheckedIn(tx, id, visit.id);
      return { admission: visit.id, queue_number: visit.queueNumber, from: a.status };
    });
    if (await findDoctor(this.app.db, hospital.id, providerId))
      await this.queues.assign(ctx, admissionId, providerId);
    const admission = (await findAdmissionView(this.app.db, hospital.id, admissionId))!;
    return {
      appointment,
      admission: {
        id: admission.id,
        status: admission.status,
        queue_number: admission.queue_number,
        queue_date: admission.queue_date,
        department: admission.department,
      },
    };
  }
}

/** `HH:MM` on `YYYY-MM-DD` in the time zone (notification texts). */
export function localTime(at: Date, zone: string): string {
  const date = zonedDate(at, zone);
  const t = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${date} ${t}`;
}
