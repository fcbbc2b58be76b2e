import type {
  TBookingsConflict,
  TScheduleCreate,
  TScheduleExceptionCreate,
} from '@greensen/shared/contracts/appointments';
import {
  type ExpandedSlot,
  expandSlots,
  type OnBookings,
  sessionsOverlap,
} from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  cancelOpenAppointments,
  hospitalZone,
  type OpenBooking,
  openBookings,
  releasePlace,
} from './appointments.repository.js';
import {
  deactivateSchedule,
  deleteException,
  deleteHoliday,
  findException,
  findHoliday,
  findSchedule,
  insertException,
  insertHoliday,
  insertSchedule,
  listExceptions,
  listHolidays,
  listSchedules,
  lockProviderSchedules,
  slotSchedules,
  updateSchedule,
} from './schedules.repository.js';
import type { SlotsService } from './slots.service.js';

type ScheduleChange = Partial<TScheduleCreate> & {
  on_bookings?: OnBookings | undefined;
  cancel_reason?: string | undefined;
};

/**
 * Providers' schedules, their exceptions and the hospital's holidays (issue 22, decision 0028; the slots they
 * give are slots.service.ts). A change that leaves future bookings out of the schedule answers 409 with them unless it says what to do
 * (`keep` or `cancel` with a reason); the provider is told (`schedule`, and `appointment` per cancelled booking).
 */
export class SchedulesService {
  constructor(
    private readonly app: FastifyInstance,
    private readonly slots: SlotsService,
  ) {}

  now(): Date {
    return this.app.jobs.now();
  }

  // Schedules -----------------------------------------------------------------------------------------------

  async list(
    ctx: ServiceContext,
    f: { provider?: string | undefined; department?: string | undefined; active?: boolean | undefined },
    page: number,
    pageSize: number,
  ) {
    return listSchedules(this.app.db, scopedHospital(ctx).id, f, pageSize, (page - 1) * pageSize);
  }

  async get(ctx: ServiceContext, id: string) {
    const s = await findSchedule(this.app.db, scopedHospital(ctx).id, id);
    if (!s) throw notFound();
    return s;
  }

  /** Another active schedule of the provider whose validity and sessions overlap these: 409. */
  private async checkNoOverlap(
    tx: Tx,
    hospitalId: string,
    s: {
      id?: string;
      provider: string;
      sessions: TScheduleCreate['sessions'];
      valid_from: string;
      valid_until?: string | null | undefined;
    },
  ) {
    const others = await slotSchedules(
      tx,
      hospitalId,
      { provider: s.provider },
      s.valid_from,
      s.valid_until ?? '9999-12-31',
    );
    for (const o of others)
      if (o.id !== s.id && sessionsOverlap([...o.sessions, ...s.sessions]))
        throw new ApiError(409, 'appointments.schedule_overlap');
  }

  async create(ctx: ServiceContext, body: TScheduleCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await withNotifications(this.app, async (tx, notify) => {
      await this.slots.checkProvider(tx, hospital.id, body.provider);
      await this.slots.checkDepartment(tx, hospital.id, body.department);
      await lockProviderSchedules(tx, body.provider);
      await this.checkNoOverlap(tx, hospital.id, body);
      const id = uuidv7();
      await insertSchedule(tx, { ...body, id, hospitalId: hospital.id, by: me });
      await this.tellSchedule(notify, hospital.id, me, body.provider, 'created', id);
      await this.app.audit.record(
        ctx,
        {
          action: 'schedule.create',
          resourceType: 'schedule',
          resourceId: id,
          details: { provider: body.provider },
        },
        tx,
      );
      return id;
    });
    return (await findSchedule(this.app.db, hospital.id, id))!;
  }

  /**
   * Changes a schedule. Future open bookings whose time is no longer a slot of the changed schedule are
   * "affected": 409 with them, unless `on_bookings` is `keep` (they stay) or `cancel` (cancelled with the reason).
   */
  async update(ctx: ServiceContext, id: string, change: ScheduleChange) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const { on_bookings, cancel_reason, ...fields } = change;
    await withNotifications(this.app, async (tx, notify) => {
      const current = await findSchedule(tx, hospital.id, id, true);
      if (!current) throw notFound();
      if (!current.active) throw new ApiError(409, 'appointments.schedule_ended');
      const next = {
        id,
        provider: current.provider.id,
        department: current.department.id,
        sessions: fields.sessions ?? current.sessions,
        slot_minutes: fields.slot_minutes ?? current.slot_minutes,
        capacity: fields.capacity ?? current.capacity,
        types: fields.types ?? current.types,
        valid_from: fields.valid_from ?? current.valid_from,
        valid_until: fields.valid_until !== undefined ? fields.valid_until : current.valid_until,
      };
      if (next.valid_until && next.valid_until < next.valid_from)
        throw badRequest({ valid_until: ['appointments.validity_order'] });
      await lockProviderSchedules(tx, next.provider);
      await this.checkNoOverlap(tx, hospital.id, next);
      const zone = await hospitalZone(tx, hospital.id);
      const future = await openBookings(tx, hospital.id, this.now(), { schedule: id });
      const affected = future.filter((b) => !fitsSchedule(next, new Date(b.start), zone));
      await this.settle(tx, ctx, notify, affected, on_bookings, cancel_reason);
      await updateSchedule(tx, id, {
        ...next,
        note: fields.note !== undefined ? (fields.note ?? null) : current.note,
        by: me,
      });
      await this.tellSchedule(notify, hospital.id, me, next.provider, 'changed', id);
      await this.app.audit.record(
        ctx,
        {
          action: 'schedule.update',
          resourceType: 'schedule',
          resourceId: id,
          details: {
            fields: Object.keys(fields),
            affected: affected.length,
            on_bookings: on_bookings ?? null,
          },
        },
        tx,
      );
    });
    return (await findSchedule(this.app.db, hospital.id, id))!;
  }

  /** Ends a schedule today (kept for history): its future bookings follow the same 409 rule. */
  async end(ctx: ServiceContext, id: string, onBookings: OnBookings | undefined, reason: string | undefined) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const current = await findSchedule(tx, hospital.id, id, true);
      if (!current) throw notFound();
      if (!current.active) throw new ApiError(409, 'appointments.schedule_ended');
      const affected = await openBookings(tx, hospital.id, this.now(), { schedule: id });
      await this.settle(tx, ctx, notify, affected, onBookings, reason);
      await deactivateSchedule(tx, id, me);
      await this.tellSchedule(notify, hospital.id, me, current.provider.id, 'ended', id);
      await this.app.audit.record(
        ctx,
        {
          action: 'schedule.end',
          resourceType: 'schedule',
          resourceId: id,
          details: { affected: affected.length, on_bookings: onBookings ?? null },
        },
        tx,
      );
    });
    return (await findSchedule(this.app.db, hospital.id, id))!;
  }

  /** 409 with the affected bookings when the request did not say what to do; cancels them when it says so. */
  private async settle(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    affected: OpenBooking[],
    onBookings: OnBookings | undefined,
    reason: string | undefined,
  ) {
    if (affected.length === 0 || onBookings === 'keep') return;
    if (!onBookings) {
      const body: Omit<TBookingsConflict, 'detail'> = {
        code: 'bookings_affected',
        affected: affected.map(({ schedule_id: _, ...b }) => b),
      };
      throw new ApiError(409, 'appointments.bookings_affected', {
        params: { count: affected.length },
        body,
      });
    }
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const ids = affected.map((b) => b.id);
    const cancelled = await cancelOpenAppointments(tx, hospital.id, ids, reason ?? '', me);
    for (const c of cancelled)
      await releasePlace(tx, hospital.id, c.provider_id, new Date(c.start_at).toISOString(), c.overbooked);
    const byProvider = new Map<string, number>();
    for (const c of cancelled) byProvider.set(c.provider_id, (byProvider.get(c.provider_id) ?? 0) + 1);
    for (const [provider, count] of byProvider)
      if (provider !== me)
        await notify({
          hospitalId: hospital.id,
          recipients: [provider],
          type: 'appointment',
          title: { key: 'appointments.notify.bulk_cancelled.title' },
          message: {
            key: 'appointments.notify.bulk_cancelled.message',
            params: { count, reason: reason ?? '' },
          },
          data: { action: 'appointments_cancelled', appointment_ids: cancelled.map((r) => r.id) },
          initiatedBy: me,
        });
  }

  private async tellSchedule(
    notify: Notify,
    hospitalId: string,
    me: string,
    provider: string,
    what: 'created' | 'changed' | 'ended' | 'exception',
    id: string,
  ) {
    if (provider === me) return;
    await notify({
      hospitalId,
      recipients: [provider],
      type: 'schedule',
      title: { key: `appointments.notify.schedule_${what}.title` },
      message: { key: `appointments.notify.schedule_${what}.message` },
      data: {
        action: `schedule_${what}`,
        ...(what === 'exception' ? { exception_id: id } : { schedule_id: id }),
      },
      initiatedBy: me,
    });
  }

  // Exceptions ----------------------------------------------------------------------------------------------

  async exceptions(
    ctx: ServiceContext,
    f: { provider?: string | undefined; from?: string | undefined; to?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    return listExceptions(
      this.app.db,
      scopedHospital(ctx).id,
      { providers: f.provider ? [f.provider] : undefined, from: f.from, to: f.to },
      pageSize,
      (page - 1) * pageSize,
    );
  }

  /** Leave or training of a provider: head doctors and administrators for anyone, a provider for themself. */
  async addException(ctx: ServiceContext, body: TScheduleExceptionCreate) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await withNotifications(this.app, async (tx, notify) => {
      // An unknown provider (or another hospital's) is a 400 on the field for everyone, before the own-absence rule.
      await this.slots.checkProvider(tx, hospital.id, body.provider);
      if (body.provider !== me && !mayAct(ctx, 'schedule.manage'))
        throw forbidden('appointments.own_exceptions');
      const zone = await hospitalZone(tx, hospital.id);
      const from = zonedInstant(body.start_date, '00:00', zone);
      const until = zonedInstant(addDays(body.end_date, 1), '00:00', zone);
      const affected = await openBookings(
        tx,
        hospital.id,
        new Date(Math.max(from.getTime(), this.now().getTime())),
        { provider: body.provider },
        until,
      );
      await this.settle(tx, ctx, notify, affected, body.on_bookings, body.cancel_reason);
      const id = uuidv7();
      await insertException(tx, { ...body, id, hospitalId: hospital.id, by: me });
      await this.tellSchedule(notify, hospital.id, me, body.provider, 'exception', id);
      await this.app.audit.record(
        ctx,
        {
          action: 'schedule.exception_create',
          resourceType: 'schedule_exception',
          resourceId: id,
          details: {
            provider: body.provider,
            affected: affected.length,
            on_bookings: body.on_bookings ?? null,
          },
        },
        tx,
      );
      return id;
    });
    return (await findException(this.app.db, hospital.id, id))!;
  }

  async removeException(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await this.app.db.transaction(async (tx) => {
      const e = await findException(tx, hospital.id, id);
      if (!e) throw notFound();
      if (e.provider.id !== me && !mayAct(ctx, 'schedule.manage'))
        throw forbidden('appointments.own_exceptions');
      await deleteException(tx, id);
      await this.app.audit.record(
        ctx,
        {
          action: 'schedule.exception_delete',
          resourceType: 'schedule_exception',
          resourceId: id,
          details: { provider: e.provider.id, start_date: e.start_date, end_date: e.end_date },
        },
        tx,
      );
    });
  }

  // Holidays ------------------------------------------------------------------------------------------------

  async holidays(
    ctx: ServiceContext,
    f: { from?: string | undefined; to?: string | undefined },
    page: number,
    size: number,
  ) {
    return listHolidays(this.app.db, scopedHospital(ctx).id, f, size, (page - 1) * size);
  }

  async addHoliday(
    ctx: ServiceContext,
    body: {
      date: string;
      name: string;
      on_bookings?: OnBookings | undefined;
      cancel_reason?: string | undefined;
    },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = uuidv7();
    try {
      await withNotifications(this.app, async (tx, notify) => {
        const zone = await hospitalZone(tx, hospital.id);
        const from = zonedInstant(body.date, '00:00', zone);
        const until = zonedInstant(addDays(body.date, 1), '00:00', zone);
        const affected = await openBookings(
          tx,
          hospital.id,
          new Date(Math.max(from.getTime(), this.now().getTime())),
          {},
          until,
        );
        await this.settle(tx, ctx, notify, affected, body.on_bookings, body.cancel_reason);
        await insertHoliday(tx, { id, hospitalId: hospital.id, date: body.date, name: body.name, by: me });
        await this.app.audit.record(
          ctx,
          {
            action: 'holiday.create',
            resourceType: 'holiday',
            resourceId: id,
            details: { date: body.date, affected: affected.length },
          },
          tx,
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest({ date: ['appointments.holiday_exists'] });
      throw err;
    }
    return (await findHoliday(this.app.db, id))!;
  }

  async removeHoliday(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const date = await deleteHoliday(tx, hospital.id, id);
      if (date === null) throw notFound();
      await this.app.audit.record(
        ctx,
        {
          action: 'holiday.delete',
          resourceType: 'holiday',
          resourceId: id,
          details: { date },
        },
        tx,
      );
    });
  }
}

/** Whether `start` is a slot of the (changed) schedule, ignoring exceptions and holidays. */
function fitsSchedule(
  s: {
    id: string;
    provider: string;
    department: string;
    sessions: TScheduleCreate['sessions'];
    slot_minutes: number;
    capacity: number;
    types: TScheduleCreate['types'];
    valid_from: string;
    valid_until?: string | null | undefined;
  },
  start: Date,
  zone: string,
): boolean {
  const date = zonedDate(start, zone);
  const slots: ExpandedSlot[] = expandSlots({
    schedules: [{ ...s, valid_until: s.valid_until ?? null }],
    exceptions: [],
    holidays: [],
    from: date,
    to: date,
    timeZone: zone,
  });
  return slots.some((x) => x.start.getTime() === start.getTime());
}
