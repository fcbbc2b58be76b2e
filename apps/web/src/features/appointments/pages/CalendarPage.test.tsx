import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APPOINTMENT_ID,
  appointment,
  DEPARTMENT,
  DOCTOR,
  page,
  slot,
  todayAt,
} from '../../../lib/clinical/components/appointments.fixture';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

/** The calendar library, replaced by a recorder of the options the page gives it (its drawing is its own). */
const library = vi.hoisted(() => ({
  options: {} as Record<string, unknown>,
  host: null as HTMLElement | null,
}));
vi.mock('@event-calendar/core', () => ({
  DayGrid: {},
  TimeGrid: {},
  Interaction: {},
  createCalendar: (host: HTMLElement, _plugins: unknown, options: Record<string, unknown>) => {
    library.host = host;
    library.options = { ...options };
    return {
      setOption: (name: string, value: unknown) => {
        library.options[name] = value;
      },
    };
  },
  destroyCalendar: async () => undefined,
}));

type Item = Record<string, unknown>;
type LibEvent = { id: string; title: string; classNames: string[]; extendedProps: { item: Item } };
const events = () => (library.options.events ?? []) as LibEvent[];
const call = (name: string, info: unknown) =>
  act(() => (library.options[name] as (i: unknown) => void)(info));

const doctor = makeUser({ id: DOCTOR.id });
const FREE = slot(todayAt(10, 0, 1));
const BOOKED = appointment({ start: todayAt(9, 0, 1) });

function routes(extra: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    '/api/departments/': () => page([{ ...DEPARTMENT, is_active: true }]),
    '/api/appointments/providers/': () =>
      Response.json({ results: [{ ...DOCTOR, departments: [DEPARTMENT] }] }),
    '/api/appointments/': () => page([BOOKED]),
    '/api/appointments/slots/': () => Response.json({ results: [FREE], truncated: false, time_zone: 'UTC' }),
    '/api/appointments/ics-link/': () =>
      Response.json({ active: false, created_at: null, last_used_at: null }),
    ...extra,
  };
}

async function openCalendar(extra: Record<string, (r: MockRequest) => Response> = {}, path = '/calendar') {
  const view = renderApp(path, { user: doctor, routes: routes(extra) });
  await screen.findByTestId('appointment-calendar', {}, { timeout: 15_000 });
  // A free place and the appointment, once both answers arrived.
  await waitFor(() => expect(events()).toHaveLength(2));
  return view;
}

beforeEach(() => {
  library.options = {};
  library.host = null;
});
afterEach(() => vi.unstubAllGlobals());

describe('the calendar', { timeout: 60_000 }, () => {
  it('asks for my appointments and my free places of the week and draws them', async () => {
    const { fetchMock } = await openCalendar();
    const urls = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://x'));
    const list = urls.find((u) => u.pathname === '/api/appointments/');
    expect(list?.searchParams.get('mine')).toBe('true');
    expect(list?.searchParams.get('status')).not.toContain('cancelled');
    const slots = urls.find((u) => u.pathname === '/api/appointments/slots/');
    expect(slots?.searchParams.get('provider')).toBe(DOCTOR.id);
    expect(events().map((e) => e.id)).toEqual([`s:${FREE.start}|${DOCTOR.id}`, `a:${APPOINTMENT_ID}`]);
    const [free, booked] = events();
    expect(free?.classNames).toContain('gs-free');
    expect(free?.title).toBe('Libre · 1/1');
    expect(booked?.title).toBe('Bénédicte Ngalula · Suivi');
    expect(booked?.classNames).toEqual(['gs-appointment', 'gs-type-follow_up', 'gs-status-booked']);
    expect(library.options.view).toBe('timeGridWeek');
  });

  it('takes the focus away from a day cell that is clicked (spec §2)', async () => {
    await openCalendar();
    const cell = document.createElement('div');
    cell.tabIndex = 0;
    const inner = document.createElement('button');
    cell.appendChild(inner);
    library.host?.appendChild(cell);
    cell.focus();
    expect(document.activeElement).toBe(cell);
    await call('dateClick', {
      dayEl: cell,
      date: new Date(),
      allDay: false,
      jsEvent: new MouseEvent('click'),
    });
    expect(document.activeElement).not.toBe(cell);
    inner.focus();
    await call('dateClick', {
      dayEl: cell,
      date: new Date(),
      allDay: false,
      jsEvent: new MouseEvent('click'),
    });
    expect(cell.contains(document.activeElement)).toBe(false);
  });

  it('opens the booking form on the clicked free place', async () => {
    await openCalendar({ '/api/patients/': () => page([]) });
    const free = events()[0] as LibEvent;
    await call('eventClick', { event: { extendedProps: free.extendedProps } });
    const dialog = await screen.findByTestId('booking-form');
    expect(await within(dialog).findByTestId('chosen-slot')).toHaveTextContent('Dr Awa Diop');
  });

  it('puts a dragged appointment back when the server refuses the move', async () => {
    await openCalendar({
      [`/api/appointments/${APPOINTMENT_ID}/reschedule/`]: () =>
        Response.json({ detail: 'Ce créneau est complet.' }, { status: 409 }),
    });
    const booked = events()[1] as LibEvent;
    // Only a free place of the same provider accepts the drop.
    const canDrop = library.options.dragConstraint as (i: unknown) => boolean;
    expect(canDrop({ event: { extendedProps: booked.extendedProps, start: new Date(FREE.start) } })).toBe(
      true,
    );
    expect(
      canDrop({ event: { extendedProps: booked.extendedProps, start: new Date(todayAt(11, 0, 1)) } }),
    ).toBe(false);
    const revert = vi.fn();
    await call('eventDrop', {
      event: { extendedProps: booked.extendedProps, start: new Date(FREE.start) },
      revert,
    });
    await waitFor(() => expect(revert).toHaveBeenCalledTimes(1));
    expect(await screen.findByText("Ce créneau vient d'être pris")).toBeInTheDocument();
  });

  it('gives the calendar the view, the date and the language chosen after it opened (created with the first ones)', async () => {
    const user = userEvent.setup();
    const { router } = await openCalendar();
    expect(library.options.view).toBe('timeGridWeek');
    await user.click(screen.getByRole('radio', { name: 'Jour' }));
    await waitFor(() => expect(library.options.view).toBe('timeGridDay'));
    expect(router.state.location.search).toContain('view=timeGridDay');
    const day = library.options.date;
    await user.click(screen.getByRole('button', { name: 'Période suivante' }));
    await waitFor(() => expect(library.options.date).not.toEqual(day));
  });

  it('switches to the day of a clicked month cell', async () => {
    const { router } = await openCalendar({}, '/calendar?view=dayGridMonth');
    expect(library.options.view).toBe('dayGridMonth');
    // The month shows one summary of the free places per day.
    expect(events()[0]?.title).toBe('1 place libre');
    const cell = document.createElement('div');
    library.host?.appendChild(cell);
    await call('dateClick', {
      dayEl: cell,
      date: new Date(2026, 11, 3),
      allDay: true,
      jsEvent: new MouseEvent('click'),
    });
    await waitFor(() => expect(router.state.location.search).toContain('view=timeGridDay'));
    expect(router.state.location.search).toContain('date=2026-12-03');
  });

  it('creates my personal iCalendar link, shows it once with a copy button, and says no patient name is in it', async () => {
    const user = userEvent.setup();
    await openCalendar({
      '/api/appointments/ics-link/': (r) =>
        r.method === 'POST'
          ? Response.json(
              {
                active: true,
                created_at: '2026-11-25T10:00:00Z',
                last_used_at: null,
                url: '/api/appointments/ics/secret-token.ics',
              },
              { status: 201 },
            )
          : Response.json({ active: false, created_at: null, last_used_at: null }),
    });
    const panel = screen.getByTestId('ics-panel');
    expect(panel).toHaveTextContent('aucun nom de patient');
    await user.click(within(panel).getByRole('button', { name: 'Créer mon lien' }));
    expect(await within(panel).findByTestId('ics-url')).toHaveValue(
      `${window.location.origin}/api/appointments/ics/secret-token.ics`,
    );
    expect(within(panel).getByRole('button', { name: 'Copier' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Révoquer le lien' })).toBeInTheDocument();
  });
});
