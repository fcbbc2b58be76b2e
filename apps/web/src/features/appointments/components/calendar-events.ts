/**
 * What the calendar draws: appointments (coloured by type, styled by status, draggable while open and when the
 * user books) and free capacity — each free slot in the day and week views, one "N places libres" per day and
 * provider in the month view. Pure: the calendar component turns these into the library's events.
 */
import type { TAppointment, TSlot } from '@greensen/shared/contracts/appointments';
import { isOpenAppointment } from '@greensen/shared/domain/appointments';
import { APPOINTMENT_TYPE_COLORS } from '../../../lib/clinical/components/AppointmentBadges';
import { localDate, slotKey } from './slot-format';

export type CalendarView = 'timeGridDay' | 'timeGridWeek' | 'dayGridMonth';
export const CALENDAR_VIEWS: readonly CalendarView[] = ['timeGridDay', 'timeGridWeek', 'dayGridMonth'];

export type CalendarItem =
  | { kind: 'appointment'; appointment: TAppointment }
  | { kind: 'slot'; slot: TSlot }
  | { kind: 'free-day'; date: string; provider: { id: string; full_name: string }; free: number };

export interface CalendarEvent {
  id: string;
  start: Date;
  end: Date;
  allDay: boolean;
  title: string;
  classNames: string[];
  backgroundColor?: string;
  editable: boolean;
  item: CalendarItem;
}

export interface EventTexts {
  type: (type: TAppointment['appointment_type']) => string;
  free: (free: number, capacity: number) => string;
  freeDay: (free: number, provider: string) => string;
}

export function appointmentEvents(
  appointments: readonly TAppointment[],
  texts: EventTexts,
  options: { canMove: boolean; showProvider: boolean },
): CalendarEvent[] {
  return appointments.map((a) => ({
    id: `a:${a.id}`,
    start: new Date(a.start),
    end: new Date(a.end),
    allDay: false,
    title: [
      a.patient.full_name,
      texts.type(a.appointment_type),
      options.showProvider ? a.provider.full_name : '',
    ]
      .filter(Boolean)
      .join(' · '),
    classNames: ['gs-appointment', `gs-type-${a.appointment_type}`, `gs-status-${a.status}`],
    backgroundColor: `var(--mantine-color-${APPOINTMENT_TYPE_COLORS[a.appointment_type]}-filled)`,
    editable: options.canMove && isOpenAppointment(a.status),
    item: { kind: 'appointment', appointment: a },
  }));
}

/** Free places: every slot in the day and week views; one summary per day and provider in the month view. */
export function freeEvents(
  slots: readonly TSlot[],
  view: CalendarView,
  texts: EventTexts,
  showProvider: boolean,
): CalendarEvent[] {
  const open = slots.filter((s) => s.free > 0);
  if (view !== 'dayGridMonth')
    return open.map((slot) => ({
      id: `s:${slotKey(slot)}`,
      start: new Date(slot.start),
      end: new Date(slot.end),
      allDay: false,
      title: [texts.free(slot.free, slot.capacity), showProvider ? slot.provider.full_name : '']
        .filter(Boolean)
        .join(' · '),
      classNames: ['gs-free'],
      editable: false,
      item: { kind: 'slot', slot },
    }));
  const days = new Map<string, { date: string; provider: TSlot['provider']; free: number }>();
  for (const slot of open) {
    const date = localDate(slot.start);
    const key = `${date}|${slot.provider.id}`;
    const day = days.get(key) ?? { date, provider: slot.provider, free: 0 };
    day.free += slot.free;
    days.set(key, day);
  }
  return [...days.values()].map((day) => {
    const [y, m, d] = day.date.split('-').map(Number) as [number, number, number];
    return {
      id: `f:${day.date}|${day.provider.id}`,
      start: new Date(y, m - 1, d),
      end: new Date(y, m - 1, d + 1),
      allDay: true,
      title: texts.freeDay(day.free, day.provider.full_name),
      classNames: ['gs-free'],
      editable: false,
      item: { kind: 'free-day', ...day },
    };
  });
}

/** Whether an appointment dropped at `start` lands on a free slot of its provider (the drag's live check). */
export function dropsOnFreeSlot(
  slots: readonly TSlot[],
  appointment: Pick<TAppointment, 'provider'>,
  start: Date,
): boolean {
  return slots.some(
    (s) =>
      s.free > 0 &&
      s.provider.id === appointment.provider.id &&
      new Date(s.start).getTime() === start.getTime(),
  );
}
