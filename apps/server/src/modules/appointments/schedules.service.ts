import type {
  TBookingsConflict,
  TScheduleCreate,
  TScheduleExceptionCreate,
  TSlot,
} from '@greensen/shared/contracts/appointments';
import {
  type AppointmentType,
  type ExpandedSlot,
  expandSlots,
  type OnBookings,
  SLOT_SEARCH_MAX_DAYS,
  SLOT_SEARCH_MAX_RESULTS,
  sessionsOverlap,
} from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import { roleGroup } from '@greensen/shared/domain/roles';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { uuidv7 } from '../../db/schema/common.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  absenceRanges,
  findException,
  findSchedule,
  holidayDates,
  hospitalZone,
  listExceptions,
  listSchedules,
  type OpenBooking,
  openBookings,
  PROVIDER_GROUPS,
  releasePlace,
  slotCounts,
  slotSchedules,
} from './appointments.repository.js';

const DAY_MS = 86_400_000;

/** The number of days from `from` to `to` inclusive. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

type ScheduleChange = Partial<TScheduleCreate> & {
  on_bookings?: OnBookings | undefined;
  cancel_reason?: string | undefined;
};

/**
 * Providers' schedules, their exceptions, the hospital's holidays and the free-slot search (issue 22, decision
 * 0028). A change that leaves future bookings out of the schedule answers 409 with them unless it says what to do
 * (`keep` or `cancel` with a reason); the provider is told (`schedule`, and `appointment` per cancelled booking).
 */
export class SchedulesService {
  constructor(private readonly app: FastifyInstance) {}

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

  /** A member of the hospital who sees patients (doctor, head doctor, midwife, nurse), else 400 on `field`. */
  async checkProvider(q: Queryable, hospitalId: string, providerId: string, field = 'provider') {
    const res = await q.execute<{ role_code: string }>(sql`select m.role_code from memberships m
      join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.user_id = ${providerId} and m.is_active and u.is_active`);
    if (!res.rows.some((r) => (PROVIDER_GROUPS as readonly string[]).includes(roleGroup(r.role_code))))
      throw badRequest({ [field]: ['appointments.provider_unknown'] });
  }

  async checkDepartment(q: Queryable, hospitalId: string, departmentId: string) {
    const res = await q.execute<{ kind: string }>(sql`select kind from departments
      where hospital_id = ${hospitalId} and id = ${departmentId} and is_active`);
    if (!res.rows[0]) throw badRequest({ department: ['appointments.department_unknown'] });
    return res.rows[0].kind;
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
      await this.checkProvider(tx, hospital.id, body.provider);
      await this.checkDepartment(tx, hospital.id, body.department);
      // Serializes two changes of one provider's schedules (the overlap check reads the others).
      await tx.execute(sql`select id from users where id = ${body.provider} for update`);
      await this.checkNoOverlap(tx, hospital.id, body);
      const id = uuidv7();
      await tx.execute(sql`insert into provider_schedules (id, hospital_id, provider_id, department_id, sessions,
          slot_minutes, capacity, types, valid_from, valid_until, note, created_by, updated_by)
        values (${id}, ${hospital.id}, ${body.provider}, ${body.department}, ${JSON.stringify(body.sessions)}::jsonb,
          ${body.slot_minutes}, ${body.capacity}, ${`{${body.types.join(',')}}`}::appointment_type[],
          ${body.valid_from}::date, ${body.valid_until ?? null}::date, ${body.note ?? null}, ${me}, ${me})`);
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
      await tx.execute(sql`select id from users where id = ${next.provider} for update`);
      await this.checkNoOverlap(tx, hospital.id, next);
      const zone = await hospitalZone(tx, hospital.id);
      const future = await openBookings(tx, hospital.id, this.now(), sql`a.schedule_id = ${id}`);
      const affected = future.filter((b) => !fitsSchedule(next, new Date(b.start), zone));
      await this.settle(tx, ctx, notify, affected, on_bookings, cancel_reason);
      await tx.execute(sql`update provider_schedules set sessions = ${JSON.stringify(next.sessions)}::jsonb,
          slot_minutes = ${next.slot_minutes}, capacity = ${next.capacity},
          types = ${`{${next.types.join(',')}}`}::appointment_type[], valid_from = ${next.valid_from}::date,
          valid_until = ${next.valid_until ?? null}::date,
          note = ${fields.note !== undefined ? (fields.note ?? null) : current.note},
          updated_at = now(), updated_by = ${me}
        where id = ${id}`);
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
      const affected = await openBookings(tx, hospital.id, this.now(), sql`a.schedule_id = ${id}`);
      await this.settle(tx, ctx, notify, affected, onBookings, reason);
      await tx.execute(sql`update provider_schedules set active = false, updated_at = now(), updated_by = ${me}
        where id = ${id}`);
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
    const cancelled = await tx.execute<{
      id: string;
      provider_id: string;
      start_at: Date | string;
      overbooked: boolean;
    }>(sql`update appointments set status = 'cancelled', cancel_reason = ${reason ?? ''}, cancelled_at = now(),
        cancelled_by = ${me}, updated_at = now()
      where hospital_id = ${hospital.id} and id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}) and status in ('booked', 'confirmed')
      returning id, provider_id, start_at, overbooked`);
    for (const c of cancelled.rows)
      await releasePlace(tx, hospital.id, c.provider_id, new Date(c.start_at).toISOString(), c.overbooked);
    const byProvider = new Map<string, number>();
    for (const c of cancelled.rows) byProvider.set(c.provider_id, (byProvider.get(c.provider_id) ?? 0) + 1);
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
          data: { action: 'appointments_cancelled', appointment_ids: cancelled.rows.map((r) => r.id) },
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
      await this.checkProvider(tx, hospital.id, body.provider);
      if (body.provider !== me && !mayAct(ctx, 'schedule.manage'))
        throw forbidden('appointments.own_exceptions');
      const zone = await hospitalZone(tx, hospital.id);
      const from = zonedInstant(body.start_date, '00:00', zone);
      const until = zonedInstant(addDays(body.end_date, 1), '00:00', zone);
      const affected = await openBookings(
        tx,
        hospital.id,
        new Date(Math.max(from.getTime(), this.now().getTime())),
        sql`a.provider_id = ${body.provider}`,
        until,
      );
      await this.settle(tx, ctx, notify, affected, body.on_bookings, body.cancel_reason);
      const id = uuidv7();
      await tx.execute(sql`insert into schedule_exceptions (id, hospital_id, provider_id, start_date, end_date, kind,
          reason, created_by)
        values (${id}, ${hospital.id}, ${body.provider}, ${body.start_date}::date, ${body.end_date}::date, ${body.kind},
          ${body.reason ?? null}, ${me})`);
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
      await tx.execute(sql`delete from schedule_exceptions where id = ${id}`);
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
    const hospital = scopedHospital(ctx);
    const conds: SQL[] = [sql`hospital_id = ${hospital.id}`];
    if (f.from) conds.push(sql`date >= ${f.from}::date`);
    if (f.to) conds.push(sql`date <= ${f.to}::date`);
    const where = sql.join(conds, sql` and `);
    const rows = await this.app.db.execute<{
      id: string;
      date: string;
      name: string;
      created_at: Date | string;
    }>(
      sql`select id, date::text as date, name, created_at from hospital_holidays where ${where}
        order by date limit ${size} offset ${(page - 1) * size}`,
    );
    const counted = await this.app.db.execute<{ n: number }>(
      sql`select count(*)::int as n from hospital_holidays where ${where}`,
    );
    return {
      count: Number(counted.rows[0]?.n ?? 0),
      rows: rows.rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    };
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
          sql`true`,
          until,
        );
        await this.settle(tx, ctx, notify, affected, body.on_bookings, body.cancel_reason);
        await tx.execute(sql`insert into hospital_holidays (id, hospital_id, date, name, created_by)
          values (${id}, ${hospital.id}, ${body.date}::date, ${body.name}, ${me})`);
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
    const res = await this.app.db.execute<{
      id: string;
      date: string;
      name: string;
      created_at: Date | string;
    }>(sql`select id, date::text as date, name, created_at from hospital_holidays where id = ${id}`);
    const r = res.rows[0]!;
    return { ...r, created_at: new Date(r.created_at).toISOString() };
  }

  async removeHoliday(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    await this.app.db.transaction(async (tx) => {
      const res = await tx.execute<{ date: string }>(
        sql`delete from hospital_holidays where hospital_id = ${hospital.id} and id = ${id} returning date::text as date`,
      );
      if (!res.rows[0]) throw notFound();
      await this.app.audit.record(
        ctx,
        {
          action: 'holiday.delete',
          resourceType: 'holiday',
          resourceId: id,
          details: { date: res.rows[0].date },
        },
        tx,
      );
    });
  }

  // Providers and slots -------------------------------------------------------------------------------------

  /**
   * The providers with an active schedule, with its departments (the pickers of the calendar and booking form);
   * with `unscheduled`, also every active member who may have a schedule (PROVIDER_GROUPS), with no departments when
   * they have none yet: the new-schedule dialog, for those who manage schedules only (else 403).
   */
  async providers(ctx: ServiceContext, query: { department?: string | undefined; unscheduled?: boolean }) {
    const hospital = scopedHospital(ctx);
    if (query.unscheduled && !mayAct(ctx, 'schedule.manage')) throw forbidden();
    const res = await this.app.db.execute<{
      id: string;
      first_name: string;
      last_name: string;
      d_id: string;
      d_code: string;
      d_name: string;
      d_kind: string;
    }>(sql`select distinct u.id, u.first_name, u.last_name, d.id as d_id, d.code as d_code, d.name as d_name,
        d.kind as d_kind
      from provider_schedules s join users u on u.id = s.provider_id join departments d on d.id = s.department_id
      where s.hospital_id = ${hospital.id} and s.active
        ${query.department ? sql`and s.department_id = ${query.department}` : sql``}
      order by u.last_name, u.first_name, u.id, d.name`);
    type Provider = {
      id: string;
      full_name: string;
      departments: { id: string; code: string; name: string; kind: string }[];
    };
    const byId = new Map<string, Provider>();
    for (const r of res.rows) {
      let p = byId.get(r.id);
      if (!p) {
        p = { id: r.id, full_name: `${r.first_name} ${r.last_name}`.trim(), departments: [] };
        byId.set(r.id, p);
      }
      p.departments.push({ id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind });
    }
    if (!query.unscheduled) return { results: [...byId.values()] };
    // Every active member whose role sees patients (the same rule as checkProvider), in name order.
    const members = await this.app.db.execute<{
      id: string;
      first_name: string;
      last_name: string;
      role_code: string;
    }>(sql`select distinct u.id, u.first_name, u.last_name, m.role_code
      from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospital.id} and m.is_active and u.is_active
      order by u.last_name, u.first_name, u.id`);
    const all = new Map<string, Provider>();
    for (const m of members.rows) {
      if (all.has(m.id) || !(PROVIDER_GROUPS as readonly string[]).includes(roleGroup(m.role_code))) continue;
      all.set(
        m.id,
        byId.get(m.id) ?? { id: m.id, full_name: `${m.first_name} ${m.last_name}`.trim(), departments: [] },
      );
    }
    return { results: [...all.values()] };
  }

  /**
   * The slots of a provider or a department over `from`–`to`: the active schedules, the providers' exceptions,
   * the holidays and the slot counters in four queries, the weekly templates expanded in one pass in memory.
   */
  async slots(
    ctx: ServiceContext,
    query: {
      provider?: string | undefined;
      department?: string | undefined;
      from: string;
      to: string;
      type?: AppointmentType | undefined;
      free_only: boolean;
      first_available: boolean;
      limit: number;
    },
  ) {
    const hospital = scopedHospital(ctx);
    if (daysBetween(query.from, query.to) > SLOT_SEARCH_MAX_DAYS)
      throw badRequest({ to: ['appointments.range_too_long'] });
    const q = this.app.db;
    const target = { provider: query.provider, department: query.department };
    // Four independent statements at once (a pool runs them side by side; the embedded engine one after another).
    const [zone, schedules, absences, holidays] = await Promise.all([
      hospitalZone(q, hospital.id),
      slotSchedules(q, hospital.id, target, query.from, query.to),
      absenceRanges(q, hospital.id, target, query.from, query.to),
      holidayDates(q, hospital.id, query.from, query.to),
    ]);
    const providers = [...new Set(schedules.map((s) => s.provider))];
    const names = new Map(schedules.map((s) => [s.provider, s.provider_name]));
    const now = this.now().getTime();
    const limit = Math.min(query.limit, SLOT_SEARCH_MAX_RESULTS);
    const freeOnly = query.free_only;
    const seen = new Set<string>();
    const results: TSlot[] = [];
    let truncated = false;
    let done = providers.length === 0;
    // By chunks of days (the first day alone, then weeks): the counters of a chunk in one query, its slots expanded
    // in one pass, and the search stops as soon as the answer is full — most searches read a day or a week.
    // Free slots start no earlier than today.
    const today = zonedDate(new Date(now), zone);
    let chunkFrom = freeOnly && query.from < today ? today : query.from;
    for (let size = 1; !done && chunkFrom <= query.to; size = 7) {
      const last = addDays(chunkFrom, size - 1);
      const chunkTo = last < query.to ? last : query.to;
      const counts = await slotCounts(
        q,
        hospital.id,
        providers,
        zonedInstant(chunkFrom, '00:00', zone),
        zonedInstant(addDays(chunkTo, 1), '00:00', zone),
      );
      const expanded = expandSlots({
        schedules,
        exceptions: absences,
        holidays,
        from: chunkFrom,
        to: chunkTo,
        timeZone: zone,
      });
      for (const s of expanded) {
        if (query.type && !s.types.includes(query.type)) continue;
        const start = s.start.toISOString();
        const booked = counts.get(`${s.provider}|${start}`) ?? 0;
        const free = Math.max(0, s.capacity - booked);
        if (freeOnly && (free === 0 || s.start.getTime() <= now)) continue;
        if (query.first_available) {
          if (seen.has(s.provider)) continue;
          seen.add(s.provider);
        }
        if (results.length >= limit) {
          truncated = true;
          done = true;
          break;
        }
        results.push({
          start,
          end: s.end.toISOString(),
          provider: { id: s.provider, full_name: names.get(s.provider) ?? '' },
          department: s.department,
          schedule: s.schedule,
          capacity: s.capacity,
          booked,
          free,
          types: [...s.types],
        });
        if (query.first_available && seen.size === providers.length) {
          done = true;
          break;
        }
      }
      chunkFrom = addDays(chunkTo, 1);
    }
    return { results, truncated, time_zone: zone };
  }

  /**
   * The slot of `provider` in `department` starting at `start` (its schedule, end, capacity and types), or null
   * when no active schedule has one then (or the provider is away, or it is a holiday).
   */
  async slotAt(q: Queryable, hospitalId: string, provider: string, department: string, start: Date) {
    const zone = await hospitalZone(q, hospitalId);
    const date = zonedDate(start, zone);
    const schedules = await slotSchedules(q, hospitalId, { provider, department }, date, date);
    if (schedules.length === 0) return null;
    const exceptions = await absenceRanges(q, hospitalId, { provider }, date, date);
    const holidays = await holidayDates(q, hospitalId, date, date);
    const slots = expandSlots({
      schedules,
      exceptions,
      holidays,
      from: date,
      to: date,
      timeZone: zone,
    });
    return slots.find((s) => s.start.getTime() === start.getTime()) ?? null;
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
