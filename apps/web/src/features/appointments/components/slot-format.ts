/** How slots and appointment times read on screen (browser time zone, UI language, like the rest of the app). */
import type { TSlot } from '@greensen/shared/contracts/appointments';
import { dateTimeFormat } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';

function locale(): string {
  return uiLanguage() === 'fr' ? 'fr-FR' : 'en-GB';
}

/** The local calendar date `YYYY-MM-DD` of an instant. */
export function localDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `YYYY-MM-DD` plus `days`. */
export function addDaysTo(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return localDate(new Date(y, m - 1, d + days, 12));
}

/** The later of two dates `YYYY-MM-DD`. */
export function laterDate(a: string, b: string): string {
  return a.localeCompare(b) >= 0 ? a : b;
}

/** "Mardi 1 décembre": the first letter up (a heading or a cell), the rest as the language writes it. */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** "mardi 1 décembre" / "Tuesday 1 December". */
export function formatDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return dateTimeFormat(locale(), { weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(y, m - 1, d, 12),
  );
}

/** "09:30". */
export function formatClock(value: string): string {
  return dateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit' }).format(new Date(value));
}

/** "mardi 1 décembre, 09:30–09:50". */
export function formatSlotRange(start: string, end: string): string {
  return `${formatDay(localDate(start))}, ${formatClock(start)}–${formatClock(end)}`;
}

/** The identity of a slot among a search's answers (several providers may start at the same time). */
export function slotKey(slot: Pick<TSlot, 'start'> & { provider: { id: string } }): string {
  return `${slot.start}|${slot.provider.id}`;
}

/** Slots grouped by local day, in time order (the search answers them in start order). */
export function slotsByDay(slots: readonly TSlot[]): { date: string; slots: TSlot[] }[] {
  const days: { date: string; slots: TSlot[] }[] = [];
  for (const slot of slots) {
    const date = localDate(slot.start);
    const last = days.at(-1);
    if (last && last.date === date) last.slots.push(slot);
    else days.push({ date, slots: [slot] });
  }
  return days;
}
