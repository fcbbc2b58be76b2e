/**
 * Nursing care time rules (issue 20, decision 0025), pure: shifts from the hospital's shift times, the slots a
 * care order's schedule generates, the doses a prescription line's frequency calls for, and lateness. Every
 * wall-clock time is in the hospital's IANA time zone (DST-safe through `Intl`).
 */

/** Minutes after its time an execution or a dose still counts as on time. */
export const GRACE_MINUTES = 30;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Standard administration times of "n times a day" (the ward's round times). */
export const DOSE_TIMES: Readonly<Record<number, readonly string[]>> = {
  1: ['08:00'],
  2: ['08:00', '20:00'],
  3: ['08:00', '14:00', '20:00'],
  4: ['06:00', '12:00', '18:00', '00:00'],
};
/** "At night" doses. */
export const NIGHT_DOSE_TIME = '21:00';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a time zone. */
export function zonedParts(at: Date, timeZone: string) {
  const parts = formatter(timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

/** The calendar date (`YYYY-MM-DD`) of an instant in a time zone. */
export function zonedDate(at: Date, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

function offsetMs(at: Date, timeZone: string): number {
  const p = zonedParts(at, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * Instants already computed, by time zone, date and time: the same few (the shift boundaries, the dose times of the
 * days around now) are asked for on every read of a ward's tasks, and each costs two `formatToParts`.
 */
const instants = new Map<string, number>();
const MAX_INSTANTS = 10_000;

/** The instant of a wall-clock date and `HH:MM` in a time zone. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const key = `${timeZone}|${date}|${time}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  const first = guess - offsetMs(new Date(guess), timeZone);
  const second = guess - offsetMs(new Date(first), timeZone);
  if (instants.size >= MAX_INSTANTS) instants.clear();
  instants.set(key, second);
  return new Date(second);
}

/** `YYYY-MM-DD` plus `days`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export interface ShiftWindow {
  start: Date;
  end: Date;
  /** The shift time it starts at. */
  label: string;
}

/** The shift holding `at`, `offset` shifts later (−2…2). `times`: the hospital's `HH:MM` shift times. */
export function shiftAt(at: Date, timeZone: string, times: readonly string[], offset = 0): ShiftWindow {
  const sorted = [...new Set(times)].sort();
  const today = zonedDate(at, timeZone);
  const boundaries: { at: Date; label: string }[] = [];
  for (const day of [-3, -2, -1, 0, 1, 2, 3])
    for (const t of sorted) boundaries.push({ at: zonedInstant(addDays(today, day), t, timeZone), label: t });
  const current = boundaries.findIndex((b, i) => {
    const next = boundaries[i + 1];
    return b.at.getTime() <= at.getTime() && next !== undefined && at.getTime() < next.at.getTime();
  });
  const b = boundaries[current + offset];
  const next = boundaries[current + offset + 1];
  if (current < 0 || !b || !next) throw new RangeError('shift offset out of range');
  return { start: b.at, end: next.at, label: b.label };
}

/** A care order's schedule (contracts/care.ts `ZCareSchedule`). */
export type CareSchedule =
  | { kind: 'once' }
  | { kind: 'every_hours'; hours: number }
  | { kind: 'fixed_times'; times: readonly string[] };

/**
 * The slots of a schedule in `[from, to)`, within the order's life `[startAt, endAt)` (`endAt` null: until
 * stopped). `once` is the start itself; `every_hours` counts from the start; `fixed_times` are wall-clock
 * times of each day from the start's day.
 */
export function scheduleSlots(
  schedule: CareSchedule,
  startAt: Date,
  endAt: Date | null,
  from: Date,
  to: Date,
  timeZone: string,
): Date[] {
  const lo = Math.max(from.getTime(), startAt.getTime());
  const hi = Math.min(to.getTime(), endAt ? endAt.getTime() : Number.POSITIVE_INFINITY);
  if (lo >= hi && schedule.kind !== 'once') return [];
  if (schedule.kind === 'once') {
    const t = startAt.getTime();
    return t >= from.getTime() && t < to.getTime() ? [startAt] : [];
  }
  const out: Date[] = [];
  if (schedule.kind === 'every_hours') {
    const step = schedule.hours * HOUR;
    const n0 = Math.max(0, Math.ceil((lo - startAt.getTime()) / step));
    for (let t = startAt.getTime() + n0 * step; t < hi; t += step) out.push(new Date(t));
    return out;
  }
  const times = [...new Set(schedule.times)].sort();
  let day = zonedDate(new Date(lo), timeZone);
  const lastDay = zonedDate(new Date(Math.min(hi, lo + 400 * DAY)), timeZone);
  for (; day <= lastDay; day = addDays(day, 1))
    for (const t of times) {
      const at = zonedInstant(day, t, timeZone).getTime();
      if (at >= lo && at < hi) out.push(new Date(at));
    }
  return out;
}

/** A prescription line's frequency (contracts/pharmacy.ts `ZFrequency`). */
export type DoseFrequency =
  | { kind: 'times_per_day'; times: number }
  | { kind: 'every_hours'; hours: number }
  | { kind: 'at_night' }
  | { kind: 'as_needed'; max_per_day: number }
  | { kind: 'once' };

/** The wall-clock times of "n times a day": the standard ones up to 4, else every 24/n hours from 08:00. */
export function timesPerDay(n: number): string[] {
  const standard = DOSE_TIMES[n];
  if (standard) return [...standard];
  const step = (24 * 60) / n;
  return Array.from({ length: n }, (_, i) => {
    const minutes = Math.round(8 * 60 + i * step) % (24 * 60);
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  });
}

/**
 * The scheduled doses of a line in `[from, to)`: from the start (the prescription's signature) for
 * `durationDays` days (null: until the prescription ends). "Every N hours" counts from the first full hour after
 * the start; "once" is at the start; "as needed" has no scheduled dose.
 */
export function doseTimes(
  frequency: DoseFrequency,
  startAt: Date,
  durationDays: number | null,
  from: Date,
  to: Date,
  timeZone: string,
): Date[] {
  const endAt = durationDays ? new Date(startAt.getTime() + durationDays * DAY) : null;
  switch (frequency.kind) {
    case 'as_needed':
      return [];
    case 'once':
      return scheduleSlots({ kind: 'once' }, startAt, endAt, from, to, timeZone);
    case 'every_hours': {
      const first = new Date(Math.ceil(startAt.getTime() / HOUR) * HOUR);
      return scheduleSlots({ kind: 'every_hours', hours: frequency.hours }, first, endAt, from, to, timeZone);
    }
    case 'at_night':
      return scheduleSlots(
        { kind: 'fixed_times', times: [NIGHT_DOSE_TIME] },
        startAt,
        endAt,
        from,
        to,
        timeZone,
      );
    case 'times_per_day':
      return scheduleSlots(
        { kind: 'fixed_times', times: timesPerDay(frequency.times) },
        startAt,
        endAt,
        from,
        to,
        timeZone,
      );
  }
}

/** Done (or still open at `now`) after its time plus the grace. */
export function isLate(
  scheduledAt: Date,
  doneAt: Date | null,
  now: Date,
  graceMinutes = GRACE_MINUTES,
): boolean {
  const limit = scheduledAt.getTime() + graceMinutes * MINUTE;
  return (doneAt ?? now).getTime() > limit;
}
