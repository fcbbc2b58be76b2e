/**
 * Appointments (issue 22, decision 0028), pure rules shared by the server and the web app: the types and statuses
 * of an appointment, the status transitions, and the expansion of providers' weekly schedules into bookable slots
 * (every wall-clock time in the hospital's IANA time zone, DST-safe through `Intl`).
 */
import { addDays, zonedInstant } from './care.js';

export const APPOINTMENT_TYPES = [
  'new',
  'follow_up',
  'antenatal',
  'vaccination',
  'procedure',
  'other',
] as const;
export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];

export const APPOINTMENT_STATUSES = [
  'booked',
  'confirmed',
  'checked_in',
  'completed',
  'no_show',
  'cancelled',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** `booked → confirmed → checked_in → completed | no_show | cancelled(reason)`. */
export const APPOINTMENT_TRANSITIONS: Readonly<Record<AppointmentStatus, readonly AppointmentStatus[]>> = {
  booked: ['confirmed', 'checked_in', 'no_show', 'cancelled'],
  confirmed: ['checked_in', 'no_show', 'cancelled'],
  checked_in: ['completed'],
  completed: [],
  no_show: [],
  cancelled: [],
};

export function canTransition(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return APPOINTMENT_TRANSITIONS[from].includes(to);
}

/** Statuses that may still be moved to another time (reschedule) or changed by a schedule change. */
export const OPEN_APPOINTMENT_STATUSES: readonly AppointmentStatus[] = ['booked', 'confirmed'];
export function isOpenAppointment(status: AppointmentStatus): boolean {
  return OPEN_APPOINTMENT_STATUSES.includes(status);
}

/** Exception kinds of a provider's schedule (dates on which they see nobody). */
export const SCHEDULE_EXCEPTION_KINDS = ['leave', 'training', 'other'] as const;
export type ScheduleExceptionKind = (typeof SCHEDULE_EXCEPTION_KINDS)[number];

/** What to do with the future bookings a schedule change affects. */
export const ON_BOOKINGS = ['keep', 'cancel'] as const;
export type OnBookings = (typeof ON_BOOKINGS)[number];

export const SLOT_MINUTES_MIN = 5;
export const SLOT_MINUTES_MAX = 240;
export const SLOT_CAPACITY_MAX = 50;
/** The longest range a free-slot search covers, in days. */
export const SLOT_SEARCH_MAX_DAYS = 62;
/** The most slots one search answers. */
export const SLOT_SEARCH_MAX_RESULTS = 500;

export const WEEKDAY_CODES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayCode = (typeof WEEKDAY_CODES)[number];

/** The weekday code of a calendar date `YYYY-MM-DD`. */
export function weekdayOf(date: string): WeekdayCode {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const js = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 = Sunday
  return WEEKDAY_CODES[(js + 6) % 7] as WeekdayCode;
}

/** One session of a weekly template: on a weekday, from `start` to `end` (`HH:MM`, hospital time). */
export interface ScheduleSession {
  weekday: WeekdayCode;
  start: string;
  end: string;
}

/** What slot expansion needs of a schedule. */
export interface SlotSchedule {
  id: string;
  provider: string;
  department: string;
  sessions: readonly ScheduleSession[];
  slot_minutes: number;
  capacity: number;
  types: readonly AppointmentType[];
  /** `YYYY-MM-DD`, inclusive. */
  valid_from: string;
  /** `YYYY-MM-DD`, inclusive; null: open-ended. */
  valid_until: string | null;
}

/** A provider's absence, dates inclusive. */
export interface SlotException {
  provider: string;
  start_date: string;
  end_date: string;
}

export interface ExpandedSlot {
  schedule: string;
  provider: string;
  department: string;
  start: Date;
  end: Date;
  capacity: number;
  types: readonly AppointmentType[];
}

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/**
 * The slots of `schedules` on the dates `[from, to]` (inclusive, `YYYY-MM-DD`, hospital time), minus the providers'
 * exceptions and the hospital's holidays, in start order. A session yields slots of `slot_minutes` from its start
 * while a whole slot fits before its end. One pass, no lookups per slot.
 */
export function expandSlots(input: {
  schedules: readonly SlotSchedule[];
  exceptions: readonly SlotException[];
  holidays: readonly string[];
  from: string;
  to: string;
  timeZone: string;
}): ExpandedSlot[] {
  const holidays = new Set(input.holidays);
  const absent = new Map<string, SlotException[]>();
  for (const e of input.exceptions) {
    const list = absent.get(e.provider) ?? [];
    list.push(e);
    absent.set(e.provider, list);
  }
  const out: ExpandedSlot[] = [];
  for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
    if (holidays.has(date)) continue;
    const weekday = weekdayOf(date);
    const day: ExpandedSlot[] = [];
    // Sessions mostly share their start times: one time-zone conversion per start time and day.
    const instants = new Map<string, number>();
    for (const s of input.schedules) {
      if (date < s.valid_from || (s.valid_until !== null && date > s.valid_until)) continue;
      if (absent.get(s.provider)?.some((e) => e.start_date <= date && date <= e.end_date)) continue;
      for (const session of s.sessions) {
        if (session.weekday !== weekday) continue;
        let begin = instants.get(session.start);
        if (begin === undefined) {
          begin = zonedInstant(date, session.start, input.timeZone).getTime();
          instants.set(session.start, begin);
        }
        const length = minutesOf(session.end) - minutesOf(session.start);
        for (let m = 0; m + s.slot_minutes <= length; m += s.slot_minutes)
          day.push({
            schedule: s.id,
            provider: s.provider,
            department: s.department,
            start: new Date(begin + m * 60_000),
            end: new Date(begin + (m + s.slot_minutes) * 60_000),
            capacity: s.capacity,
            types: s.types,
          });
      }
    }
    // Days come in order: sorting each day (by time, then provider) orders the whole.
    day.sort(
      (a, b) =>
        a.start.getTime() - b.start.getTime() ||
        (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0),
    );
    for (const slot of day) out.push(slot);
  }
  return out;
}

/** Whether two sessions of the same weekday overlap (a template must not book the same minutes twice). */
export function sessionsOverlap(sessions: readonly ScheduleSession[]): boolean {
  for (let i = 0; i < sessions.length; i++)
    for (let j = i + 1; j < sessions.length; j++) {
      const a = sessions[i] as ScheduleSession;
      const b = sessions[j] as ScheduleSession;
      if (a.weekday !== b.weekday) continue;
      if (minutesOf(a.start) < minutesOf(b.end) && minutesOf(b.start) < minutesOf(a.end)) return true;
    }
  return false;
}
