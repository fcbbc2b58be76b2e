/**
 * The calendar of appointments (day, week and month views) drawn by EventCalendar (decision 0031), the only
 * module that imports the library: the calendar page loads it lazily. It draws what `calendar-events.ts` gives,
 * in the page's view and date (the page has the toolbar), and reports clicks, drops and the visible range. Day
 * cells lose focus when clicked (spec §2).
 */
import '@event-calendar/core/index.css';
import './appointment-calendar.css';
import {
  type Calendar,
  createCalendar,
  DayGrid,
  destroyCalendar,
  Interaction,
  TimeGrid,
} from '@event-calendar/core';
import { Box, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { CalendarEvent, CalendarItem, CalendarView } from './calendar-events';

export interface AppointmentCalendarProps {
  view: CalendarView;
  /** The date shown (`YYYY-MM-DD`). */
  date: string;
  events: readonly CalendarEvent[];
  locale: string;
  /** The label of the all-day row of the day and week views. */
  allDayText: string;
  onItemClick: (item: CalendarItem) => void;
  /** A click on a day (month view) or an empty time (day and week views). */
  onDateClick: (date: Date, allDay: boolean) => void;
  /** An appointment dragged to `start`; `revert` puts it back (the server refused). */
  onMove: (item: CalendarItem, start: Date, revert: () => void) => void;
  /** Whether a drag may end at `start` (live feedback). */
  canDrop: (item: CalendarItem, start: Date) => boolean;
}

function toLibraryEvent(event: CalendarEvent): Calendar.EventInput {
  return {
    id: event.id,
    start: event.start,
    end: event.end,
    allDay: event.allDay,
    // Plain text: the library renders a string title as a text node (no HTML from data).
    title: event.title,
    classNames: event.classNames,
    ...(event.backgroundColor ? { backgroundColor: event.backgroundColor } : {}),
    editable: event.editable,
    startEditable: event.editable,
    durationEditable: false,
    extendedProps: { item: event.item },
  };
}

function itemOf(event: Calendar.Event): CalendarItem {
  return event.extendedProps.item as CalendarItem;
}

export default function AppointmentCalendar(props: AppointmentCalendarProps) {
  const host = useRef<HTMLDivElement>(null);
  const calendar = useRef<Calendar | null>(null);
  const opening = useRef(true);
  const latest = useRef(props);
  latest.current = props;
  const scheme = useComputedColorScheme('light');

  useEffect(() => {
    if (!host.current) return;
    const instance = createCalendar(host.current, [DayGrid, TimeGrid, Interaction], {
      view: latest.current.view,
      date: latest.current.date,
      locale: latest.current.locale,
      firstDay: 1,
      height: '720px',
      scrollTime: '07:00',
      allDayContent: latest.current.allDayText,
      headerToolbar: { start: '', center: '', end: '' },
      allDaySlot: true,
      // The whole day (appointments may lie outside office hours), opened on the morning.
      slotMinTime: '00:00',
      slotMaxTime: '24:00',
      slotDuration: '00:15',
      snapDuration: '00:05',
      nowIndicator: true,
      dayMaxEvents: true,
      eventDurationEditable: false,
      events: latest.current.events.map(toLibraryEvent),
      // One line of text (the time, then the title); the whole title as the tooltip. Text nodes only.
      eventContent: (info) => ({
        domNodes: [document.createTextNode(`${info.timeText} ${String(info.event.title)}`)],
      }),
      eventDidMount: (info) => {
        info.el.title = String(info.event.title);
      },
      displayEventEnd: false,
      eventClick: (info) => latest.current.onItemClick(itemOf(info.event)),
      dateClick: (info) => {
        // Spec §2: a clicked day cell does not keep the focus.
        info.dayEl.blur();
        const active = document.activeElement;
        if (active instanceof HTMLElement && info.dayEl.contains(active)) active.blur();
        latest.current.onDateClick(info.date, info.allDay);
      },
      dragConstraint: (info) => latest.current.canDrop(itemOf(info.event), info.event.start),
      eventDrop: (info) => latest.current.onMove(itemOf(info.event), info.event.start, info.revert),
    });
    calendar.current = instance;
    return () => {
      calendar.current = null;
      void destroyCalendar(instance);
    };
  }, []);

  // Later values only: the calendar was created with the first ones (setting them again as the page opened redrew
  // the whole grid once more). `opening` is true during the first commit's effects (the last one clears it).
  useEffect(() => {
    if (!opening.current) calendar.current?.setOption('events', props.events.map(toLibraryEvent));
  }, [props.events]);
  useEffect(() => {
    if (!opening.current) calendar.current?.setOption('view', props.view);
  }, [props.view]);
  useEffect(() => {
    if (!opening.current) calendar.current?.setOption('date', props.date);
  }, [props.date]);
  useEffect(() => {
    if (opening.current) return;
    calendar.current?.setOption('locale', props.locale);
    calendar.current?.setOption('allDayContent', props.allDayText);
  }, [props.locale, props.allDayText]);
  useEffect(() => {
    opening.current = false;
  }, []);

  return (
    <Box
      className={scheme === 'dark' ? 'gs-calendar ec-dark' : 'gs-calendar'}
      data-testid="appointment-calendar"
      data-view={props.view}
    >
      <div ref={host} />
    </Box>
  );
}
