/**
 * What the calendar shows as it opens, decided from the address, the user and the day (issue 38): the view, the
 * date, the scope ("mine", a provider, a department), and so the appointments and free slots it asks for. The page
 * decides with `calendarChoice` as it renders; the app starts the same queries by path as it starts
 * (`calendarFirstQueries`, app/first-queries.ts) from the persisted session — one rule for both.
 */
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '@greensen/shared/domain/appointments';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import { departmentsQueryOptions } from '../../../lib/clinical/api/list-departments';
import type { FirstQueries } from '../../../lib/first-data';
import { moduleAccessFor, type Permissions, permissionsFor } from '../../../lib/permissions';
import { icsLinkQueryOptions } from '../api/ics-link';
import { type AppointmentFilters, appointmentWindowQueryOptions } from '../api/list-appointments';
import { providersQueryOptions } from '../api/list-providers';
import { type SlotParams, slotsAskable, slotsQueryOptions } from '../api/list-slots';
import { CALENDAR_VIEWS, type CalendarView } from '../components/calendar-events';
import { rangeOf } from '../components/calendar-range';
import { laterDate, localDate } from '../components/slot-format';

export type CalendarScope = 'mine' | 'provider' | 'department';
export const CALENDAR_SCOPES: readonly CalendarScope[] = ['mine', 'provider', 'department'];
/** Who usually has a schedule of their own: "mine" first. */
const PROVIDER_GROUPS: readonly DashboardGroup[] = ['doctor', 'head_doctor', 'midwife', 'nurse'];
const NOT_CANCELLED: AppointmentStatus[] = APPOINTMENT_STATUSES.filter((s) => s !== 'cancelled');

function isView(value: string | null): value is CalendarView {
  return CALENDAR_VIEWS.includes(value as CalendarView);
}

/** What the user may do on the calendar: read the appointments (the module guard's rule), book. */
export function calendarRights(
  permissions: Pick<Permissions, 'can'>,
  access: { allowed: boolean },
): { mayRead: boolean; mayBook: boolean } {
  const mayRead = access.allowed;
  return { mayRead, mayBook: mayRead && permissions.can('appointment.book') };
}

export interface CalendarWho {
  groups: readonly DashboardGroup[];
  userId: string | null;
  mayRead: boolean;
  mayBook: boolean;
  currentDepartment: string | null;
}

export interface CalendarChoice {
  today: string;
  view: CalendarView;
  date: string;
  scope: CalendarScope;
  provider: string | null;
  department: string | null;
  tab: 'calendar' | 'schedules';
  /** The scope names whom to show (a provider or a department picked). */
  ready: boolean;
  from: string;
  until: string;
  appointments: { filters: AppointmentFilters; enabled: boolean };
  slots: { params: SlotParams; enabled: boolean };
}

/** The calendar's choices for the address's `params`, the user and `today` (the browser's local date). */
export function calendarChoice(
  params: URLSearchParams,
  who: CalendarWho,
  showCancelled: boolean,
  today: string = localDate(new Date()),
): CalendarChoice {
  const { mayRead, mayBook } = who;
  const view: CalendarView = isView(params.get('view'))
    ? (params.get('view') as CalendarView)
    : 'timeGridWeek';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? (params.get('date') as string) : today;
  const defaultScope: CalendarScope = who.groups.some((g) => PROVIDER_GROUPS.includes(g))
    ? 'mine'
    : 'department';
  const scope: CalendarScope = CALENDAR_SCOPES.includes(params.get('scope') as CalendarScope)
    ? (params.get('scope') as CalendarScope)
    : defaultScope;
  const provider = params.get('provider');
  const department = params.get('department') ?? (scope === 'department' ? who.currentDepartment : null);
  // Who reads no appointment (an administrator keeping the schedules) lands on the schedules.
  const tab =
    params.get('tab') === 'schedules' || (!mayRead && params.get('tab') !== 'calendar')
      ? 'schedules'
      : 'calendar';
  const { from, to: until } = rangeOf(view, date);
  const target =
    scope === 'mine'
      ? { mine: true }
      : scope === 'provider'
        ? { provider: provider || null }
        : { department: department || null };
  const ready = scope === 'mine' || Boolean(scope === 'provider' ? provider : department);
  return {
    today,
    view,
    date,
    scope,
    provider,
    department,
    tab,
    ready,
    from,
    until,
    appointments: {
      filters: { ...target, from, to: until, status: showCancelled ? [] : NOT_CANCELLED },
      enabled: mayRead && ready && tab === 'calendar',
    },
    slots: {
      params: {
        provider: scope === 'mine' ? who.userId : scope === 'provider' ? provider : null,
        department: scope === 'department' ? department : null,
        from: laterDate(from, today),
        to: until,
        freeOnly: true,
        limit: 500,
      },
      enabled: mayBook && ready && until >= today && tab === 'calendar',
    },
  };
}

/**
 * The calendar as it opens, for the persisted session: its appointments and free slots (the page's choice, above),
 * then the providers and departments of its pickers and the iCalendar link's state. Cancelled appointments are hidden as it opens.
 */
export const calendarFirstQueries: FirstQueries = ({
  hospitalId,
  user,
  currentDepartmentId,
  scope,
  search,
}) => {
  const permissions = permissionsFor(user, hospitalId, scope.environment, scope.extraModules);
  const rights = calendarRights(permissions, moduleAccessFor('appointments', user, hospitalId, scope));
  const choice = calendarChoice(
    search,
    { ...permissions, ...rights, currentDepartment: currentDepartmentId },
    false,
  );
  return [
    ...(choice.appointments.enabled
      ? [appointmentWindowQueryOptions(hospitalId, choice.appointments.filters)]
      : []),
    ...(choice.slots.enabled && slotsAskable(choice.slots.params)
      ? [slotsQueryOptions(hospitalId, choice.slots.params)]
      : []),
    ...(rights.mayRead ? [providersQueryOptions(hospitalId, null)] : []),
    departmentsQueryOptions(hospitalId),
    // The iCalendar link's panel below the calendar.
    ...(choice.tab === 'calendar' ? [icsLinkQueryOptions(hospitalId)] : []),
  ];
};
