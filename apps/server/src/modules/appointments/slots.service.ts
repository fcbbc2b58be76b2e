import type { TSlot } from '@greensen/shared/contracts/appointments';
import {
  type AppointmentType,
  expandSlots,
  SLOT_SEARCH_MAX_DAYS,
  SLOT_SEARCH_MAX_RESULTS,
} from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import { roleGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isCheckViolation } from '../../lib/errors.js';
import {
  countPlace,
  hospitalZone,
  lockSlotCounter,
  PROVIDER_GROUPS,
  slotCounts,
  takeSlotPlace,
} from './appointments.repository.js';
import {
  absenceRanges,
  activeDepartmentKind,
  activeMembers,
  activeRolesOf,
  holidayDates,
  scheduledProviders,
  slotSchedules,
} from './schedules.repository.js';

const DAY_MS = 86_400_000;

/** The number of days from `from` to `to` inclusive. */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/**
 * Who may be booked and where (issue 22, decision 0028): the providers and departments a schedule or a booking
 * names, the providers' pickers, the slots the schedules give once exceptions and holidays are taken out (the
 * free-slot search and the slot a booking asks for), and the places a booking takes in its slot.
 */
export class SlotsService {
  constructor(private readonly app: FastifyInstance) {}

  now(): Date {
    return this.app.jobs.now();
  }

  /** A member of the hospital who sees patients (doctor, head doctor, midwife, nurse), else 400 on `field`. */
  async checkProvider(q: Queryable, hospitalId: string, providerId: string, field = 'provider') {
    const roles = await activeRolesOf(q, hospitalId, providerId);
    if (!roles.some((role) => (PROVIDER_GROUPS as readonly string[]).includes(roleGroup(role))))
      throw badRequest({ [field]: ['appointments.provider_unknown'] });
  }

  async checkDepartment(q: Queryable, hospitalId: string, departmentId: string) {
    const kind = await activeDepartmentKind(q, hospitalId, departmentId);
    if (kind === null) throw badRequest({ department: ['appointments.department_unknown'] });
    return kind;
  }

  /**
   * The providers with an active schedule, with its departments (the pickers of the calendar and booking form);
   * with `unscheduled`, also every active member who may have a schedule (PROVIDER_GROUPS), with no departments when
   * they have none yet: the new-schedule dialog, for those who manage schedules only (else 403).
   */
  async providers(ctx: ServiceContext, query: { department?: string | undefined; unscheduled?: boolean }) {
    const hospital = scopedHospital(ctx);
    if (query.unscheduled && !mayAct(ctx, 'schedule.manage')) throw forbidden();
    const rows = await scheduledProviders(this.app.db, hospital.id, query.department);
    type Provider = {
      id: string;
      full_name: string;
      departments: { id: string; code: string; name: string; kind: string }[];
    };
    const byId = new Map<string, Provider>();
    for (const r of rows) {
      let p = byId.get(r.id);
      if (!p) {
        p = { id: r.id, full_name: `${r.first_name} ${r.last_name}`.trim(), departments: [] };
        byId.set(r.id, p);
      }
      p.departments.push({ id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind });
    }
    if (!query.unscheduled) return { results: [...byId.values()] };
    // Every active member whose role sees patients (the same rule as checkProvider), in name order.
    const members = await activeMembers(this.app.db, hospital.id);
    const all = new Map<string, Provider>();
    for (const m of members) {
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

  // Places ------------------------------------------------------------------------------------------------

  /**
   * Takes a place of the slot: the counter row is upserted (locked), and `check (booked <= capacity)` refuses a
   * place beyond the capacity, whatever the concurrency: 409. An overbooking (head doctor, `overbook: true`) takes
   * a normal place while there is one, else counts apart and is flagged. Returns whether it is an overbooking.
   */
  async takePlace(
    tx: Tx,
    hospitalId: string,
    provider: string,
    start: Date,
    capacity: number,
    overbook: boolean,
  ): Promise<boolean> {
    const at = start.toISOString();
    if (!overbook) {
      try {
        await takeSlotPlace(tx, hospitalId, provider, at, capacity);
      } catch (err) {
        if (isCheckViolation(err)) throw conflict('appointments.slot_full');
        throw err;
      }
      return false;
    }
    const row = await lockSlotCounter(tx, hospitalId, provider, at, capacity);
    const full = row.booked >= Math.min(row.capacity, capacity);
    await countPlace(tx, hospitalId, provider, at, full);
    return full;
  }

  /** The slot a booking or a move asks for: 400 when it is not one, is past, or does not take the type. */
  async requireSlot(
    q: Queryable,
    hospitalId: string,
    target: { provider: string; department: string; start: Date; type: string },
  ) {
    if (target.start.getTime() <= this.now().getTime())
      throw badRequest({ start: ['appointments.slot_past'] });
    const slot = await this.slotAt(q, hospitalId, target.provider, target.department, target.start);
    if (!slot) throw badRequest({ start: ['appointments.not_a_slot'] });
    if (!slot.types.includes(target.type as never))
      throw badRequest({ appointment_type: ['appointments.type_not_allowed'] });
    return slot;
  }
}
