/** The dates a calendar view shows and its moves (local dates `YYYY-MM-DD`, weeks from Monday). */
import { dateTimeFormat } from '../../../lib/format';
import type { CalendarView } from './calendar-events';
import { addDaysTo, localDate } from './slot-format';

function parts(date: string): [number, number, number] {
  return date.split('-').map(Number) as [number, number, number];
}

/** Monday of the week of `date`. */
export function mondayOf(date: string): string {
  const [y, m, d] = parts(date);
  const weekday = (new Date(y, m - 1, d, 12).getDay() + 6) % 7;
  return addDaysTo(date, -weekday);
}

/** The dates to ask the server for (inclusive): the day, the week, or the month's grid of whole weeks. */
export function rangeOf(view: CalendarView, date: string): { from: string; to: string } {
  if (view === 'timeGridDay') return { from: date, to: date };
  if (view === 'timeGridWeek') {
    const from = mondayOf(date);
    return { from, to: addDaysTo(from, 6) };
  }
  const [y, m] = parts(date);
  const first = localDate(new Date(y, m - 1, 1, 12));
  const last = localDate(new Date(y, m, 0, 12));
  return { from: mondayOf(first), to: addDaysTo(mondayOf(last), 6) };
}

/** The date one step before (-1) or after (+1) in the view. */
export function stepDate(view: CalendarView, date: string, direction: 1 | -1): string {
  if (view === 'timeGridDay') return addDaysTo(date, direction);
  if (view === 'timeGridWeek') return addDaysTo(date, 7 * direction);
  const [y, m] = parts(date);
  return localDate(new Date(y, m - 1 + direction, 1, 12));
}

/** The heading of the view: "mardi 1 décembre 2026", "30 nov. – 6 déc. 2026", "décembre 2026". */
export function viewTitle(view: CalendarView, date: string, locale: string): string {
  const [y, m, d] = parts(date);
  const format = (options: Intl.DateTimeFormatOptions, at: Date) =>
    dateTimeFormat(locale, options).format(at);
  if (view === 'dayGridMonth') return format({ month: 'long', year: 'numeric' }, new Date(y, m - 1, 1, 12));
  if (view === 'timeGridDay') return format({ dateStyle: 'full' }, new Date(y, m - 1, d, 12));
  const { from, to } = rangeOf(view, date);
  const [fy, fm, fd] = parts(from);
  const [ty, tm, td] = parts(to);
  const start = format({ day: 'numeric', month: 'short' }, new Date(fy, fm - 1, fd, 12));
  const end = format({ day: 'numeric', month: 'short', year: 'numeric' }, new Date(ty, tm - 1, td, 12));
  return `${start} – ${end}`;
}
